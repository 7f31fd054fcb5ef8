"""groundgraph: grounded, explainable retrieval and reasoning over documents.

from groundgraph import DocumentGraph
graph = DocumentGraph("notes.db")
graph.add_document(markdown_text, "User Guide")
for hit in graph.search("config fails"):
    print(hit.title, hit.edge_type, hit.score)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from groundgraph.errors import (
    BudgetExhaustedError,
    FormatError,
    GroundgraphError,
    InputError,
    InputTooLargeError,
    LLMConnectionError,
    LLMError,
    LLMResponseError,
    NotFoundError,
    SchemaVersionError,
    StoreBusyError,
    StoreError,
)
from groundgraph.graph import AsyncDocumentGraph, DocumentGraph
from groundgraph.index.bm25 import BM25Params
from groundgraph.model import Document, Edge, Hit, Node, TermScore
from groundgraph.store import Removal, SQLiteStore, Store
from groundgraph.text import Analyzer

__version__ = "0.1.0"

# Imported on first use, so `import groundgraph` (and every CLI start) stays light.
_LAZY = {
    "GroundedGraphOfThought": "groundgraph.reason.thought",
    "GroundedReasoner": "groundgraph.reason.relations",
    "OpenAICompatibleLLM": "groundgraph.llm",
    "LLMBudget": "groundgraph.llm",
    "budgeted": "groundgraph.llm",
    "got_tools": "groundgraph.tools",
    "execute_tools": "groundgraph.tools",
    "RuleConflictResolver": "groundgraph.memory",
    "LLMConflictResolver": "groundgraph.memory",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'groundgraph' has no attribute {name!r}")
    return getattr(import_module(module), name)


__all__ = [
    "Analyzer",
    "AsyncDocumentGraph",
    "BM25Params",
    "BudgetExhaustedError",
    "Document",
    "DocumentGraph",
    "Edge",
    "FormatError",
    "GroundedGraphOfThought",
    "GroundedReasoner",
    "GroundgraphError",
    "Hit",
    "InputError",
    "InputTooLargeError",
    "LLMBudget",
    "LLMConflictResolver",
    "LLMConnectionError",
    "LLMError",
    "LLMResponseError",
    "Node",
    "NotFoundError",
    "OpenAICompatibleLLM",
    "Removal",
    "RuleConflictResolver",
    "SQLiteStore",
    "SchemaVersionError",
    "Store",
    "StoreBusyError",
    "StoreError",
    "TermScore",
    "__version__",
    "budgeted",
    "execute_tools",
    "got_tools",
]
