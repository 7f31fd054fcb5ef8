"""Scoped listings follow every write that changes a document's scopes: a replacement,
a removal and a fact update (schema version 7 keeps one row per scope name beside the
documents, on every backend; these pages must never read a scope a document lost)."""

from __future__ import annotations

from groundgraph.model import Document, Node
from groundgraph.model.ids import fact_id
from groundgraph.model.store_records import DocumentQuery, FactEvent, FactUpdate
from groundgraph.store import DocumentWrites, FactLedger, GraphReads

REQUIRES = (DocumentWrites, GraphReads, FactLedger)


def put(store, doc_id: str, scopes: tuple[str, ...], at: str) -> None:
    document = Document(doc_id, doc_id, "", "", "", scopes, at)
    node = Node(doc_id, doc_id, "section", doc_id, "text", scopes=scopes, created_at=at)
    store.writes.replace_document(document, [node], [])


def ids(store, *names: str, prefixes: tuple[str, ...] = ()) -> list[str]:
    page = store.reads.document_page(DocumentQuery(names, prefixes), limit=100)
    assert page.total == len(page.documents)
    return [d.doc_id for d in page.documents]


def test_a_replaced_document_is_listed_under_its_new_scopes_only(store):
    put(store, "doc", ("a", "b"), "2026-01-01")
    put(store, "other", ("a",), "2026-01-02")
    assert ids(store, "b") == ["doc"] and ids(store, "a") == ["doc", "other"]
    put(store, "doc", ("c",), "2026-01-03")
    assert ids(store, "b") == [] and ids(store, "a") == ["other"]
    assert ids(store, "a", "c") == ["other", "doc"]  # the new listing key: added later
    assert store.reads.scope_names(DocumentQuery()) == ["a", "c"]


def test_a_removed_document_leaves_every_scope_listing(store):
    put(store, "doc", ("team/x", "team"), "2026-01-01")
    assert ids(store, prefixes=("team/",)) == ["doc"]
    store.writes.remove_document("doc")
    assert ids(store, "team") == [] and ids(store, prefixes=("team/",)) == []
    assert store.reads.scope_names(DocumentQuery()) == []


def test_a_fact_update_moves_the_fact_between_scope_listings(store):
    fact = fact_id("a fact")
    put(store, fact, ("s1",), "2026-01-01")
    update = FactUpdate(
        fact, ("s1", "s2"), None, (FactEvent(fact, "scoped", "2026-01-02", ("s2",)),)
    )
    store.ledger.update_facts([update])
    assert ids(store, "s2") == [fact]
    assert store.reads.scope_names(DocumentQuery(facts=True)) == ["s1", "s2"]
    store.ledger.update_facts([FactUpdate(fact, ("s2",), "2026-01-03")])
    assert ids(store, "s1") == [] and ids(store, "s2") == [fact]
    assert store.reads.scope_names(DocumentQuery(facts=False)) == []


def test_a_document_listed_under_two_matching_scopes_is_listed_once(store):
    put(store, "doc", ("a", "a/b", "a/c"), "2026-01-01")
    put(store, "next", ("a/b",), "2026-01-02")
    page = store.reads.document_page(DocumentQuery(("a",), ("a/",)), limit=1)
    assert [d.doc_id for d in page.documents] == ["doc"] and page.total == 2
    after = store.reads.document_page(
        DocumentQuery(("a",), ("a/",)), after=("2026-01-01", "doc"), limit=5
    )
    assert [d.doc_id for d in after.documents] == ["next"]


def test_a_scope_name_of_any_text_is_listed_by_that_name(store):
    odd = ("one\x01two", "é/ü", "tab\there")
    put(store, "doc", odd, "2026-01-01")
    for name in odd:
        assert ids(store, name) == ["doc"]
    assert store.reads.scope_names(DocumentQuery()) == sorted(odd)
    store.writes.remove_document("doc")
    assert store.reads.scope_names(DocumentQuery()) == []


def test_a_scope_name_holding_nul_does_not_stop_the_write(store):
    # PostgreSQL's jsonb holds no NUL: the scope index keeps such a name escaped
    put(store, "doc", ("nul\x00here", "plain"), "2026-01-01")
    assert ids(store, "plain") == ["doc"]
    store.writes.remove_document("doc")
    assert ids(store, "plain") == []
