"""A sentence two tenants push is one fact; every listing shows each tenant the time of
its own push (``memory.first_reads``, ``service.seen_pages``), never the other's.

The reference is the memory's own scoped read (``get_all_nodes``, which dates each fact
with ``timeline.seen_since`` from the fact states): the listings read the store's pages
and the ledger instead, so the two paths check each other."""

from __future__ import annotations

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph.graph import DocumentGraph
from groundgraph.service import Access, MemoryService
from groundgraph.service.document_listing import document_page
from groundgraph.service.http_app import create_app
from groundgraph.service.inventory import fact_page, visible_facts
from service_server import bearer, matrix_ring, running

ALICE, BOB = "acme/alice", "acme/bob"
ALICE_KEY = Access((ALICE,), True, "alice")
BOB_KEY = Access((BOB,), True, "bob")
SENTENCES = (
    "The Atlas launch moved to March.",
    "Kestrel listens on port 5000.",
    "The cache warms up at start.",
    "Porto lost power on Monday.",
)


def own_times(graph: DocumentGraph, scope: str) -> list[tuple[str, str]]:
    """(time, id) of each fact a scope reads, oldest first, as the memory dates them."""
    nodes = graph.get_all_nodes(scopes=[scope])
    return sorted((n.created_at, n.node_id) for n in nodes if n.type == "text")


def walk_fact_pages(graph: DocumentGraph, access: Access, limit: int) -> list[tuple[str, str]]:
    found, cursor = [], None
    for _ in range(50):
        page = fact_page(graph, access, 0, limit, None, cursor)
        found += [(f["addedAt"], f["id"]) for f in page["facts"]]
        assert page["total"] == len(own_times(graph, access.scopes[0]))
        cursor = page["next_cursor"]
        if cursor is None:
            return found
    raise AssertionError("the pages never ended")


def walk_document_pages(graph: DocumentGraph, access: Access, limit: int) -> list[tuple[str, str]]:
    found, cursor = [], None
    for _ in range(50):
        page = document_page(graph, access, None, True, cursor, limit)
        found += [(d["addedAt"], d["docId"]) for d in page["documents"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return found
    raise AssertionError("the pages never ended")


def test_the_second_tenant_sees_its_own_push_time_everywhere():
    graph = DocumentGraph()
    first = graph.add_text(SENTENCES[1], scopes=[ALICE])
    graph.add_text(SENTENCES[0], scopes=[BOB])
    graph.add_text(SENTENCES[1], scopes=[BOB])
    ((bob_time, fact),) = [t for t in own_times(graph, BOB) if t[1] == first.fact_id]
    assert bob_time > first.created_at and fact == first.fact_id
    listed = {d.doc_id: d.added_at for d in graph.documents(scopes=[BOB])}
    assert listed[fact] == bob_time
    assert [d.doc_id for d in graph.documents(scopes=[BOB])][-1] == fact  # listed by that time
    assert {d.doc_id: d.added_at for d in graph.documents(scopes=[ALICE])}[fact] == first.created_at
    assert {d.doc_id: d.added_at for d in graph.documents()}[fact] == first.created_at
    page = fact_page(graph, BOB_KEY, 0, 10, None)
    assert [f["addedAt"] for f in page["facts"]] == sorted(f["addedAt"] for f in page["facts"])
    assert page["facts"][-1] == {
        "id": fact,
        "text": SENTENCES[1],
        "scopes": [BOB],
        "addedAt": bob_time,
        "retiredAt": None,
    }
    assert page["first"] < bob_time == page["last"]
    # As the memory stood between the two pushes, Bob did not hold the sentence yet.
    before = fact_page(graph, BOB_KEY, 0, 10, first.created_at)
    assert fact not in [f["id"] for f in before["facts"]]
    assert {f.fact_id: f.added_at for f in visible_facts(graph, BOB_KEY)}[fact] == bob_time
    assert fact_page(graph, ALICE_KEY, 0, 10, None)["facts"][0]["addedAt"] == first.created_at


def test_the_served_listings_show_each_tenant_its_own_time():
    service = MemoryService(DocumentGraph())
    service.push(ALICE, SENTENCES[1])
    service.push(BOB, SENTENCES[2])
    service.push(BOB, SENTENCES[1])
    fact = service.graph.fact(SENTENCES[1]).fact_id
    made = service.graph.fact(SENTENCES[1]).created_at
    app = create_app(service, keys=matrix_ring(), allowed_hosts=["127.0.0.1"])
    with running(app) as base:
        for path, key in (("/facts/page", "facts"), ("/graph/documents/page", "documents")):
            rows = httpx.post(base + path, json={}, headers=bearer("bob")).json()[key]
            ids = [r.get("id", r.get("docId")) for r in rows]
            assert ids[-1] == fact and rows[-1]["addedAt"] > made
            assert made not in str(rows)
        listed = httpx.get(base + "/graph/documents", headers=bearer("bob")).json()
        assert [d["docId"] for d in listed][-1] == fact and made not in str(listed)
        alice = httpx.post(base + "/facts/page", json={}, headers=bearer("alice")).json()
        assert alice["facts"][0]["addedAt"] == made
    service.graph.close()


pushes = st.lists(
    st.tuples(st.sampled_from([ALICE, BOB, "acme"]), st.integers(0, len(SENTENCES) - 1)),
    min_size=1,
    max_size=10,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pushes, st.integers(1, 3))
def test_every_listing_dates_facts_as_the_memory_does(writes, limit):
    graph = DocumentGraph()
    for scope, i in writes:
        graph.add_text(SENTENCES[i], scopes=[scope], resolve_conflicts=False)
    for access in (ALICE_KEY, BOB_KEY):
        expected = own_times(graph, access.scopes[0])
        assert walk_fact_pages(graph, access, limit) == expected
        assert walk_document_pages(graph, access, limit) == expected
        listed = [(d.added_at, d.doc_id) for d in graph.documents(scopes=list(access.scopes))]
        assert listed == expected
        for at, _ in expected:  # as the memory stood at each of the reader's own times
            held = fact_page(graph, access, 0, 10, at)
            assert [(f["addedAt"], f["id"]) for f in held["facts"]] == [
                t for t in expected if t[0] <= at
            ]
    graph.close()


def test_history_conflicts_and_why_not_date_a_shared_fact_by_the_readers_push():
    graph = DocumentGraph()
    first = graph.add_text("Kestrel listens on port 5000.", scopes=[ALICE])
    between = graph.add_text(SENTENCES[0], scopes=[ALICE]).created_at
    graph.add_text("Kestrel listens on port 5000.", scopes=[BOB])
    (bob_time,) = [t for t, f in own_times(graph, BOB) if f == first.fact_id]
    assert bob_time > between > first.created_at
    why = graph.why_not_fact("Kestrel port", first.fact_id, scopes=[BOB], as_of=between)
    assert why.stage == "not-yet-valid" and bob_time in why.reason
    assert first.created_at not in why.reason
    graph.delete(first.fact_id, scopes=[ALICE])  # now Bob's alone, made at Alice's push
    graph.add_text("Kestrel does not listen on port 5000.", scopes=[BOB])  # retires it
    lines = graph.conflicts(scopes=[BOB])
    assert lines and lines[-1].old.fact_id == first.fact_id
    assert lines[-1].old.created_at == bob_time
    assert graph.conflicts()[-1].old.created_at == first.created_at
    graph.close()
