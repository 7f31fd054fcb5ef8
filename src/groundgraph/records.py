"""Frozen records that cross module lines: documents, nodes, edges and search hits.

Their JSON forms use the camelCase keys of the saved-graph format.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
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
    """A document: the unit that is added, replaced and removed as a whole."""

    doc_id: str
    title: str
    description: str = ""
    source: str = ""
    content_hash: str = ""
    scopes: tuple[str, ...] = ()
    added_at: str = ""

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


@dataclass(frozen=True, slots=True)
class TermScore:
    """One query term's share of a node's BM25 score."""

    term: str
    tf: float
    idf: float
    score: float


@dataclass(frozen=True, slots=True)
class Hit(Mapping[str, Any]):
    """A search hit and the explanation of how it was reached.

    Reads like the seed's dict too: ``hit["title"]``, ``hit["edgeType"]``.
    ``via`` is the node the last step came from and ``edge_type`` that step's edge type
    (both None for a direct match); ``path`` runs from the seed to the hit.
    """

    node_id: str
    doc_id: str
    title: str
    content: str
    score: float
    lexical_score: float
    graph_score: float
    hops: int
    via: str | None
    edge_type: str | None
    path: tuple[str, ...]
    edge_types: tuple[str, ...] = ()
    terms: tuple[TermScore, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, camelCase keys."""
        return {
            "nodeId": self.node_id,
            "docId": self.doc_id,
            "title": self.title,
            "content": self.content,
            "score": self.score,
            "lexicalScore": self.lexical_score,
            "graphScore": self.graph_score,
            "hops": self.hops,
            "via": self.via,
            "edgeType": self.edge_type,
            "path": list(self.path),
            "edgeTypes": list(self.edge_types),
            "terms": [
                {"term": t.term, "tf": t.tf, "idf": t.idf, "score": t.score} for t in self.terms
            ],
        }

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())


@dataclass(frozen=True, slots=True)
class Citation:
    """Exact text in a node: ``content[start:end]`` of ``node_id`` (and its place in the source)."""

    node_id: str
    doc_id: str
    title: str
    start: int
    end: int
    text: str
    source_start: int | None = None
    source_end: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "nodeId": self.node_id,
            "docId": self.doc_id,
            "title": self.title,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "sourceStart": self.source_start,
            "sourceEnd": self.source_end,
        }


@dataclass(frozen=True, slots=True)
class BridgeHop:
    """One hop of a bridge: the edge walked, and the text that supports it (if any)."""

    source: str
    target: str
    type: str
    label: str | None
    weight: float
    support: Citation | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": self.source,
            "to": self.target,
            "type": self.type,
            "label": self.label,
            "weight": self.weight,
            "support": None if self.support is None else self.support.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Bridge:
    """A path between two nodes or entities, each hop cited."""

    nodes: tuple[str, ...]
    names: tuple[str, ...]
    hops: tuple[BridgeHop, ...]
    strength: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "nodes": list(self.nodes),
            "names": list(self.names),
            "hops": [h.to_dict() for h in self.hops],
            "strength": self.strength,
        }


@dataclass(frozen=True, slots=True)
class Answer:
    """An extractive answer: sentences copied from the documents, each cited, or an abstention."""

    question: str
    status: str  # "answered" | "insufficient_evidence"
    sentences: tuple[Citation, ...]
    score: float
    threshold: float
    hits: tuple[Hit, ...] = ()

    @property
    def answer(self) -> str:
        return " ".join(c.text for c in self.sentences)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "status": self.status,
            "answer": self.answer,
            "score": self.score,
            "threshold": self.threshold,
            "citations": [c.to_dict() for c in self.sentences],
            "hits": [h.to_dict() for h in self.hits],
        }
