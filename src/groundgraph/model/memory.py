"""Result records of the memory and causal verbs.

Each is a :class:`~groundgraph.model.record.Record`, so its JSON form is generated once
and it reads as a Mapping of that form (``trace["chain"]``, ``"collapsed" in result``).
The JSON forms are those the verbs returned as dicts before they had records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from groundgraph.model.record import Record
from groundgraph.model.results import Seeding, TermScore


@dataclass(frozen=True)
class Fact(Record):
    """A fact in memory, as an add or a lookup returns it.

    ``status`` says what the add did: ``added`` (new), ``existing`` (the same text was
    there; scopes unioned), ``revived`` (it was retired and is valid again) or ``merged``
    (a near-duplicate of this fact, which is returned; ``similarity`` says how near).
    ``superseded`` are the facts this add retired as contradicted; ``replaced`` counts the
    code points of the text (and source) given that were not valid Unicode (lone
    surrogates) and are stored as U+FFFD.
    """

    fact_id: str
    text: str
    scopes: tuple[str, ...]
    created_at: str
    invalid_at: str | None = None
    entities: tuple[str, ...] = ()
    causes: tuple[tuple[str, str], ...] = ()
    source: str = ""
    status: str = "added"
    similarity: float | None = None
    superseded: tuple[str, ...] = ()
    replaced: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, camelCase keys."""
        return {
            "factId": self.fact_id,
            "content": self.text,
            "scopes": list(self.scopes),
            "createdAt": self.created_at,
            "invalidAt": self.invalid_at,
            "entities": list(self.entities),
            "causes": [{"cause": c, "effect": e} for c, e in self.causes],
            "source": self.source,
            "status": self.status,
            "similarity": self.similarity,
            "superseded": list(self.superseded),
            "replaced": self.replaced,
        }


@dataclass(frozen=True)
class CausalHop(Record):
    """One cause → effect pair on a trace, cited to the fact that asserts it."""

    json_omit: ClassVar = ("cause_id", "effect_id")
    json_order: ClassVar = ("cause", "effect", "fact", "factId")

    cause: str
    effect: str
    cause_id: str
    effect_id: str
    fact_id: str
    fact: str
    depth: int
    scopes: tuple[str, ...]
    cross_scope: bool


@dataclass(frozen=True)
class CausalTrace(Record):
    """``trace_effects`` / ``trace_causes``: the hops from an origin, where they end."""

    origin: str
    origin_id: str
    direction: str
    chain: tuple[CausalHop, ...]
    terminals: tuple[str, ...]
    truncated: bool


@dataclass(frozen=True)
class SpanReach(Record):
    """A span a what-if walk reached: its text, the fact whose pair reached it, how deep."""

    json_order: ClassVar = ("span", "fact", "factId")

    span: str
    fact_id: str
    fact: str
    depth: int
    scopes: tuple[str, ...]
    cross_scope: bool


@dataclass(frozen=True)
class WhatIf(Record):
    """``what_if``: the effects that collapse if a fact were false, and those that survive."""

    pruned: str
    pruned_id: str
    origin: str
    origin_id: str
    direction: str
    pruned_edges: tuple[dict[str, str], ...]
    collapsed: tuple[SpanReach, ...]
    survived: tuple[SpanReach, ...]
    truncated: bool


@dataclass(frozen=True)
class RemovedEdge(Record):
    """An edge a removal took: its ends and type."""

    json_names: ClassVar = {"source": "from", "target": "to"}

    source: str
    target: str
    type: str


@dataclass(frozen=True)
class PurgeReport(Record):
    """``delete``: every node, entity and edge that went, and the ledger lines erased; or,
    for a fact that stays in other scopes, the scopes it was ``withdrawn`` from."""

    doc_id: str
    fact: bool
    nodes: tuple[str, ...]
    entities: tuple[str, ...]
    edges: tuple[RemovedEdge, ...]
    ledger_entries: int
    purged: bool
    withdrawn: tuple[str, ...] = ()


@dataclass(frozen=True)
class FactLink(Record):
    """A fact on the other end of a ``supersedes`` edge, with the rule and when."""

    fact_id: str
    content: str
    scopes: tuple[str, ...]
    created_at: str
    invalid_at: str | None
    rule: str | None
    at: str


@dataclass(frozen=True)
class FactChange(Record):
    """One event in a fact's life: scoped, invalidated or revived (``by`` another fact)."""

    kind: str
    at: str
    scopes: tuple[str, ...]
    by: str | None


@dataclass(frozen=True)
class FactHistory(Record):
    """``supersession_history``: the fact, what it replaced, what replaced it, its events."""

    fact: Fact
    supersedes: tuple[FactLink, ...]
    superseded_by: tuple[FactLink, ...]
    events: tuple[FactChange, ...]


@dataclass(frozen=True)
class ConflictSide(Record):
    """One fact of a ledger line, as it stood then."""

    fact_id: str
    content: str
    scopes: tuple[str, ...]
    created_at: str
    source: str


@dataclass(frozen=True)
class ConflictLine(Record):
    """A line of the contradiction ledger (``conflicts``)."""

    at: str
    rule: str
    detail: str
    resolver: str
    new: ConflictSide
    old: ConflictSide


@dataclass(frozen=True)
class RecallExplanation(Record):
    """How a fact was recalled: seed or not, its scores, the path with what each step is,
    and how the path's first fact was seeded (``seeding``: ranks by BM25 and cosine)."""

    seed: bool
    lexical_score: float
    graph_score: float
    hops: int
    path: tuple[dict[str, Any], ...]
    edge_types: tuple[str, ...]
    terms: tuple[TermScore, ...]
    seeding: Seeding | None = None


@dataclass(frozen=True)
class FactHit(Record):
    """What every recalled fact says: the fact, its score, its scopes then, and the
    explanation fields every search hit has, with the same meaning."""

    content: str
    fact_id: str
    score: float
    created_at: str
    scopes: tuple[str, ...]
    cross_scope: bool
    retired: bool
    node_id: str
    lexical_score: float
    graph_score: float
    hops: int
    via: str | None
    edge_type: str | None
    terms: tuple[TermScore, ...]


@dataclass(frozen=True)
class MemoryHit(FactHit):
    """A recalled fact (``query_detailed``, ``answer``); ``path`` runs from the seed to it as
    node ids, as a search hit's does, and ``explanation`` spells each step out."""

    doc_id: str
    title: str
    path: tuple[str, ...]
    edge_types: tuple[str, ...]
    explanation: RecallExplanation


@dataclass(frozen=True)
class CausePair(Record):
    """A cause → effect pair a fact asserts."""

    cause: str
    effect: str


@dataclass(frozen=True)
class Connection(FactHit):
    """A fact ``discover`` found: the path that connects it to a seed (each step spelled
    out), whether it is a seed, and the cause → effect pairs it asserts."""

    seed: bool
    path: tuple[dict[str, Any], ...]
    edge_types: tuple[str, ...]
    causes: tuple[CausePair, ...]


@dataclass(frozen=True)
class AnswerSentence(Record):
    """A sentence of a memory answer, with its support and the facts behind it."""

    text: str
    start: int
    end: int
    supported: bool
    share: float
    fact_ids: tuple[str, ...]


@dataclass(frozen=True)
class MemoryAnswer(Record):
    """``answer``: the words, how they came about, the facts and each sentence's support."""

    question: str
    answer: str
    status: str
    synthesizer: str
    facts: tuple[MemoryHit, ...]
    sentences: tuple[AnswerSentence, ...]
    grounding: dict[str, Any] | None
