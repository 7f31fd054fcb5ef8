"""The DocumentGraph facade and the saved-graph format.

The names load on first use: importing a module of this package (the verb table, the
saved-graph formats) does not load the facade, nor the facade the async wrapper.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from groundgraph.graph.aio import AsyncDocumentGraph
    from groundgraph.graph.document_graph import DocumentGraph, GraphSettings

_LAZY = {
    "AsyncDocumentGraph": "groundgraph.graph.aio",
    "DocumentGraph": "groundgraph.graph.document_graph",
    "GraphSettings": "groundgraph.graph.document_graph",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'groundgraph.graph' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


__all__ = ["AsyncDocumentGraph", "DocumentGraph", "GraphSettings"]
