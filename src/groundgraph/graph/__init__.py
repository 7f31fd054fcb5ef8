"""The DocumentGraph facade and the saved-graph format."""

from __future__ import annotations

from groundgraph.graph.aio import AsyncDocumentGraph
from groundgraph.graph.document_graph import DocumentGraph, GraphSettings

__all__ = ["AsyncDocumentGraph", "DocumentGraph", "GraphSettings"]
