"""Pages of a caller's documents with each fact at the time the caller first could read it.

``GraphReads.document_page`` orders and filters by the time a document was stored. A fact
another tenant pushed first was stored then, and a page would show the caller that time
and put the fact where it falls (``memory.first_reads``). :func:`seen_page` asks the store
for the page as before and moves the caller's shared facts to the caller's own time:
those are the facts with a ``scoped`` event the caller reads only since it (few: a store
where no sentence was pushed twice pays one small ledger read and nothing else).

The moved facts are taken out of the store's rows and put back at their own time; the
store is asked for as many more rows as facts moved, so that a page is still full.
``total``, ``first`` and ``last`` count them at their own time as well. (Past an offset
of a million rows, a page that moved facts would need is left short.)
"""

from __future__ import annotations

from dataclasses import replace

from groundgraph.memory.first_reads import Reads, moved_facts
from groundgraph.model import Document
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
    moved: dict[str, str] = {}
    if reads is not None and query.facts is not False:
        moved = moved_facts(store, reads)
    found = {f: store.reads.get_document(f) for f in moved}
    documents = {f: d for f, d in found.items() if d is not None and _matches(query, d)}
    moved = {f: at for f, at in moved.items() if f in documents}
    if not moved:
        return store.reads.document_page(query, after=after, offset=offset, limit=limit)
    until = query.added_until
    # The store's rows without the moved facts, enough of them to fill the page.
    want = min(offset + limit + len(moved), MAX_PAGE_LIMIT + 1)
    wide = store.reads.document_page(query, after=after, limit=want)
    rows = [d for d in wide.documents if d.doc_id not in moved]
    back = [
        replace(documents[f], added_at=at)
        for f, at in moved.items()
        if (after is None or (at, f) > after) and (until is None or at <= until)
    ]
    merged = sorted(rows + back, key=_key)
    if len(wide.documents) == want and rows:
        # The store has rows after the last one read: nothing past it is known yet.
        merged = [d for d in merged if _key(d) <= _key(rows[-1])]
    total = wide.total
    if until is not None:  # each moved fact counted at its own time
        total += sum(at <= until for at in moved.values())
        total -= sum(documents[f].added_at <= until for f in moved)
    return DocumentPage(
        tuple(merged[offset : offset + limit]),
        total,
        _first(store, query, moved),
        max((wide.last or "", *moved.values())) or None,
    )


def _key(document: Document) -> tuple[str, str]:
    return document.added_at, document.doc_id


def _matches(query: DocumentQuery, document: Document) -> bool:
    """Whether the store's query would list ``document`` (its scope names, ``added_until``
    aside)."""
    if query.names is None:
        return True
    return any(
        s in query.names or any(s.startswith(p) for p in query.prefixes) for s in document.scopes
    )


def _first(store: Store, query: DocumentQuery, moved: dict[str, str]) -> str | None:
    """The earliest time among the matches, each moved fact at its own time."""
    unbounded = replace(query, added_until=None)
    head = store.reads.document_page(unbounded, limit=len(moved) + 1).documents
    kept = [d.added_at for d in head if d.doc_id not in moved]
    return min((*kept[:1], *moved.values()), default=None)
