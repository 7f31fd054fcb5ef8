"""The graph's own records: documents, nodes, edges, and the edge types with their weights.

Their saved form is the graph-of-thought v2 format (``formats.saved``); the ids follow
``model.ids``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

NodeKind = Literal["document", "section", "chunk", "entity"]
NODE_KINDS: tuple[str, ...] = ("document", "section", "chunk", "entity")

#: Edge types and their default weights (DESIGN.md, "The one data model").
PARENT_CHILD = "parent-child"
NEXT = "next"
REFERENCE = "reference"
SEMANTIC = "semantic"
EDGE_WEIGHTS: dict[str, float] = {PARENT_CHILD: 0.8, NEXT: 0.4, REFERENCE: 0.75}
STRUCTURE_TYPES = (PARENT_CHILD, NEXT, REFERENCE)
EDGE_TYPES: tuple[str, ...] = (
    PARENT_CHILD,
    NEXT,
    REFERENCE,
    SEMANTIC,
    "mentions",
    "co-occurs",
    "causes",
    "relation",
    "supersedes",
)


def _values(record: Any) -> tuple[Any, ...]:
    """A slotted record's field values, in field order."""
    return tuple(getattr(record, name) for name in record.__slots__)


def semantic_weight(similarity: float) -> float:
    """Weight of a semantic edge for a similarity in [0, 1]: min(0.9, 0.3 + 0.6·sim)."""
    return min(0.9, 0.3 + 0.6 * similarity)


@dataclass(frozen=True, slots=True)
class Document:
    """A document: the unit that is added, replaced and removed as a whole.

    ``content_hash`` is the SHA-256 of its source (a file's bytes); ``metadata`` the
    fields of its front matter, in their order; ``ingest`` says how it was made (the
    parser version and the settings that shape its nodes, ``ingest.version``): a file
    whose hash and ingest key both match its stored document need not be read again.
    """

    doc_id: str
    title: str
    description: str = ""
    source: str = ""
    content_hash: str = ""
    scopes: tuple[str, ...] = ()
    added_at: str = ""
    metadata: tuple[tuple[str, str], ...] = ()
    ingest: str = ""

    def __reduce__(self) -> tuple[type[Document], tuple[Any, ...]]:
        return Document, _values(self)


@dataclass(frozen=True, slots=True)
class Node:
    """A node of the graph. ``span`` is the (start, end) of ``content`` in the source text."""

    node_id: str
    doc_id: str
    kind: str
    title: str
    content: str
    level: int = 0
    parent_id: str | None = None
    span: tuple[int, int] = (0, 0)
    scopes: tuple[str, ...] = ()
    created_at: str = ""
    invalid_at: str | None = None

    def __reduce__(self) -> tuple[type[Node], tuple[Any, ...]]:
        # Pickled by value, field by field: many times faster to load than the default
        # for frozen slotted classes (documents cross to indexing workers and back).
        return Node, _values(self)


@dataclass(frozen=True, slots=True)
class Edge:
    """A directed edge record; the walk follows it both ways.

    ``sources`` are the node ids of the sections that assert it (its provenance), and
    ``spans`` the (node id, start, end) of the sentences that do, where known;
    ``label`` names the relation of a ``relation`` edge.
    """

    source: str
    target: str
    type: str
    weight: float
    sources: tuple[str, ...] = ()
    label: str | None = None
    created_at: str = ""
    invalid_at: str | None = None
    spans: tuple[tuple[str, int, int], ...] = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Edge, _values(self)
