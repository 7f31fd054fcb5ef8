"""groundgraph: grounded, explainable retrieval and reasoning over documents.

from groundgraph import DocumentGraph
graph = DocumentGraph("notes.db")
graph.add_document(markdown_text, "User Guide")
for hit in graph.search("config fails"):
    print(hit.title, hit.edge_type, hit.score)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundgraph.errors import (
    BudgetExhaustedError,
    FormatError,
    GroundgraphError,
    InputError,
    InputTooLargeError,
    LLMConnectionError,
    LLMError,
    LLMResponseError,
    NoStoreError,
    NotFoundError,
    SchemaVersionError,
    StoreBusyError,
    StoreError,
)
from groundgraph.lazy_names import lazy_names

if TYPE_CHECKING:  # type checkers see the names; the interpreter loads them on first use
    from groundgraph.graph import AsyncDocumentGraph, DocumentGraph
    from groundgraph.index.bm25 import BM25Params
    from groundgraph.llm import LLMBudget, OpenAICompatibleLLM, budgeted
    from groundgraph.memory import LLMConflictResolver, RuleConflictResolver
    from groundgraph.model import Document, Edge, Hit, Node, TermScore
    from groundgraph.reason.relations import GroundedReasoner
    from groundgraph.reason.thought import GroundedGraphOfThought
    from groundgraph.store import Removal, SQLiteStore, Store
    from groundgraph.text import Analyzer
    from groundgraph.tools import execute_tools, got_tools

__version__ = "0.1.0"

# Imported on first use, so `import groundgraph` stays light (the errors alone load now).
_LAZY = {
    "DocumentGraph": "groundgraph.graph",
    "AsyncDocumentGraph": "groundgraph.graph",
    "BM25Params": "groundgraph.index.bm25",
    "Document": "groundgraph.model",
    "Edge": "groundgraph.model",
    "Hit": "groundgraph.model",
    "Node": "groundgraph.model",
    "TermScore": "groundgraph.model",
    "Removal": "groundgraph.store",
    "SQLiteStore": "groundgraph.store",
    "Store": "groundgraph.store",
    "Analyzer": "groundgraph.text",
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


__getattr__ = lazy_names(__name__, _LAZY, globals())


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
    "NoStoreError",
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
