"""The SQLite store: schema, transactions, crash safety, change log and blobs."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import textwrap
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.errors import InputError, SchemaVersionError, StoreError
from groundgraph.model import Document, Edge, Node
from groundgraph.model.store_records import PendingLink
from groundgraph.store import SQLiteStore
from groundgraph.store import sqlite as sqlite_module
from groundgraph.store.sqlite.rows import (
    json_list,
    pack_hash,
    pack_ingest,
    pack_sources,
    pack_spans,
    pack_stamp,
    unpack_hash,
    unpack_ingest,
    unpack_sources,
    unpack_spans,
    unpack_stamp,
)
from groundgraph.store.sqlite.schema import SCHEMA_VERSION

_DEFAULT_INGEST = (
    "groundgraph-ingest/1 language=english chunk=2000 title-boost=3 entities=default"
    " relations=default"
)


def _doc(doc_id: str, n: int = 2, extra_edges: tuple[Edge, ...] = ()):
    nodes = [Node(doc_id, doc_id, "document", doc_id.title(), "")]
    nodes += [
        Node(f"{doc_id}#{i}", doc_id, "section", f"S{i}", f"text {i}", 2, doc_id, (i, i + 6))
        for i in range(1, n + 1)
    ]
    edges = [Edge(doc_id, f"{doc_id}#{i}", "parent-child", 0.8) for i in range(1, n + 1)]
    return Document(doc_id, doc_id.title()), nodes, edges + list(extra_edges)


def _rows(path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(path)
    try:
        # Edges name their ends by node key: read them with the ends' ids.
        edges = (
            "SELECT s.node_id, t.node_id, d.doc_id, e.type, e.weight, e.sources, e.spans FROM"
            " edges e JOIN nodes s ON s.key = e.src JOIN nodes t ON t.key = e.dst"
            " JOIN documents d ON d.seq = e.doc"
        )
        queries = {t: f"SELECT * FROM {t}" for t in ("documents", "nodes", "doc_links")}
        return {
            table: sorted(conn.execute(query).fetchall(), key=repr)
            for table, query in (queries | {"edges": edges}).items()
        }
    finally:
        conn.close()


def test_file_store_uses_wal_and_records_schema_version(tmp_path):
    path = tmp_path / "g.db"
    store = SQLiteStore(path)
    assert store.schema_version() == SCHEMA_VERSION
    store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_writer_keeps_normal_sync_and_checkpoints_in_large_steps(tmp_path):
    # docs/store.md promises synchronous=NORMAL; larger checkpoints only space out the syncs.
    store = SQLiteStore(tmp_path / "g.db")
    assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert store._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 10_000
    store.close()


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "g.db"
    SQLiteStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(SchemaVersionError, match="upgrade groundgraph"):
        SQLiteStore(path)


def test_not_a_database_is_a_clear_error(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a groundgraph store"):
        SQLiteStore(path)


def test_replace_and_remove_touch_only_that_document(tmp_path):
    path = tmp_path / "g.db"
    store = SQLiteStore(path)
    store.writes.replace_document(*_doc("a"))
    cross = Edge("b#1", "a#1", "semantic", 0.5)
    store.writes.replace_document(*_doc("b", extra_edges=(cross,)))
    store.writes.replace_document(*_doc("c"))
    before = _rows(path)
    removal = store.writes.remove_document("b")
    after = _rows(path)
    assert removal is not None and set(removal.nodes) == {"b", "b#1", "b#2"}
    assert ("b#1", "a#1", "semantic") in removal.edges
    for table in before:
        gone = [r for r in before[table] if r not in after[table]]
        assert all("b" in {str(v).split("#")[0] for v in r} for r in gone), table
        assert all(r in before[table] for r in after[table])
    assert store.writes.remove_document("b") is None
    store.close()


def test_edges_into_a_removed_document_go_with_it():
    store = SQLiteStore()
    store.writes.replace_document(*_doc("a"))
    store.writes.replace_document(*_doc("b", extra_edges=(Edge("b#1", "a#2", "reference", 0.75),)))
    store.writes.remove_document("a")
    assert all("a#2" not in (e.source, e.target) for e in store.reads.iter_edges())


def test_failed_write_rolls_back_to_the_previous_document():
    store = SQLiteStore()
    store.writes.replace_document(*_doc("a", n=2))
    document, nodes, edges = _doc("a", n=3)
    nodes.append(nodes[1])  # a duplicate node id: refused before anything is written
    with pytest.raises(InputError, match="twice"):
        store.writes.replace_document(document, nodes, edges)
    assert [n.node_id for n in store.reads.document_nodes("a")] == ["a", "a#1", "a#2"]
    assert store.changes.generation() == 1


def test_killed_writer_leaves_the_store_as_before(tmp_path):
    path = tmp_path / "g.db"
    store = SQLiteStore(path)
    store.writes.replace_document(*_doc("a", n=2))
    store.close()
    before = _rows(path)
    child = textwrap.dedent(
        f"""
        import os
        from groundgraph.store import SQLiteStore
        from groundgraph.model import Document, Node, Edge
        store = SQLiteStore({str(path)!r})
        class Dying:
            def __init__(self, conn):
                self.conn = conn
            def __getattr__(self, name):
                return getattr(self.conn, name)
            def executemany(self, sql, rows):
                self.conn.executemany(sql, rows)
                if "INSERT INTO edges" in sql:
                    os._exit(9)  # the process dies inside the transaction
        store._conn = Dying(store._conn)
        nodes = [Node("a", "a", "document", "A", "")] + [
            Node(f"a#{{i}}", "a", "section", "S", "new", 2, "a") for i in range(1, 6)]
        store.writes.replace_document(Document("a", "A"), nodes, [Edge("a", "a#1", "next", 0.4)])
        """
    )
    result = subprocess.run([sys.executable, "-c", child], capture_output=True, timeout=60)
    assert result.returncode == 9, result.stderr.decode()
    assert _rows(path) == before
    reopened = SQLiteStore(path)
    assert [n.node_id for n in reopened.reads.document_nodes("a")] == ["a", "a#1", "a#2"]
    reopened.close()


def test_generation_and_change_log():
    store = SQLiteStore()
    assert store.changes.generation() == 0
    store.writes.replace_document(*_doc("a"))
    store.writes.replace_document(*_doc("b"))
    store.writes.replace_document(*_doc("a"))
    assert store.changes.generation() == 3
    assert store.changes.changed_documents(0) == ["a", "b"]
    assert store.changes.changed_documents(2) == ["a"]
    assert store.changes.changed_documents(3) == []


def test_change_log_is_trimmed_in_steps_but_keeps_what_readers_need(monkeypatch):
    monkeypatch.setattr(sqlite_module, "_CHANGES_KEPT", 5)
    monkeypatch.setattr(sqlite_module, "_TRIM_EVERY", 3)
    store = SQLiteStore()
    written: list[str] = []
    for i in range(20):
        doc_id = f"d{i % 7}"
        generation, _ = store.writes.replace_document(*_doc(doc_id, n=1))
        written.append(doc_id)
        assert generation == store.changes.generation() == i + 1
        logged = store._query("SELECT COUNT(*) FROM changes")[0][0]
        assert min(i + 1, 5) <= logged <= 5 + 3 - 1
        for since in range(max(0, generation - 5), generation + 1):
            assert store.changes.changed_documents(since) == list(dict.fromkeys(written[since:]))
    with pytest.raises(StoreError, match="rebuild"):
        store.changes.changed_documents(0)


def test_generation_continues_from_another_writer(tmp_path):
    path = tmp_path / "g.db"
    first, second = SQLiteStore(path), SQLiteStore(path)
    assert first.writes.replace_document(*_doc("a"))[0] == 1
    assert second.writes.replace_document(*_doc("b"))[0] == 2
    assert first.writes.remove_document("b") is not None
    assert second.changes.generation() == 3
    assert second.changes.changed_documents(1) == ["b"]
    assert first.settings.get_setting("generation") == "3"
    first.close()
    second.close()


_OPS = st.lists(
    st.tuples(st.sampled_from(["add", "remove"]), st.sampled_from("abcd"), st.integers(1, 3)),
    max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(_OPS)
def test_writes_keep_order_generation_and_log(ops):
    # What readers rely on, for any mix of first writes, replacements and removals: the
    # documents in order of their last write, one generation per write, the change log.
    # Each document mentions one entity of its own, so an entity lives as long as the
    # version of the document that brought it.
    store = SQLiteStore()
    order: list[str] = []
    log: list[str] = []
    entity_order: list[str] = []
    for op, doc_id, n in ops:
        mine = f"entity:{doc_id}/"
        if op == "add":
            document, nodes, edges = _doc(doc_id, n=n)
            entity = Node(f"{mine}{n}", "", "entity", f"E {doc_id} {n}", "")
            edges.append(Edge(f"{doc_id}#1", entity.node_id, "mentions", 0.5))
            generation, removed = store.writes.replace_document(
                document, nodes, edges, (), [entity]
            )
            assert (removed is not None) == (doc_id in order)
            order = [d for d in order if d != doc_id] + [doc_id]
            entity_order = [e for e in entity_order if not e.startswith(mine)]
            entity_order.append(entity.node_id)
            log.append(doc_id)
            assert generation == len(log)
            assert [x.node_id for x in store.reads.document_nodes(doc_id)] == [
                x.node_id for x in nodes
            ]
        elif store.writes.remove_document(doc_id) is not None:
            order.remove(doc_id)
            entity_order = [e for e in entity_order if not e.startswith(mine)]
            log.append(doc_id)
        assert [d.doc_id for d in store.reads.documents()] == order
        assert [n.node_id for n in store.reads.entity_nodes()] == entity_order
        assert store.changes.generation() == len(log)
        for since in range(len(log) + 1):
            assert store.changes.changed_documents(since) == list(dict.fromkeys(log[since:]))


def test_blobs_round_trip_with_generation():
    store = SQLiteStore()
    assert store.blobs.load_blob("x") is None
    store.blobs.save_blob("x", 4, b"\x00\x01data")
    store.blobs.save_blob("x", 5, b"newer")
    assert store.blobs.load_blob("x") == (5, b"newer")


def test_reading_nodes_edges_and_counts():
    store = SQLiteStore()
    store.writes.replace_document(*_doc("a", n=3))
    assert [n.node_id for n in store.reads.iter_nodes(batch=2)] == ["a", "a#1", "a#2", "a#3"]
    assert set(store.reads.get_nodes(["a#2", "zzz"])) == {"a#2"}
    assert {(e.source, e.target) for e in store.reads.edges_touching(["a#1"])} == {("a", "a#1")}
    counts = store.reads.counts()
    assert (counts.documents, counts.nodes, counts.edges) == (1, 4, 3)
    assert store.reads.node_counts() == {"a": 4}
    node = store.reads.get_nodes(["a#1"])["a#1"]
    assert node.span == (1, 7) and node.parent_id == "a" and node.created_at


def test_closed_store_refuses_work():
    store = SQLiteStore()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.changes.generation()


def test_shared_entities_go_with_their_last_edge():
    store = SQLiteStore()
    aurora = Node("entity:aurora", "", "entity", "Aurora", "")
    spelled = Node("entity:aurora", "", "entity", "AURORA", "")
    for doc_id, entity in (("a", aurora), ("b", spelled)):
        document, nodes, edges = _doc(doc_id, n=1)
        edges.append(Edge(f"{doc_id}#1", "entity:aurora", "mentions", 0.5, (f"{doc_id}#1",)))
        store.writes.replace_document(document, nodes, edges, entities=[entity])
    assert [n.title for n in store.reads.entity_nodes()] == ["AURORA"]  # sorts first, came second
    first = store.writes.remove_document("a")
    assert first is not None and "entity:aurora" not in first.nodes
    assert [n.node_id for n in store.reads.entity_nodes()] == ["entity:aurora"]
    last = store.writes.remove_document("b")
    assert last is not None and "entity:aurora" in last.nodes
    assert store.reads.entity_nodes() == []
    assert store.reads.counts().nodes == 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text()))
def test_row_json_is_what_json_dumps_writes(values):
    # The store writes id lists by hand (it is on the indexing path); readers parse them
    # with json, so the text must be exactly json's.
    assert json_list(values) == (json.dumps(values, ensure_ascii=False) if values else "[]")


_IDS = st.one_of(st.text(max_size=12), st.sampled_from(["d", "d#1", "d#x#2", "#3", "", "dd#1"]))


@given(
    source=_IDS,
    doc_id=st.sampled_from(["d", "doc", "a-b"]),
    sources=st.lists(_IDS, max_size=3),
    spans=st.lists(st.tuples(_IDS, st.integers(0, 10**12), st.integers(-5, 10**12)), max_size=4),
)
def test_packed_sources_and_spans_read_back_exactly(source, doc_id, sources, spans):
    # Edges store their usual sources and span node ids relative to the edge (rows.py).
    packed_sources = pack_sources(sources, source, doc_id)
    assert unpack_sources(packed_sources, source, doc_id) == tuple(sources)
    bare = pack_sources(sources, source, doc_id, bare=True)
    assert unpack_sources(bare, source, doc_id) == tuple(sources)
    packed = pack_spans(spans, source, doc_id)
    assert unpack_spans(packed, source, doc_id) == tuple(spans)
    # Spans all in the edge's first source (schema version 8) are bare integers.
    home = sources[0] if sources else None
    at_home = pack_spans(spans, source, doc_id, home)
    assert unpack_spans(at_home, source, doc_id, home) == tuple(spans)
    if spans and all(node == (source if home is None else home) for node, _, _ in spans):
        assert len(at_home.split()) == 2 * len(spans)
    else:
        json.loads(at_home or "[]")  # otherwise valid JSON


def test_a_version_3_store_migrates_and_reads_the_same(tmp_path):
    # Version 4 moved edges from a repeated document id to the document's seq; rows
    # written before keep their explicit sources, spans and created_at.
    from groundgraph.store.sqlite.schema import MIGRATIONS

    path = tmp_path / "v3.db"
    conn = sqlite3.connect(path)
    for version in (1, 2, 3):
        for statement in MIGRATIONS[version]:
            conn.execute(statement)
    conn.execute("INSERT INTO documents(doc_id, title, added_at, seq) VALUES ('d', 'D', 't0', 7)")
    conn.execute(
        "INSERT INTO nodes(node_id, doc_id, seq, kind, title, content, level, span_start,"
        " span_end, created_at) VALUES ('d', 'd', 1, 'document', 'D', 'x y', 0, 0, 3, 't0'),"
        " ('d#1', 'd', 2, 'section', 'S', 'y', 2, 2, 3, 't0')"
    )
    conn.execute(
        "INSERT INTO edges(doc_id, source, target, type, weight, sources, spans, created_at)"
        " VALUES ('d', 'd', 'd#1', 'parent-child', 0.8, '[\"d\"]', '[[\"d#1\", 2, 3]]', 't0')"
    )
    conn.execute("PRAGMA user_version = 3")
    conn.commit()
    conn.close()
    store = SQLiteStore(path)
    assert store.schema_version() == SCHEMA_VERSION
    (edge,) = store.reads.edges_touching(["d#1"])
    assert edge == Edge("d", "d#1", "parent-child", 0.8, ("d",), None, "t0", None, (("d#1", 2, 3),))
    store.writes.add_edges(
        "d", [Edge("d#1", "d", "reference", 0.5, ("d#1",), spans=(("d#1", 0, 1),))]
    )
    assert len(store.reads.edges_touching(["d"])) == 2
    removal = store.writes.remove_document("d")
    assert removal is not None and len(removal.edges) == 2
    assert store.reads.counts().edges == 0
    store.close()


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION))
def test_a_store_of_every_earlier_version_migrates_to_indexed_listings(tmp_path, version):
    # Version 7 lists by index: the documents a store held before it are listed by
    # scope, and the documents written after it too.
    from groundgraph.model.ids import fact_id
    from groundgraph.model.store_records import DocumentQuery
    from groundgraph.store.sqlite.schema import MIGRATIONS

    path = tmp_path / f"v{version}.db"
    conn = sqlite3.connect(path)
    for step in range(1, version + 1):
        for statement in MIGRATIONS[step]:
            conn.execute(statement)
    fact = fact_id("an old fact")
    conn.execute(
        "INSERT INTO documents(doc_id, title, scopes, added_at, seq) VALUES"
        " ('old', 'Old', '[\"team\", \"team/a\"]', 't1', 1),"
        f" ('{fact}', '', '[\"team/a\"]', 't2', 2), ('bare', 'Bare', '[]', 't0', 3)"
    )
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()
    store = SQLiteStore(path)
    assert store.schema_version() == SCHEMA_VERSION
    page = store.reads.document_page(DocumentQuery(("team/a",)))
    assert [d.doc_id for d in page.documents] == ["old", fact] and page.total == 2
    facts = store.reads.document_page(DocumentQuery(facts=True)).documents
    assert [d.doc_id for d in facts] == [fact]
    assert store.reads.scope_names(DocumentQuery(facts=False)) == ["team", "team/a"]
    store.writes.replace_document(Document("new", "New", scopes=("team/b",), added_at="t3"), [], [])
    later = store.reads.document_page(DocumentQuery(("team",), ("team/",)))
    assert [d.doc_id for d in later.documents] == ["old", fact, "new"]
    store.close()


@pytest.mark.parametrize("read", ["iter_nodes", "iter_edges"])
def test_a_paged_read_is_one_state_while_another_process_writes(tmp_path, read):
    # D1 of issue 17: pages read with no transaction around them saw a document replaced
    # between two pages twice (its nodes move to a new seq), and an index built from
    # them refused the second copy.
    path = tmp_path / "s.db"
    reader, writer = SQLiteStore(path), SQLiteStore(path)
    for doc_id in ("a", "b", "c"):
        writer.writes.replace_document(*_doc(doc_id, n=3))
    ids = (lambda n: n.node_id) if read == "iter_nodes" else (lambda e: (e.source, e.target))
    before = [ids(x) for x in getattr(reader.reads, read)()]
    pages = (
        getattr(reader.reads, read)(batch=2) if read == "iter_nodes" else reader.reads.iter_edges()
    )
    first = [ids(next(pages))]
    writer.writes.replace_document(*_doc("a", n=4))  # a's nodes now come after c's
    writer.writes.remove_document("b")
    seen = first + [ids(x) for x in pages]
    assert seen == before and len(set(seen)) == len(seen)
    assert len([ids(x) for x in getattr(reader.reads, read)()]) != len(before)  # later reads see it
    reader.close()
    writer.close()


def test_a_version_7_store_with_edges_migrates_and_reads_the_same(tmp_path):
    # Version 8 codes edge types and their usual weights and finds a document's edges by
    # id runs: edges written before (another type too, a weight not the usual one, spans
    # in JSON) read as they did, and a document's edges are still all its own.
    from groundgraph.store.sqlite.schema import MIGRATIONS

    path = tmp_path / "v7.db"
    conn = sqlite3.connect(path)
    for version in range(1, 8):
        for statement in MIGRATIONS[version]:
            conn.execute(statement)
    conn.execute(
        "INSERT INTO documents(doc_id, title, added_at, seq) VALUES ('d', 'D', 't0', 1),"
        " ('e', 'E', 't1', 2)"
    )
    conn.execute(
        "INSERT INTO nodes(key, node_id, doc, seq, kind, title, content, level, parent,"
        " span_start, span_end, created_at) VALUES (1, 'd', 1, 0, 'document', 'D', 'x y', 0,"
        " NULL, 0, 3, ''), (2, 'd#1', 1, 1, 'section', 'S', 'y', 2, 1, 2, 3, ''),"
        " (3, 'e', 2, 0, 'document', 'E', 'z', 0, NULL, 0, 1, ''),"
        " (4, 'entity:x', 0, 1, 'entity', 'X', '', 0, NULL, 0, 0, 't0')"
    )
    conn.execute(
        "INSERT INTO edges(id, doc, src, dst, type, weight, label, sources, spans, created_at)"
        " VALUES (1, 1, 1, 2, 'parent-child', 0.8, NULL, '', '', ''),"
        " (2, 1, 2, 4, 'mentions', 0.7, NULL, '', '[[0, 1]]', ''),"
        " (3, 2, 3, 1, 'reference', 0.5, NULL, '', '', ''),"
        " (4, 1, 2, 3, 'my-type', 0.3, 'lbl', '[\"#1\"]', '[[\"#1\", 0, 1]]', 't9')"
    )
    conn.execute(
        "INSERT INTO doc_links(node, doc, target) VALUES (2, 1, 'far/away'), (3, 2, 'far/away'),"
        " (2, 1, 'other')"
    )
    conn.execute("PRAGMA user_version = 7")
    conn.commit()
    conn.close()
    store = SQLiteStore(path)
    assert store.schema_version() == SCHEMA_VERSION
    links = [PendingLink("d#1", "d", "far/away"), PendingLink("e", "e", "far/away")]
    assert store.reads.pending_links() == [*links, PendingLink("d#1", "d", "other")]
    assert store.reads.pending_links_to(["far/away"]) == links
    expected = [
        Edge("d", "d#1", "parent-child", 0.8, ("d",), None, "t0"),
        Edge("d#1", "entity:x", "mentions", 0.7, ("d#1",), None, "t0", spans=(("d#1", 0, 1),)),
        Edge("e", "d", "reference", 0.5, ("e",), None, "t1"),
        Edge("d#1", "e", "my-type", 0.3, ("d#1",), "lbl", "t9", spans=(("d#1", 0, 1),)),
    ]
    assert store.reads.edges_touching(["d", "d#1", "e"]) == expected
    assert list(store.reads.iter_edges()) == expected
    assert list(store.reads.iter_edges(["my-type", "mentions"])) == [expected[1], expected[3]]
    assert store.reads.owned_edges(["d"]) == [expected[0], expected[1], expected[3]]
    assert store.reads.counts().edge_types == {
        "mentions": 1,
        "my-type": 1,
        "parent-child": 1,
        "reference": 1,
    }
    arcs = store.reads.walk_arcs(["d#1"], max_fanout=10, weakest=0.5)
    assert sorted(a[:5] for a in arcs) == [
        ("d#1", "d", "parent-child", 0.8, True),
        ("d#1", "entity:x", "mentions", 0.7, False),
    ]
    store.writes.add_edges("e", [Edge("e", "entity:x", "my-type", 0.3)])
    assert [e.type for e in store.reads.owned_edges(["e"])] == ["reference", "my-type"]
    removal = store.writes.remove_document("d")
    assert removal is not None and len(removal.edges) == 4
    assert removal.nodes == ("d", "d#1")  # entity:x keeps e's edge
    assert [(e.source, e.target, e.type) for e in store.reads.owned_edges(["e"])] == [
        ("e", "entity:x", "my-type")
    ]
    assert store.reads.pending_links() == links[1:]
    store.close()
    conn = sqlite3.connect(path)
    runs = conn.execute("SELECT doc, first, last FROM edge_runs ORDER BY doc, first").fetchall()
    assert runs == [(2, 3, 3), (2, 5, 5)]
    assert conn.execute("SELECT target FROM link_targets").fetchall() == [("far/away",)]
    conn.close()


def test_usual_weights_and_fixed_type_codes_are_stored_small(tmp_path):
    # Schema version 8: the most common types have the codes SQLite stores in no bytes,
    # and an edge of its type's usual weight stores none.
    from groundgraph.store.sqlite.schema import EDGE_TYPE_CODES

    path = tmp_path / "g.db"
    store = SQLiteStore(path)
    document, nodes, edges = _doc("a", n=2)
    store.writes.replace_document(document, nodes, [*edges, Edge("a#1", "a#2", "next", 0.25)])
    store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT code, name, weight FROM edge_types ORDER BY code").fetchall() == [
        *EDGE_TYPE_CODES
    ]
    assert conn.execute("SELECT type, weight FROM edges ORDER BY id").fetchall() == [
        (4, None),
        (4, None),
        (5, 0.25),
    ]
    conn.close()


@given(st.datetimes(timezones=st.just(UTC)) | st.text(max_size=40))
def test_a_stored_time_reads_back_exactly(value):
    # Schema version 9: a time as the store writes it is 8 bytes; other text stays text.
    stamp = value.isoformat(timespec="microseconds") if isinstance(value, datetime) else value
    packed = pack_stamp(stamp)
    assert unpack_stamp(packed) == stamp
    assert isinstance(packed, bytes) == isinstance(value, datetime)


@given(st.text(max_size=120) | st.sampled_from([_DEFAULT_INGEST, _DEFAULT_INGEST + " x"]))
def test_a_stored_ingest_key_and_content_hash_read_back_exactly(text):
    # Schema version 9: the default ingest key is 5 bytes, a SHA-256 in hex its 32 bytes.
    assert unpack_ingest(pack_ingest(text)) == text
    assert len(pack_ingest(text)) <= len(text.encode())
    digest = hashlib.sha256(text.encode()).hexdigest()
    assert unpack_hash(pack_hash(digest)) == digest and len(pack_hash(digest)) == 32
    assert unpack_hash(pack_hash(text)) == text
    assert len(pack_ingest(_DEFAULT_INGEST)) == 5


def test_a_version_8_store_migrates_and_reads_the_same(tmp_path):
    # Version 9 stores an entity's time in 8 bytes and a root-only edge source as '*':
    # rows written before read as they did, the migration rewrites '[""]' to '*', and
    # rows written after are the smaller ones.
    from groundgraph.store.sqlite.schema import MIGRATIONS

    path = tmp_path / "v8.db"
    conn = sqlite3.connect(path)
    for version in range(1, 9):
        for statement in MIGRATIONS[version]:
            conn.execute(statement)
    stamp = "2026-12-04T04:04:56.304852+00:00"
    digest = hashlib.sha256(b"x y").hexdigest()
    conn.execute(
        "INSERT INTO documents(doc_id, title, added_at, seq, content_hash, ingest) VALUES"
        f" ('d', 'D', 't0', 1, '{digest}', '{_DEFAULT_INGEST}')"
    )
    conn.execute(
        "INSERT INTO nodes(key, node_id, doc, seq, kind, title, content, level, parent,"
        " span_start, span_end, created_at) VALUES (1, 'd', 1, 0, 'document', 'D', 'x y', 0,"
        " NULL, 0, 3, ''), (2, 'd#1', 1, 1, 'section', 'S', 'y', 2, 1, 2, 3, ''),"
        f" (3, 'entity:x', 0, 1, 'entity', 'X', '', 0, NULL, 0, 0, '{stamp}'),"
        " (4, 'entity:y', 0, 2, 'entity', 'Y', '', 0, NULL, 0, 0, 'yesterday')"
    )
    conn.execute(
        "INSERT INTO edges(id, doc, src, dst, type, weight, sources, spans) VALUES"
        " (1, 1, 1, 2, 4, NULL, '', ''), (2, 1, 3, 4, 0, NULL, '[\"\"]', '0 3'),"
        " (3, 1, 2, 3, 1, NULL, '', '0 1')"
    )
    conn.execute("INSERT INTO edge_runs(doc, first, last) VALUES (1, 1, 3)")
    conn.execute("PRAGMA user_version = 8")
    conn.commit()
    conn.close()
    store = SQLiteStore(path)
    assert store.schema_version() == SCHEMA_VERSION == 9
    expected = [
        Edge("d", "d#1", "parent-child", 0.8, ("d",), None, "t0"),
        Edge("entity:x", "entity:y", "co-occurs", 0.5, ("d",), None, "t0", spans=(("d", 0, 3),)),
        Edge("d#1", "entity:x", "mentions", 0.7, ("d#1",), None, "t0", spans=(("d#1", 0, 1),)),
    ]
    assert list(store.reads.iter_edges()) == expected
    old = store.reads.get_document("d")
    assert old is not None and (old.content_hash, old.ingest) == (digest, _DEFAULT_INGEST)
    store.writes.replace_document(
        Document("n", "N", content_hash=digest, ingest=_DEFAULT_INGEST), [], []
    )
    new = store.reads.get_document("n")
    assert new is not None and (new.content_hash, new.ingest) == (digest, _DEFAULT_INGEST)
    assert [(n.node_id, n.created_at) for n in store.reads.entity_nodes()] == [
        ("entity:x", stamp),
        ("entity:y", "yesterday"),
    ]
    store.writes.add_edges(
        "d",
        [Edge("entity:z", "entity:x", "co-occurs", 0.5, ("d",), spans=(("d", 1, 2),))],
        [Node("entity:z", "", "entity", "Z", "", created_at=stamp)],
    )
    assert list(store.reads.iter_edges())[-1].sources == ("d",)
    assert store.reads.get_nodes(["entity:z"])["entity:z"].created_at == stamp
    store.close()
    conn = sqlite3.connect(path)
    sources = conn.execute("SELECT id, sources FROM edges ORDER BY id").fetchall()
    assert sources == [(1, ""), (2, "*"), (3, ""), (4, "*")]
    stored = dict(conn.execute("SELECT node_id, created_at FROM nodes WHERE doc = 0").fetchall())
    assert stored["entity:x"] == stamp and stored["entity:y"] == "yesterday"  # as written
    assert stored["entity:z"] == pack_stamp(stamp) and len(stored["entity:z"]) == 8
    rows = conn.execute("SELECT doc_id, content_hash, ingest FROM documents ORDER BY seq")
    assert rows.fetchall() == [
        ("d", digest, _DEFAULT_INGEST),  # as written
        ("n", bytes.fromhex(digest), pack_ingest(_DEFAULT_INGEST)),
    ]
    conn.close()


def test_a_connection_maps_the_file_until_its_first_write(tmp_path):
    # A reading process keeps its memory map (a cold search reads the index blob through
    # it); a writing one reads through the page cache, so the pages it read do not stay
    # in its resident size.
    path = tmp_path / "m.db"
    SQLiteStore(path).close()
    store = SQLiteStore(path)
    mapped = lambda: store._db.conn.execute("PRAGMA mmap_size").fetchone()[0]  # noqa: E731
    assert mapped() > 0
    store.reads.documents()
    assert mapped() > 0
    store.writes.replace_document(*_doc("a"))
    assert mapped() == 0
    assert [d.doc_id for d in store.reads.documents()] == ["a"]
    store.close()
