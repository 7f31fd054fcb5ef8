"""When a reader first could read a fact, for listings that show a fact's ``addedAt``.

A fact is one per text: when a second tenant pushes a sentence the first pushed before,
the fact gains the second tenant's scope (a ``scoped`` event) and keeps the time it was
made. The memory's reads show each reader the time of its own push
(``timeline.seen_since``); a listing of documents does the same through these functions,
so a fact's ``addedAt`` does not tell one tenant that another stored it first.

Only a fact whose scopes grew after it was made can be first read later than it was made,
so these read the ledger's ``scoped`` events alone, and a store where no fact was ever
shared that way answers from that one small read::

    moved = later_reads(store.ledger, reader.reads, documents)   # {fact id: time}
    documents = shown_at(documents, moved)                       # addedAt as that reader's
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from groundgraph.memory.timeline import SCOPED, FactState, attach_events, seen_since
from groundgraph.model import Document
from groundgraph.model.ids import is_fact_id
from groundgraph.store.base import Store
from groundgraph.store.ledger import FactLedger

Reads = Callable[[tuple[str, ...]], bool]


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
    grown = {e.fact_id for e in ledger.fact_events(list(made), kinds=[SCOPED])}
    return _moved(ledger, reads, {f: made[f] for f in sorted(grown)})


def moved_facts(store: Store, reads: Reads) -> dict[str, str]:
    """:func:`later_reads` over every fact the store holds: the reader's shared facts
    (those with a ``scoped`` event), read by id."""
    grown = sorted({e.fact_id for e in store.ledger.fact_events(kinds=[SCOPED])})
    nodes = store.reads.get_nodes(grown) if grown else {}
    made = {f: (n.created_at, n.scopes) for f, n in nodes.items() if reads(n.scopes)}
    return _moved(store.ledger, reads, made)


def _moved(
    ledger: FactLedger, reads: Reads, made: dict[str, tuple[str, tuple[str, ...]]]
) -> dict[str, str]:
    """Of the facts ``made`` ({id: (created_at, scopes)}), those first readable later."""
    if not made:
        return {}
    states = {f: FactState(f, "", at, scopes, None) for f, (at, scopes) in made.items()}
    attach_events(states, ledger.fact_events(list(states)))
    out = {}
    for fact, state in states.items():
        since = seen_since(state, reads)
        if since != state.created_at:
            out[fact] = since
    return out


def shown_at(documents: Sequence[Document], moved: dict[str, str]) -> list[Document]:
    """``documents`` with each moved fact's ``added_at`` the reader's own (``later_reads``),
    sorted by ``added_at`` (ties kept in the order given) when any moved."""
    if not moved:
        return list(documents)
    out = [replace(d, added_at=moved[d.doc_id]) if d.doc_id in moved else d for d in documents]
    return sorted(out, key=lambda d: d.added_at)
