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
