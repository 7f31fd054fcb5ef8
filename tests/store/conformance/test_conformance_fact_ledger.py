"""FactLedger conformance: fact updates in one transaction, their events, the conflict
ledger and access times. Facts are written through DocumentWrites and read back through
GraphReads."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_data import LATER, STAMP, everything, texts

from groundgraph.errors import NotFoundError
from groundgraph.model import Document, Edge, Node
from groundgraph.model.store_records import ConflictRecord, FactEvent, FactSnapshot, FactUpdate
from groundgraph.store import ChangeLog, DocumentWrites, FactLedger, GraphReads

REQUIRES = (DocumentWrites, GraphReads, ChangeLog, FactLedger)

RECORD = ConflictRecord(
    STAMP,
    FactSnapshot("f2", "the new", ("a", "b"), "t2", "notes.md"),
    FactSnapshot("f1", "the old", ("a",), "t1"),
    "functional",
    "both give the owner",
    "Recency",
)


def _facts(store, *doc_ids: str) -> None:
    for doc_id in doc_ids:
        node = Node(doc_id, doc_id, "fact", "", f"text of {doc_id}", scopes=("a",))
        store.writes.replace_document(
            Document(doc_id, "", scopes=("a",)),
            [node],
            [Edge(doc_id, "entity:x", "mentions", 0.7, (doc_id,))],
            entities=[Node("entity:x", "", "entity", "x", "")],
        )


def test_an_update_sets_scopes_validity_events_edges_and_ledger(store):
    _facts(store, "f1", "f2")
    before = store.changes.generation()
    retired = FactEvent("f1", "invalidated", LATER, (), "f2")
    scoped = FactEvent("f2", "scoped", LATER, ("b",))
    supersedes = Edge("f2", "f1", "supersedes", 0.5, ("f2",), "rule")
    generation = store.ledger.update_facts(
        [
            FactUpdate("f1", ("a",), LATER, (retired,)),
            FactUpdate("f2", ("a", "b"), None, (scoped,)),
        ],
        [("f2", supersedes)],
        [RECORD],
    )
    assert generation == store.changes.generation() == before + 2  # one bump per fact touched
    assert set(store.changes.changed_documents(before)) == {"f1", "f2"}
    assert store.reads.get_nodes(["f1"])["f1"].invalid_at == LATER
    assert all(
        e.invalid_at == LATER
        for e in store.reads.edges_touching(["f1"])
        if e.type == "mentions" and e.source == "f1"
    )
    assert store.reads.get_document("f2").scopes == ("a", "b")
    assert store.reads.get_nodes(["f2"])["f2"].scopes == ("a", "b")
    assert store.reads.get_nodes(["f2"])["f2"].invalid_at is None
    assert [e.label for e in store.reads.edges_touching(["f1"]) if e.type == "supersedes"] == [
        "rule"
    ]
    assert store.ledger.fact_events() == [retired, scoped]
    assert store.ledger.fact_events(["f2"]) == [scoped] and store.ledger.fact_events([]) == []
    assert store.ledger.conflict_records() == [RECORD] == store.ledger.conflict_records("f1")
    assert (
        store.ledger.conflict_records("f2") == [RECORD]
        and store.ledger.conflict_records("f9") == []
    )


def test_an_edge_added_by_an_update_goes_with_its_owner(store):
    _facts(store, "f1", "f2")
    store.ledger.update_facts([], [("f2", Edge("f2", "f1", "supersedes", 0.5))])
    store.writes.remove_document("f2")
    assert [e.type for e in store.reads.edges_touching(["f1"])] == ["mentions"]


def test_a_ledger_line_alone_is_not_a_graph_change(store):
    _facts(store, "f1")
    generation = store.changes.generation()
    assert store.ledger.update_facts([], conflicts=[RECORD]) == generation
    assert store.ledger.conflict_records() == [RECORD]


def test_an_update_of_an_unknown_fact_changes_nothing(store):
    _facts(store, "f1")
    before, generation = everything(store), store.changes.generation()
    event = FactEvent("f1", "scoped", LATER, ("b",))
    with pytest.raises(NotFoundError):
        store.ledger.update_facts(
            [FactUpdate("f1", ("a", "b"), None, (event,)), FactUpdate("nope", (), None)],
            conflicts=[RECORD],
        )
    with pytest.raises(NotFoundError):
        store.ledger.update_facts([], [("nope", Edge("f1", "entity:x", "semantic", 0.1))])
    assert everything(store) == before and store.changes.generation() == generation
    assert store.ledger.fact_events() == [] and store.ledger.conflict_records() == []


def test_reads_are_recorded_without_a_graph_change(store):
    _facts(store, "f1", "f2")
    generation = store.changes.generation()
    store.ledger.touch(["f1", "f2", "f1"], "2025-03-01T00:00:00.000000+00:00")
    store.ledger.touch(["f1"], "2025-02-01T00:00:00.000000+00:00")  # an older read does not win
    store.ledger.touch([], "ignored")
    assert store.changes.generation() == generation
    assert store.ledger.access_times() == {
        "f1": "2025-03-01T00:00:00.000000+00:00",
        "f2": "2025-03-01T00:00:00.000000+00:00",
    }
    assert store.ledger.access_times(["f2", "f9"]) == {"f2": "2025-03-01T00:00:00.000000+00:00"}
    assert store.ledger.access_times([]) == {}


def test_forgetting_drops_events_and_access_and_only_asked_for_ledger_lines(store):
    _facts(store, "f1", "f2")
    store.ledger.update_facts(
        [FactUpdate("f1", ("a",), None, (FactEvent("f1", "revived", LATER),))],
        conflicts=[RECORD],
    )
    store.ledger.touch(["f1", "f2"], LATER)
    generation = store.changes.generation()
    assert store.ledger.forget_fact_records(["f1"]) == 0
    assert store.ledger.fact_events() == [] and store.ledger.access_times() == {"f2": LATER}
    assert store.ledger.conflict_records() == [RECORD]  # the ledger keeps its audit trail
    assert store.ledger.forget_fact_records(["f2"], ledger=True) == 1
    assert store.ledger.conflict_records() == [] and store.ledger.access_times() == {}
    assert store.changes.generation() == generation
    assert [d.doc_id for d in store.reads.documents()] == ["f1", "f2"]  # the facts stay


_snapshots = st.builds(
    FactSnapshot,
    st.sampled_from(["f1", "f2", "f3"]),
    texts,
    st.lists(texts, max_size=2).map(tuple),
    texts,
    texts,
)
_events = st.builds(
    FactEvent,
    st.sampled_from(["f1", "f2"]),
    st.sampled_from(["scoped", "invalidated", "revived"]),
    st.sampled_from([STAMP, LATER]),
    st.lists(texts, max_size=3).map(tuple),
    st.none() | st.sampled_from(["f1", "f2", "f3"]),
)
_records = st.builds(
    ConflictRecord, st.sampled_from([STAMP, LATER]), _snapshots, _snapshots, texts, texts, texts
)


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(st.lists(_events, max_size=3), st.lists(_records, max_size=2)), max_size=4)
)
def test_events_and_ledger_lines_read_back_in_order(new_store, batches):
    store = new_store()
    _facts(store, "f1", "f2")
    for events, records in batches:
        updates = [
            FactUpdate(fact, ("a",), None, tuple(e for e in events if e.fact_id == fact))
            for fact in ("f1", "f2")
        ]
        store.ledger.update_facts(updates, conflicts=records)
    events = [
        e for batch, _ in batches for fact in ("f1", "f2") for e in batch if e.fact_id == fact
    ]
    records = [r for _, batch in batches for r in batch]
    assert store.ledger.fact_events() == events
    assert store.ledger.fact_events(["f2"]) == [e for e in events if e.fact_id == "f2"]
    for kinds in (["scoped"], ["invalidated", "revived"], []):
        wanted = [e for e in events if e.kind in kinds]
        assert store.ledger.fact_events(kinds=kinds) == wanted
        assert store.ledger.fact_events(["f1"], kinds) == [e for e in wanted if e.fact_id == "f1"]
    assert store.ledger.conflict_records() == records
    for fact in ("f1", "f3"):
        named = [r for r in records if fact in (r.new.fact_id, r.old.fact_id)]
        assert store.ledger.conflict_records(fact) == named
