"""When a reader first could read a fact, for listings that show a fact's ``addedAt``.

A fact is one per text: when a second tenant pushes a sentence the first pushed before,
the fact gains the second tenant's scope (a ``scoped`` event) and keeps the time it was
made. The memory's reads show each reader the time of its own push
(``timeline.seen_since``); a listing of documents does the same through these functions,
so a fact's ``addedAt`` does not tell one tenant that another stored it first.

A fact is first readable later than it was made only when a ``scoped`` event gave it a
scope the reader reads, so these read the ledger's ``scoped`` events and go on only with
the facts such an event names: a store where no sentence was pushed twice, or a reader
none of whose scopes was ever added to a fact, pays that one small read::

    moved = later_reads(store.ledger, reader.reads, documents)   # {fact id: time}
    documents = shown_at(documents, moved)                       # addedAt as that reader's
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from groundgraph.memory.timeline import SCOPED, FactState, attach_events, seen_since
from groundgraph.model import Document
from groundgraph.model.ids import is_fact_id
from groundgraph.store.base import Store
from groundgraph.store.ledger import FactLedger

Reads = Callable[[tuple[str, ...]], bool]


@dataclass(frozen=True, slots=True)
class LaterRead:
    """A fact a reader first could read after it was stored: both times."""

    made: str
    seen: str


def later_reads(ledger: FactLedger, reads: Reads, documents: Iterable[Document]) -> dict[str, str]:
    """Of ``documents``, each fact the reader (``reads``: may it read a fact with these
    scopes?) reads and first could read later than it was made, with that time."""
    made = {
        d.doc_id: (d.added_at, d.scopes)
        for d in documents
        if is_fact_id(d.doc_id) and reads(d.scopes)
    }
    if not made:
        return {}
    events = ledger.fact_events(list(made), kinds=[SCOPED])
    grown = sorted({e.fact_id for e in events if reads(e.scopes)})
    found = _later(ledger, reads, {f: made[f] for f in grown})
    return {f: later.seen for f, later in found.items()}


def moved_facts(
    store: Store, reads: Reads, keep: Callable[[tuple[str, ...]], bool] | None = None
) -> dict[str, LaterRead]:
    """:func:`later_reads` over every fact the store holds (those ``keep`` keeps, by
    their scopes), read by id."""
    events = store.ledger.fact_events(kinds=[SCOPED])
    grown = sorted({e.fact_id for e in events if reads(e.scopes)})
    nodes = store.reads.get_nodes(grown) if grown else {}
    made = {
        f: (n.created_at, n.scopes)
        for f, n in nodes.items()
        if reads(n.scopes) and (keep is None or keep(n.scopes))
    }
    return _later(store.ledger, reads, made)


def _later(
    ledger: FactLedger, reads: Reads, made: dict[str, tuple[str, tuple[str, ...]]]
) -> dict[str, LaterRead]:
    """Of the facts ``made`` ({id: (created_at, scopes)}), those first readable later."""
    if not made:
        return {}
    states = {f: FactState(f, "", at, scopes, None) for f, (at, scopes) in made.items()}
    attach_events(states, ledger.fact_events(list(states)))
    out = {}
    for fact, state in states.items():
        since = seen_since(state, reads)
        if since != state.created_at:
            out[fact] = LaterRead(state.created_at, since)
    return out


def shown_at(documents: Sequence[Document], moved: dict[str, str]) -> list[Document]:
    """``documents`` with each moved fact's ``added_at`` the reader's own (``later_reads``),
    sorted by ``added_at`` (ties kept in the order given) when any moved."""
    if not moved:
        return list(documents)
    out = [replace(d, added_at=moved[d.doc_id]) if d.doc_id in moved else d for d in documents]
    return sorted(out, key=lambda d: d.added_at)
