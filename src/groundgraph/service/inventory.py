"""What one caller's memory holds: a fact it names, its facts, sessions and counts, and
its stale facts.

The graph's own ``stats`` and ``delete_stale`` are global; a service route must count and
sweep only what the caller's key may see (ReasonGraph's ``/stats``, ``/sessions`` and
``/forget`` answer for every tenant). The store does the filtering: the caller's
:class:`~groundgraph.service.access.Access` becomes a ``DocumentQuery`` (the scope names
it sees, and the prefixes of the scopes below its own), so a page of facts or sessions
costs what that page and the caller's facts cost, not what the whole store holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from groundgraph.errors import NotFoundError
from groundgraph.graph import DocumentGraph
from groundgraph.memory.first_reads import later_reads
from groundgraph.memory.forget import cutoff
from groundgraph.memory.scopes import ancestors
from groundgraph.model import Document
from groundgraph.model.ids import is_entity_id, is_fact_id
from groundgraph.model.memory import Fact
from groundgraph.model.store_records import DocumentQuery
from groundgraph.service.access import Access
from groundgraph.service.cursors import decode_cursor, encode_cursor
from groundgraph.service.seen_pages import seen_page

#: The most session names one page of ``GET /sessions`` or ``list_sessions`` holds, and
#: the size of a page asked for by cursor alone.
MAX_SESSION_PAGE = 1000
SESSION_PAGE = 100

#: Facts read per store call when a verb needs every fact the caller sees.
_BATCH = 100_000


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


def fact_query(access: Access, as_of: str | None = None) -> DocumentQuery:
    """The store query for the facts ``access`` sees (``Access.sees``): a scope name it
    may be shown is one of its scopes, one above them, or one below them."""
    if access.scopes is None:
        return DocumentQuery(facts=True, added_until=as_of)
    names = sorted({a for root in access.scopes for a in ancestors(root)})
    prefixes = tuple(sorted({root + "/" for root in access.scopes}))
    return DocumentQuery(tuple(names), prefixes, facts=True, added_until=as_of)


def visible_facts(graph: DocumentGraph, access: Access) -> list[StoredFact]:
    """Every stored fact (valid or retired) the caller may see, by id."""
    if access.unrestricted:  # every fact: one plain read costs less than sorted pages
        every = graph.store.reads.documents()
        return sorted(
            (StoredFact(d.doc_id, d.scopes, d.added_at) for d in every if is_fact_id(d.doc_id)),
            key=lambda f: f.fact_id,
        )
    query, after = fact_query(access), None
    found: list[Document] = []
    while True:
        page = graph.store.reads.document_page(query, after=after, limit=_BATCH).documents
        found += page
        if len(page) < _BATCH:
            break
        after = (page[-1].added_at, page[-1].doc_id)
    # A fact another tenant pushed first counts as added when the caller got it.
    moved = later_reads(graph.store.ledger, access.sees, found)
    return sorted(
        (StoredFact(d.doc_id, d.scopes, moved.get(d.doc_id, d.added_at)) for d in found),
        key=lambda f: f.fact_id,
    )


def sessions(
    graph: DocumentGraph, access: Access, after: str | None = None, limit: int | None = None
) -> list[str]:
    """The scope names of the caller's facts that it may see, sorted; with ``after`` and
    ``limit``, at most ``limit`` of them after that name."""
    return graph.store.reads.scope_names(fact_query(access), after, limit)


def session_page(
    graph: DocumentGraph, access: Access, cursor: str | None, limit: int
) -> dict[str, object]:
    """``GET /sessions`` with a ``limit``: one page of names and the cursor of the next."""
    after = None if cursor is None else decode_cursor("cursor", cursor, 1)[0]
    names = sessions(graph, access, after, limit + 1)
    more = len(names) > limit
    names = names[:limit]
    return {"sessions": names, "next_cursor": encode_cursor(names[-1:]) if more else None}


def counts(graph: DocumentGraph, access: Access) -> dict[str, int]:
    """ReasonGraph's ``/stats`` counts over what the caller may see: facts, the entities
    they mention, the edges only they assert, their sessions; ``pending`` is always 0 (a
    write is answered after it is committed). A key bound to every scope is counted by
    the store (``FactLedger.fact_counts``), never reading a fact into Python."""
    if not access.unrestricted:
        return visible_counts(graph, access)
    found = graph.store.ledger.fact_counts()
    return {
        "facts": found.facts,
        "entities": found.entities,
        "edges": found.edges,
        "sessions": found.sessions,
        "pending": 0,
    }


def visible_counts(graph: DocumentGraph, access: Access) -> dict[str, int]:
    """:func:`counts` from the facts ``access`` sees, read into Python."""
    facts = visible_facts(graph, access)
    ids = {f.fact_id for f in facts}
    shown = sessions(graph, access)
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
        "sessions": len(shown),
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
    graph: DocumentGraph,
    access: Access,
    offset: int,
    limit: int,
    as_of: str | None,
    cursor: str | None = None,
) -> dict[str, object]:
    """One page of the caller's facts, oldest first, as the memory stood at ``as_of``
    (facts added later are left out; one retired later shows as held then), with the
    first and last time any of them was added (the explorer's time slider). The page
    starts after ``cursor`` (a ``next_cursor`` given before), then skips ``offset``."""
    after = None if cursor is None else decode_cursor("cursor", cursor, 2)
    found = seen_page(
        graph.store,
        fact_query(access, as_of),
        None if access.unrestricted else access.sees,
        after=(after[0], after[1]) if after else None,
        offset=offset,
        limit=limit + 1,
    )
    page = found.documents[:limit]
    nodes = graph.store.reads.get_nodes([d.doc_id for d in page])
    rows = []
    for fact in page:
        node = nodes.get(fact.doc_id)
        retired = node.invalid_at if node is not None else None
        rows.append(
            {
                "id": fact.doc_id,
                "text": node.content if node is not None else "",
                "scopes": access.shown(fact.scopes),
                "addedAt": fact.added_at,
                "retiredAt": retired if retired and (as_of is None or retired <= as_of) else None,
            }
        )
    more = len(found.documents) > limit
    return {
        "facts": rows,
        "total": found.total,
        "offset": offset,
        "first": found.first,
        "last": found.last,
        "next_cursor": encode_cursor((page[-1].added_at, page[-1].doc_id)) if more else None,
    }
