"""Store.batch: many document writes in one transaction, each still whole."""

from __future__ import annotations

import sqlite3

import pytest

from groundgraph.errors import InputError
from groundgraph.model import Document, Edge, Node
from groundgraph.store import SQLiteStore


def _doc(doc_id: str) -> tuple[Document, list[Node], list[Edge]]:
    nodes = [
        Node(doc_id, doc_id, "document", doc_id.title(), ""),
        Node(f"{doc_id}#1", doc_id, "section", "S", "text", 2, doc_id, (0, 4)),
    ]
    return (
        Document(doc_id, doc_id.title()),
        nodes,
        [Edge(doc_id, f"{doc_id}#1", "parent-child", 0.8)],
    )


def _stored(path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("SELECT doc_id FROM documents ORDER BY seq")]
    finally:
        conn.close()


def test_a_batch_is_seen_by_other_connections_when_it_ends(tmp_path):
    path = tmp_path / "g.db"
    store = SQLiteStore(path)
    start = store.changes.generation()
    with store.writes.batch():
        store.writes.replace_document(*_doc("a"))
        store.writes.replace_document(*_doc("b"))
        assert _stored(path) == []  # not committed yet
        assert [d.doc_id for d in store.reads.documents()] == ["a", "b"]  # this store sees them
    assert _stored(path) == ["a", "b"]
    assert store.changes.generation() == start + 2  # one bump per document, as without a batch
    store.close()


def test_a_failed_write_in_a_batch_undoes_itself_only(tmp_path):
    path = tmp_path / "g.db"
    store = SQLiteStore(path)
    bad_doc, bad_nodes, bad_edges = _doc("c")
    bad_nodes = [*bad_nodes, bad_nodes[1]]  # the same node id twice: the insert fails
    with pytest.raises(sqlite3.IntegrityError), store.writes.batch():
        store.writes.replace_document(*_doc("a"))
        with pytest.raises(InputError, match="twice"):
            store.writes.replace_document(bad_doc, bad_nodes, bad_edges)
        store.writes.replace_document(*_doc("b"))
        raise sqlite3.IntegrityError("the caller fails after its writes")
    # What finished is committed, whole; the failed document left nothing behind.
    assert _stored(path) == ["a", "b"]
    conn = sqlite3.connect(path)
    left = "SELECT COUNT(*) FROM nodes WHERE node_id = 'c' OR node_id LIKE 'c#%'"
    assert conn.execute(left).fetchone()[0] == 0
    conn.close()
    store.close()


def test_nested_batches_join_the_outer_one(tmp_path):
    path = tmp_path / "g.db"
    store = SQLiteStore(path)
    with store.writes.batch():
        with store.writes.batch():
            store.writes.replace_document(*_doc("a"))
        assert _stored(path) == []
    assert _stored(path) == ["a"]
    store.close()
