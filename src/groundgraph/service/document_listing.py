"""A page of the documents a caller may read (``POST /graph/documents/page``).

The ``documents`` verb lists every document in one answer; a store of many thousands
wants pages. This one asks the store for one page (``GraphReads.document_page``) of the
documents the read's scopes may read, the scope filter done by the store, and counts the
nodes of that page's documents only: a page costs what it holds, not the whole store.
Pages run oldest first (``addedAt``, then ``docId``), each after the one whose
``next_cursor`` it is given.

The read's scopes are the ones the request names, each of which the key must allow,
else the key's own (a key bound to every scope, naming none, lists every document).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundgraph.graph import DocumentGraph
from groundgraph.memory.scopes import ScopeReader, ancestors, query_scopes
from groundgraph.model.store_records import DocumentQuery
from groundgraph.model.views import DocumentInfo
from groundgraph.service.access import Access
from groundgraph.service.cursors import decode_cursor, encode_cursor
from groundgraph.service.seen_pages import seen_page

#: The most documents one page holds, and its default.
MAX_DOCUMENT_PAGE = 500
DOCUMENT_PAGE = 100


def document_query(
    access: Access, scopes: Sequence[str] | None, facts: bool | None = None
) -> DocumentQuery:
    """The store query of the documents a read as ``scopes`` (else the key's) may read:
    those with a scope name that is one of the read's scopes or above one (``facts``:
    as ``DocumentQuery.facts``)."""
    readers = access.scopes
    if scopes is not None:
        readers = query_scopes(scopes)
        for scope in readers or ():
            access.session(scope)  # the key must allow each scope it names
    if readers is None:
        return DocumentQuery(facts=facts)
    names = tuple(sorted({a for s in readers for a in ancestors(s)}))
    return DocumentQuery(names, facts=facts)


def document_page(
    graph: DocumentGraph,
    access: Access,
    scopes: Sequence[str] | None,
    facts: bool | None,
    cursor: str | None,
    limit: int,
) -> dict[str, object]:
    """``{documents, total, next_cursor}``: up to ``limit`` documents the read may see
    (``facts`` False: memory facts left out), after the page whose ``next_cursor`` is
    ``cursor``; ``total`` counts them all."""
    after = None if cursor is None else decode_cursor("cursor", cursor, 2)
    query = document_query(access, scopes, facts)
    readers = access.scopes if scopes is None else query_scopes(scopes)
    found = seen_page(
        graph.store,
        query,
        None if readers is None else ScopeReader(readers).reads,
        after=(after[0], after[1]) if after else None,
        limit=limit + 1,
    )
    page = found.documents[:limit]
    counts = graph.store.reads.node_counts([d.doc_id for d in page])
    rows = [
        DocumentInfo(
            d.doc_id, d.title, d.description, d.source, d.added_at, counts.get(d.doc_id, 0)
        ).to_dict()
        for d in page
    ]
    more = len(found.documents) > limit
    return {
        "documents": rows,
        "total": found.total,
        "next_cursor": encode_cursor((page[-1].added_at, page[-1].doc_id)) if more else None,
    }
