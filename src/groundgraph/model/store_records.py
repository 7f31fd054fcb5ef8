"""Records the store protocols take and give: what a removal took, links waiting for their
target, counts, and a memory fact's events, updates and ledger lines."""

from __future__ import annotations

from dataclasses import dataclass, field

from groundgraph.errors import InputError
from groundgraph.model.graph import Document
from groundgraph.model.record import Record


@dataclass(frozen=True)
class Removal(Record):
    """What removing a document took away."""

    doc_id: str
    nodes: tuple[str, ...] = ()
    edges: tuple[tuple[str, str, str], ...] = ()  # (source, target, type)

    def to_dict(self) -> dict[str, object]:
        return {
            "docId": self.doc_id,
            "nodes": list(self.nodes),
            "edges": [{"from": s, "to": t, "type": k} for s, t, k in self.edges],
        }


@dataclass(frozen=True)
class PendingLink:
    """A link from a node to a document that was not in the store when the link was read."""

    node_id: str
    doc_id: str
    target: str


@dataclass(frozen=True)
class StoreCounts:
    documents: int = 0
    nodes: int = 0
    edges: int = 0
    edge_types: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class FactCounts:
    """What the whole memory holds: its facts, the entities they mention, the edges only
    facts assert (each (source, target, type) once) and the scope names of its facts."""

    facts: int = 0
    entities: int = 0
    edges: int = 0
    sessions: int = 0


@dataclass(frozen=True)
class FactEvent:
    """A change in a memory fact's life after it was added.

    ``kind`` is ``"scoped"`` (``scopes`` were added), ``"invalidated"`` (retired, by the
    fact ``other`` when one superseded it) or ``"revived"`` (valid again).
    """

    fact_id: str
    kind: str
    at: str
    scopes: tuple[str, ...] = ()
    other: str | None = None


@dataclass(frozen=True)
class FactUpdate:
    """The new current state of a fact document and the events that led to it."""

    doc_id: str
    scopes: tuple[str, ...]
    invalid_at: str | None
    events: tuple[FactEvent, ...] = ()


@dataclass(frozen=True)
class FactSnapshot(Record):
    """A fact as it stood when a contradiction was recorded: its provenance."""

    fact_id: str
    text: str
    scopes: tuple[str, ...] = ()
    created_at: str = ""
    source: str = ""


@dataclass(frozen=True)
class ConflictRecord:
    """One line of the contradiction ledger: ``new`` contradicted ``old`` by ``rule``."""

    at: str
    new: FactSnapshot
    old: FactSnapshot
    rule: str
    detail: str = ""
    resolver: str = ""


@dataclass(frozen=True)
class DocumentQuery:
    """Which documents a paged listing reads, so that the store filters them itself.

    A document matches when one of its scope names is in ``names`` or starts with one of
    ``prefixes`` (``names`` None: every document, scoped or not); with ``facts`` True
    only memory facts (``fact:`` ids) match, with False only the other documents; with
    ``added_until``, only those added at or before it.
    """

    names: tuple[str, ...] | None = None
    prefixes: tuple[str, ...] = ()
    facts: bool | None = None
    added_until: str | None = None

    def prefix_ranges(self) -> list[tuple[str, str]]:
        """Each prefix as the code point range ``[low, high)`` of the names that start
        with it (what an index on scope names reads); an empty prefix is every name."""
        ranges = []
        for prefix in self.prefixes:
            stem = prefix.rstrip(chr(0x10FFFF))
            after = ord(stem[-1]) + 1 if stem else 0
            after = 0xE000 if 0xD800 <= after <= 0xDFFF else after  # no surrogates
            high = stem[:-1] + chr(after) if stem else chr(0x10FFFF) * 2
            ranges.append((prefix, high))
        return ranges


#: The largest offset and page a paged listing takes (a bigger offset is an InputError,
#: not an integer SQLite or PostgreSQL cannot bind).
MAX_PAGE_OFFSET = 1_000_000_000
MAX_PAGE_LIMIT = 1_000_000


def check_page(offset: int, limit: int) -> None:
    """InputError unless 0 ≤ offset ≤ MAX_PAGE_OFFSET and 1 ≤ limit ≤ MAX_PAGE_LIMIT + 1
    (a listing asks for one more than it shows, to know whether a next page exists)."""
    for name, value, low, high in (
        ("offset", offset, 0, MAX_PAGE_OFFSET),
        ("limit", limit, 1, MAX_PAGE_LIMIT + 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InputError(f"{name} must be a whole number from {low} to {high:,}, not {value!r}")


@dataclass(frozen=True)
class DocumentPage:
    """One page of matching documents, oldest first (``added_at``, then ``doc_id``):
    ``total`` counts every match (the page's ``after`` and ``offset`` aside), ``first``
    and ``last`` are the earliest and latest ``added_at`` of the matches, ``added_until``
    aside (a time slider's ends)."""

    documents: tuple[Document, ...]
    total: int
    first: str | None
    last: str | None
