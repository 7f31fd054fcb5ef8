"""The store's memory tables: migration from version 1, fact updates, ledger, access times."""

from __future__ import annotations

import sqlite3

import pytest

from groundgraph import DocumentGraph, NotFoundError
from groundgraph.model import Document, Edge, Node
from groundgraph.store import SQLiteStore
from groundgraph.store.base import ConflictRecord, FactEvent, FactSnapshot, FactUpdate
from groundgraph.store.schema import MIGRATIONS, SCHEMA_VERSION


def _version_one_file(path) -> None:
    conn = sqlite3.connect(path)
    for statement in MIGRATIONS[1]:
        conn.execute(statement)
    conn.execute(
        "INSERT INTO documents(doc_id, title, added_at, seq) VALUES ('old', 'Old', '2024', 1)"
    )
    conn.execute(
        "INSERT INTO nodes(node_id, doc_id, seq, kind, title, content, level, span_start,"
        " span_end, created_at) VALUES ('old', 'old', 0, 'document', 'Old', 'kept text',"
        " 0, 0, 9, '2024')"
    )
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()


def test_a_version_one_store_is_migrated_in_place(tmp_path):
    path = tmp_path / "v1.db"
    _version_one_file(path)
    store = SQLiteStore(path)
    assert store.schema_version() == SCHEMA_VERSION
    assert store.reads.get_nodes(["old"])["old"].content == "kept text"
    assert store.ledger.fact_events() == [] and store.ledger.conflict_records() == []
    store.close()
    with DocumentGraph(path) as graph:
        fact = graph.add_text("Migrated stores take memory facts.")
        assert graph.query("migrated stores") == [fact.text]
        assert graph.search("kept")[0].node_id == "old"


def _store_with(*doc_ids: str) -> SQLiteStore:
    store = SQLiteStore()
    for doc_id in doc_ids:
        node = Node(doc_id, doc_id, "document", "", f"text of {doc_id}", scopes=("a",))
        edge = Edge(doc_id, "entity:x", "mentions", 0.7, (doc_id,))
        store.writes.replace_document(
            Document(doc_id, "", scopes=("a",)),
            [node],
            [edge],
            entities=[Node("entity:x", "", "entity", "x", "")],
        )
    return store


def test_update_facts_sets_state_events_edges_and_ledger_in_one_go():
    store = _store_with("f1", "f2")
    before = store.changes.generation()
    event = FactEvent("f1", "invalidated", "2025-01-02T00:00:00.000000+00:00", (), "f2")
    scoped = FactEvent("f2", "scoped", "2025-01-02T00:00:00.000000+00:00", ("b",))
    supersedes = Edge("f2", "f1", "supersedes", 0.5, ("f2",), "rule")
    record = ConflictRecord(
        "2025-01-02T00:00:00.000000+00:00",
        FactSnapshot("f2", "new", ("a", "b"), "t2", "src"),
        FactSnapshot("f1", "old", ("a",), "t1"),
        "rule",
        "detail",
        "Resolver",
    )
    generation = store.ledger.update_facts(
        [
            FactUpdate("f1", ("a",), event.at, (event,)),
            FactUpdate("f2", ("a", "b"), None, (scoped,)),
        ],
        [("f2", supersedes)],
        [record],
    )
    assert generation > before and set(store.changes.changed_documents(before)) == {"f1", "f2"}
    assert store.reads.get_nodes(["f1"])["f1"].invalid_at == event.at
    assert store.reads.get_document("f2").scopes == ("a", "b")
    assert store.reads.get_nodes(["f2"])["f2"].scopes == ("a", "b")
    owned = [e for e in store.reads.edges_touching(["f1"]) if e.type == "mentions"]
    assert owned[0].invalid_at == event.at  # the retired fact's own edges are retired too
    assert store.ledger.fact_events() == [event, scoped]
    assert store.ledger.fact_events(["f2"]) == [scoped]
    assert store.ledger.conflict_records() == [record] == store.ledger.conflict_records("f1")
    assert store.ledger.conflict_records("f9") == []
    assert any(e.type == "supersedes" for e in store.reads.edges_touching(["f1"]))


def test_update_facts_is_all_or_nothing():
    store = _store_with("f1")
    generation = store.changes.generation()
    with pytest.raises(NotFoundError):
        store.ledger.update_facts(
            [FactUpdate("f1", ("z",), None), FactUpdate("missing", (), None)],
        )
    assert (
        store.reads.get_document("f1").scopes == ("a",) and store.changes.generation() == generation
    )


def test_forget_fact_records_and_access_times():
    store = _store_with("f1", "f2")
    event = FactEvent("f1", "revived", "2025-01-01T00:00:00.000000+00:00")
    record = ConflictRecord("t", FactSnapshot("f1", "a"), FactSnapshot("f2", "b"), "r")
    store.ledger.update_facts([FactUpdate("f1", ("a",), None, (event,))], conflicts=[record])
    generation = store.changes.generation()
    store.ledger.touch(["f1", "f2"], "2025-03-01T00:00:00.000000+00:00")
    store.ledger.touch(["f1"], "2025-02-01T00:00:00.000000+00:00")  # an older read does not win
    assert store.changes.generation() == generation  # reading is not a graph change
    assert store.ledger.access_times() == {
        "f1": "2025-03-01T00:00:00.000000+00:00",
        "f2": "2025-03-01T00:00:00.000000+00:00",
    }
    assert store.ledger.access_times(["f2"]) == {"f2": "2025-03-01T00:00:00.000000+00:00"}
    assert store.ledger.forget_fact_records(["f1"]) == 0
    assert store.ledger.fact_events() == [] and store.ledger.access_times() == {
        "f2": "2025-03-01T00:00:00.000000+00:00"
    }
    assert store.ledger.conflict_records() == [record]  # the ledger keeps its audit trail
    assert store.ledger.forget_fact_records(["f2"], ledger=True) == 1
    assert store.ledger.conflict_records() == []
    store.ledger.touch([], "ignored")
