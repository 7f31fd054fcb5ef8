"""Result records of the document verbs: search hits and their term scores, citations,
bridges and extractive answers. Each is a :class:`~groundgraph.model.record.Record`: one
JSON form (camelCase keys), and readable as a Mapping of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from groundgraph.model.record import Record


@dataclass(frozen=True, slots=True)
class TermScore(Record):
    """One query term's share of a node's BM25 score."""

    term: str
    tf: float
    idf: float
    score: float


@dataclass(frozen=True, slots=True)
class Seeding(Record):
    """How a hit's seed (the first node of its path) was chosen: its rank among the
    lexical (BM25) matches and among the nearest nodes by cosine, 1 first, None when it
    is not in that list; with both (``search_mode="hybrid"``), ``fused`` is its
    reciprocal-rank score ``Σ 1/(rrf_k + rank)``. A memory fact the pipeline did not find
    but that fills a recall up to ``top_k`` has ``mode == "fill"`` and ``fill_score``, the
    trigram Dice of its words with the query's (``memory.fill``)."""

    node_id: str
    mode: str
    lexical_rank: int | None = None
    cosine: float | None = None
    cosine_rank: int | None = None
    fused: float | None = None
    fill_score: float | None = None


@dataclass(frozen=True, slots=True)
class Hit(Record):
    """A search hit and the explanation of how it was reached.

    Reads like the seed's dict too: ``hit["title"]``, ``hit["edgeType"]``.
    ``via`` is the node the last step came from and ``edge_type`` that step's edge type
    (both None for a direct match); ``path`` runs from the seed to the hit; ``seed``
    says how that seed was chosen (lexical rank, cosine and its rank, both) and
    ``rerank_score`` what a reranker gave the hit, if one ran.
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
    seed: Seeding | None = None
    rerank_score: float | None = None


@dataclass(frozen=True, slots=True)
class EvidenceSpan(Record):
    """Exact text in a node: ``content[start:end]`` of ``node_id``, and where that lies in
    the source text when the node's content covers its span exactly."""

    node_id: str
    start: int
    end: int
    text: str
    source_start: int | None = None
    source_end: int | None = None


@dataclass(frozen=True, slots=True)
class Citation(EvidenceSpan):
    """An evidence span that also names its document and the node's title (answers and
    bridge hops cite this way; ``ground`` cites with the bare span)."""

    json_order: ClassVar = (
        "nodeId", "docId", "title", "start", "end", "text", "sourceStart", "sourceEnd"
    )  # fmt: skip

    doc_id: str = ""
    title: str = ""


@dataclass(frozen=True, slots=True)
class BridgeHop(Record):
    """One hop of a bridge: the edge walked, and the text that supports it (if any)."""

    json_names: ClassVar = {"source": "from", "target": "to"}

    source: str
    target: str
    type: str
    label: str | None
    weight: float
    support: Citation | None


@dataclass(frozen=True, slots=True)
class Bridge(Record):
    """A path between two nodes or entities, each hop cited."""

    nodes: tuple[str, ...]
    names: tuple[str, ...]
    hops: tuple[BridgeHop, ...]
    strength: float


@dataclass(frozen=True, slots=True)
class Answer(Record):
    """An extractive answer: sentences copied from the documents, each cited, or an abstention."""

    json_names: ClassVar = {"sentences": "citations"}
    json_extra: ClassVar = ("answer",)
    json_order: ClassVar = ("question", "status", "answer", "score", "threshold")

    question: str
    status: str  # "answered" | "insufficient_evidence"
    sentences: tuple[Citation, ...]
    score: float
    threshold: float
    hits: tuple[Hit, ...] = ()

    @property
    def answer(self) -> str:
        return " ".join(c.text for c in self.sentences)
