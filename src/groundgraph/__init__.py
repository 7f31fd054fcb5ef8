"""groundgraph: grounded, explainable retrieval and reasoning over documents.

from groundgraph import DocumentGraph
graph = DocumentGraph("notes.db")
graph.add_document(markdown_text, "User Guide")
for hit in graph.search("config fails"):
    print(hit.title, hit.edge_type, hit.score)
"""

from __future__ import annotations

from groundgraph.errors import (
    FormatError,
    GroundgraphError,
    InputError,
    InputTooLargeError,
    NotFoundError,
    SchemaVersionError,
    StoreBusyError,
    StoreError,
)
from groundgraph.graph import DocumentGraph
from groundgraph.index.bm25 import BM25Params
from groundgraph.records import Document, Edge, Hit, Node, TermScore
from groundgraph.store import Removal, SQLiteStore, Store
from groundgraph.text import Analyzer

__version__ = "0.1.0"

__all__ = [
    "Analyzer",
    "BM25Params",
    "Document",
    "DocumentGraph",
    "Edge",
    "FormatError",
    "GroundgraphError",
    "Hit",
    "InputError",
    "InputTooLargeError",
    "Node",
    "NotFoundError",
    "Removal",
    "SQLiteStore",
    "SchemaVersionError",
    "Store",
    "StoreBusyError",
    "StoreError",
    "TermScore",
    "__version__",
]
