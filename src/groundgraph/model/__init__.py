"""The record model: every record that crosses a module line, the id scheme, one JSON form.

- ``ids``: document, section, chunk, entity and fact ids;
- ``record``: :class:`Record`, the base that gives results one JSON form (camelCase keys)
  and a read-only Mapping over it;
- ``graph``: documents, nodes, edges and the edge types;
- ``results``: hits, citations, bridges, extractive answers;
- ``store_records``: what the store protocols take and give (removals, fact events, the
  contradiction ledger);
- ``memory``: what the memory and causal verbs return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundgraph.lazy_names import lazy_names

if TYPE_CHECKING:  # type checkers see the names; the interpreter loads them on first use
    from groundgraph.model.graph import (
        EDGE_TYPES,
        EDGE_WEIGHTS,
        NEXT,
        NODE_KINDS,
        PARENT_CHILD,
        REFERENCE,
        SEMANTIC,
        STRUCTURE_TYPES,
        Document,
        Edge,
        Node,
        NodeKind,
        semantic_weight,
    )
    from groundgraph.model.record import Record, camel, to_json
    from groundgraph.model.results import (
        Answer,
        Bridge,
        BridgeHop,
        Citation,
        EvidenceSpan,
        Hit,
        Seeding,
        TermScore,
    )

# Imported on first use, so that a module of this package (``model.masked``, which the
# CLI's group imports for its error lines) loads without the records (issue 12, cold start).
_LAZY = {
    **dict.fromkeys(
        (
            "EDGE_TYPES",
            "EDGE_WEIGHTS",
            "NEXT",
            "NODE_KINDS",
            "PARENT_CHILD",
            "REFERENCE",
            "SEMANTIC",
            "STRUCTURE_TYPES",
            "Document",
            "Edge",
            "Node",
            "NodeKind",
            "semantic_weight",
        ),
        "groundgraph.model.graph",
    ),
    **dict.fromkeys(("Record", "camel", "to_json"), "groundgraph.model.record"),
    **dict.fromkeys(
        (
            "Answer",
            "Bridge",
            "BridgeHop",
            "Citation",
            "EvidenceSpan",
            "Hit",
            "Seeding",
            "TermScore",
        ),
        "groundgraph.model.results",
    ),
}

__getattr__ = lazy_names(__name__, _LAZY, globals())

__all__ = [
    "EDGE_TYPES",
    "EDGE_WEIGHTS",
    "NEXT",
    "NODE_KINDS",
    "PARENT_CHILD",
    "REFERENCE",
    "SEMANTIC",
    "STRUCTURE_TYPES",
    "Answer",
    "Bridge",
    "BridgeHop",
    "Citation",
    "Document",
    "Edge",
    "EvidenceSpan",
    "Hit",
    "Node",
    "NodeKind",
    "Record",
    "Seeding",
    "TermScore",
    "camel",
    "semantic_weight",
    "to_json",
]
