"""What one caller's memory holds: a fact it names, its facts, sessions and counts, and
its stale facts.

The graph's own ``stats`` and ``delete_stale`` are global; a service route must count and
sweep only what the caller's key may see (ReasonGraph's ``/stats``, ``/sessions`` and
``/forget`` answer for every tenant). These read the store's fact documents and filter
them by :class:`~groundgraph.service.access.Access`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from groundgraph.errors import NotFoundError
from groundgraph.graph import DocumentGraph
from groundgraph.memory.forget import cutoff
from groundgraph.model.ids import is_entity_id, is_fact_id
from groundgraph.model.memory import Fact
from groundgraph.service.access import Access


@dataclass(frozen=True)
class StoredFact:
    """A fact as the store lists it: id, scopes and when it was added."""

    fact_id: str
    scopes: tuple[str, ...]
    added_at: str


def visible_fact(graph: DocumentGraph, access: Access, text: str) -> Fact | None:
    """The fact named by ``text`` (id or text), if the caller may see it."""
    try:
        fact = graph.fact(text)
    except NotFoundError:
        return None
    return fact if access.sees(fact.scopes) else None


def visible_facts(graph: DocumentGraph, access: Access) -> list[StoredFact]:
    """Every stored fact (valid or retired) the caller may see, by id."""
    found = [
        StoredFact(d.doc_id, d.scopes, d.added_at)
        for d in graph.store.reads.documents()
        if is_fact_id(d.doc_id) and access.sees(d.scopes)
    ]
    return sorted(found, key=lambda f: f.fact_id)


def sessions(graph: DocumentGraph, access: Access) -> list[str]:
    """The scope names of the caller's facts that it may see, sorted."""
    names = {s for fact in visible_facts(graph, access) for s in fact.scopes}
    return sorted(access.shown(names))


def counts(graph: DocumentGraph, access: Access) -> dict[str, int]:
    """ReasonGraph's ``/stats`` counts over what the caller may see: facts, the entities
    they mention, the edges only they assert, their sessions; ``pending`` is always 0 (a
    write is answered after it is committed)."""
    facts = visible_facts(graph, access)
    ids = {f.fact_id for f in facts}
    edges = graph.store.reads.edges_touching(sorted(ids)) if ids else []
    entities = {e.target for e in edges if e.type == "mentions" and is_entity_id(e.target)}
    spans = graph.store.reads.edges_touching(sorted(entities)) if entities else []
    asserted = {
        (e.source, e.target, e.type)
        for e in (*edges, *spans)
        if e.sources and set(e.sources) <= ids
    }
    return {
        "facts": len(facts),
        "entities": len(entities),
        "edges": len(asserted),
        "sessions": len({s for f in facts for s in access.shown(f.scopes)}),
        "pending": 0,
    }


def stale_facts(graph: DocumentGraph, facts: list[StoredFact], days: float) -> list[str]:
    """Of ``facts``, those nobody has read for ``days`` days, oldest use first."""
    now = datetime.now(UTC).isoformat()
    before = cutoff(now, days)
    access = graph.store.ledger.access_times([f.fact_id for f in facts])
    last = {f.fact_id: max(f.added_at, access.get(f.fact_id, "")) for f in facts}
    return sorted((f for f, t in last.items() if t < before), key=lambda f: (last[f], f))


def fact_page(
    graph: DocumentGraph, access: Access, offset: int, limit: int, as_of: str | None
) -> dict[str, object]:
    """One page of the caller's facts, oldest first, as the memory stood at ``as_of``
    (facts added later are left out; one retired later shows as held then), with the
    first and last time any of them was added (the explorer's time slider)."""
    every = sorted(visible_facts(graph, access), key=lambda f: (f.added_at, f.fact_id))
    times = [f.added_at for f in every]
    held = [f for f in every if as_of is None or f.added_at <= as_of]
    page = held[offset : offset + limit]
    nodes = graph.store.reads.get_nodes([f.fact_id for f in page])
    rows = []
    for fact in page:
        node = nodes.get(fact.fact_id)
        retired = node.invalid_at if node is not None else None
        rows.append(
            {
                "id": fact.fact_id,
                "text": node.content if node is not None else "",
                "scopes": access.shown(fact.scopes),
                "addedAt": fact.added_at,
                "retiredAt": retired if retired and (as_of is None or retired <= as_of) else None,
            }
        )
    return {
        "facts": rows,
        "total": len(held),
        "offset": offset,
        "first": times[0] if times else None,
        "last": times[-1] if times else None,
    }
