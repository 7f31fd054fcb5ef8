"""Names a package exports but imports on first use (PEP 562).

A package's ``__init__`` maps each public name to the module that defines it and sets
``__getattr__ = lazy_names(__name__, _LAZY, globals())``: ``import groundgraph.memory``
(or one of its submodules) then loads none of the others until a name is read, and a name
read once is kept in the package's namespace so the hook is not called for it again.
Type checkers see the real imports under ``TYPE_CHECKING``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, modules: Mapping[str, str], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: ``modules`` maps a name to its module."""

    def attribute(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module), name)
        namespace[name] = value  # the next read finds it without this hook
        return value

    return attribute
