"""Pages of a caller's documents with each fact at the time the caller first could read it.

``GraphReads.document_page`` orders and filters by the time a document was stored. A fact
another tenant pushed first was stored then, and a page would show the caller that time
and put the fact where it falls (``memory.first_reads``). :func:`seen_page` asks the store
for the page as before and moves the caller's shared facts to the caller's own time:
those are the facts a ``scoped`` event gave a scope the caller reads (none, for most
callers of most stores, who pay one small ledger read and nothing else).

The moved facts are taken out of the store's rows and put back at their own time; the
store is asked for as many more rows as facts moved, so that a page is still full.
``total``, ``first`` and ``last`` count them at their own time as well. (Past an offset
of a million rows, a page that moved facts would need is left short.)
"""

from __future__ import annotations

from dataclasses import replace

from groundgraph.memory.first_reads import LaterRead, Reads, moved_facts
from groundgraph.model.store_records import MAX_PAGE_LIMIT, DocumentPage, DocumentQuery
from groundgraph.store import Store


def seen_page(
    store: Store,
    query: DocumentQuery,
    reads: Reads | None,
    after: tuple[str, str] | None = None,
    offset: int = 0,
    limit: int = 50,
) -> DocumentPage:
    """``store.reads.document_page(query, after, offset, limit)`` as a reader (``reads``;
    None: a read of everything, which sees each fact when it was made) sees it: a fact it
    first could read later than it was stored listed, filtered by ``query.added_until``
    and counted at that later time."""
    moved: dict[str, LaterRead] = {}
    if reads is not None and query.facts is not False:
        moved = moved_facts(store, reads, lambda scopes: _matches(query, scopes))
    if not moved:
        return store.reads.document_page(query, after=after, offset=offset, limit=limit)
    until = query.added_until
    # The store's rows without the moved facts, enough of them to fill the page.
    want = min(offset + limit + len(moved), MAX_PAGE_LIMIT + 1)
    wide = store.reads.document_page(query, after=after, limit=want)
    rows = {d.doc_id: d for d in wide.documents if d.doc_id not in moved}
    keys = sorted(
        [(d.added_at, d.doc_id) for d in rows.values()]
        + [
            (m.seen, f)
            for f, m in moved.items()
            if (after is None or (m.seen, f) > after) and (until is None or m.seen <= until)
        ]
    )
    if len(wide.documents) == want:
        # The store has rows after the last one read: nothing past it is known yet.
        last = wide.documents[-1]
        keys = [k for k in keys if k <= (last.added_at, last.doc_id)]
    page = []
    for at, doc_id in keys[offset : offset + limit]:
        found = rows.get(doc_id) or store.reads.get_document(doc_id)
        if found is not None:
            page.append(found if doc_id in rows else replace(found, added_at=at))
    total = wide.total
    if until is not None:  # each moved fact counted at its own time
        total += sum(m.seen <= until for m in moved.values())
        total -= sum(m.made <= until for m in moved.values())
    return DocumentPage(
        tuple(page),
        total,
        _first(store, query, wide.first, moved),
        max((wide.last or "", *(m.seen for m in moved.values()))) or None,
    )


def _matches(query: DocumentQuery, scopes: tuple[str, ...]) -> bool:
    """Whether the store's query lists a document with ``scopes`` (``added_until``
    aside)."""
    if query.names is None:
        return True
    return any(s in query.names or s.startswith(query.prefixes) for s in scopes)


def _first(
    store: Store, query: DocumentQuery, stored: str | None, moved: dict[str, LaterRead]
) -> str | None:
    """The earliest time among the matches, each moved fact at its own time."""
    seen = min(m.seen for m in moved.values())
    if stored is not None and stored not in {m.made for m in moved.values()}:
        return min(stored, seen)  # the store's first is a fact that did not move
    unbounded = replace(query, added_until=None)
    head = store.reads.document_page(unbounded, limit=len(moved) + 1).documents
    kept = [d.added_at for d in head if d.doc_id not in moved]
    return min((*kept[:1], seen))
