"""Paged document listings (``GraphReads.document_page`` and ``scope_names``): the store
filters by scope, kind and time and pages in a stable order, the same on every backend as
a plain Python filter over ``documents()``."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph.model import Document, Node
from groundgraph.model.ids import fact_id, is_fact_id
from groundgraph.model.store_records import DocumentQuery
from groundgraph.store import DocumentWrites, GraphReads

REQUIRES = (DocumentWrites, GraphReads)

SCOPES = ("a", "a/x", "a/x/1", "ab", "b", "b/a", "é", "z")


def put(store, doc_id: str, scopes: tuple[str, ...], at: str) -> None:
    document = Document(doc_id, doc_id, "", "", "", scopes, at)
    node = Node(doc_id, doc_id, "section", doc_id, "text", scopes=scopes, created_at=at)
    store.writes.replace_document(document, [node], [])


def matches(d: Document, q: DocumentQuery, until: bool = True) -> bool:
    if q.facts is not None and is_fact_id(d.doc_id) != q.facts:
        return False
    if until and q.added_until is not None and d.added_at > q.added_until:
        return False
    return q.names is None or any(named(s, q) for s in d.scopes)


def named(scope: str, q: DocumentQuery) -> bool:
    return q.names is None or scope in q.names or any(scope.startswith(p) for p in q.prefixes)


def walk(store, q: DocumentQuery, limit: int) -> list[str]:
    """Every page's ids, following the key of each page's last document."""
    seen: list[str] = []
    after = None
    while True:
        page = store.reads.document_page(q, after=after, limit=limit)
        seen += [d.doc_id for d in page.documents]
        if len(page.documents) < limit:
            return seen
        last = page.documents[-1]
        after = (last.added_at, last.doc_id)


def test_an_empty_store_has_empty_pages(store):
    page = store.reads.document_page(DocumentQuery())
    assert (page.documents, page.total, page.first, page.last) == ((), 0, None, None)
    assert store.reads.scope_names(DocumentQuery()) == []


def test_pages_filter_by_scope_name_prefix_and_kind(store):
    put(store, fact_id("one"), ("a/x",), "2026-01-02")
    put(store, fact_id("two"), ("ab",), "2026-01-01")
    put(store, "doc", ("a",), "2026-01-03")
    put(store, fact_id("three"), (), "2026-01-04")
    q = DocumentQuery(names=("a",), prefixes=("a/",), facts=True)
    page = store.reads.document_page(q)
    assert [d.doc_id for d in page.documents] == [fact_id("one")]  # "ab" is not below "a"
    assert (page.total, page.first, page.last) == (1, "2026-01-02", "2026-01-02")
    everything = store.reads.document_page(DocumentQuery())
    assert everything.total == 4 and everything.documents[0].doc_id == fact_id("two")
    assert [d.doc_id for d in store.reads.document_page(DocumentQuery(facts=False)).documents] == [
        "doc"
    ]
    assert store.reads.scope_names(DocumentQuery(facts=True)) == ["a/x", "ab"]
    assert store.reads.scope_names(q) == ["a/x"]
    assert store.reads.scope_names(DocumentQuery(), after="a", limit=1) == ["a/x"]


def test_the_time_bound_counts_but_leaves_the_ends(store):
    for i in range(4):
        put(store, f"d{i}", ("a",), f"2026-01-0{i + 1}")
    page = store.reads.document_page(DocumentQuery(added_until="2026-01-02"), offset=1)
    assert [d.doc_id for d in page.documents] == ["d1"]
    assert (page.total, page.first, page.last) == (2, "2026-01-01", "2026-01-04")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(
        st.tuples(
            st.booleans(),
            st.lists(st.sampled_from(SCOPES), max_size=3, unique=True),
            st.sampled_from(["2026-01-01", "2026-01-02", "2026-01-03"]),
        ),
        min_size=0,
        max_size=12,
    ),
    names=st.none() | st.lists(st.sampled_from(SCOPES), max_size=2, unique=True),
    prefixes=st.lists(st.sampled_from(["a/", "b/", "é"]), max_size=2, unique=True),
    facts=st.none() | st.booleans(),
    until=st.none() | st.just("2026-01-02"),
    limit=st.integers(1, 5),
)
def test_pages_hold_every_match_once_in_order(
    new_store, rows, names, prefixes, facts, until, limit
):
    store = new_store()
    for i, (fact, scopes, at) in enumerate(rows):
        put(store, fact_id(f"fact {i}") if fact else f"doc{i}", tuple(scopes), at)
    q = DocumentQuery(None if names is None else tuple(names), tuple(prefixes), facts, until)
    held = store.reads.documents()
    expected = sorted((d for d in held if matches(d, q)), key=lambda d: (d.added_at, d.doc_id))
    assert walk(store, q, limit) == [d.doc_id for d in expected]
    page = store.reads.document_page(q, limit=limit)
    ends = sorted(d.added_at for d in held if matches(d, q, until=False))
    assert page.total == len(expected)
    assert (page.first, page.last) == ((ends[0], ends[-1]) if ends else (None, None))
    offset = store.reads.document_page(q, offset=1, limit=limit).documents
    assert [d.doc_id for d in offset] == [d.doc_id for d in expected[1 : 1 + limit]]
    names_expected = sorted({s for d in held if matches(d, q) for s in d.scopes if named(s, q)})
    assert store.reads.scope_names(q) == names_expected
    assert (
        store.reads.scope_names(q, after=names_expected[0] if names_expected else None, limit=2)
        == names_expected[1:3]
    )
