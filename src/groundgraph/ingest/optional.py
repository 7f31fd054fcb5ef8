"""Optional packages behind the model adapters: imported on first use, named when missing.

The zero-model defaults need none of them. An adapter (a GLiNER entity extractor, a causal
span model, an NLI conflict resolver) imports its package only when it is first called,
so groundgraph imports and runs without it; a missing package is an ``InputError`` that
says which ``pip install`` fixes it, never a bare ``ModuleNotFoundError`` from deep inside.
"""

from __future__ import annotations

import importlib
from typing import Any

from groundgraph.errors import InputError

__all__ = ["load_optional"]


def load_optional(module: str, package: str, purpose: str) -> Any:
    """``import module``, or an InputError telling the user to ``pip install package``."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise InputError(
            f"{purpose} needs the {package!r} package, which is not installed: "
            f"pip install {package} ({error})"
        ) from None
