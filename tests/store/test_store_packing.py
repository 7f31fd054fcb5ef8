"""Packing a SQLite store: VACUUM after a run that filled it, the same rows in fewer pages."""

from __future__ import annotations

import random
import sqlite3

import pytest

from groundgraph import DocumentGraph
from groundgraph.errors import StoreError
from groundgraph.ingest.folder import plan_folder
from groundgraph.model import Document, Edge, Node
from groundgraph.store import SQLiteStore
from groundgraph.store import packing as packing_module
from groundgraph.store.packing import pack_after_filling


def _write(store: SQLiteStore, doc_id: str, n: int, rng: random.Random) -> None:
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    nodes = [Node(doc_id, doc_id, "document", doc_id, "")]
    nodes += [
        Node(
            f"{doc_id}#{i}",
            doc_id,
            "section",
            f"S{i}",
            " ".join(rng.choice(words) for _ in range(rng.randrange(5, 60))),
            2,
            doc_id,
            (i, i + 6),
        )
        for i in range(1, n + 1)
    ]
    entities = [Node(f"entity:{rng.randrange(10**6)}", "", "entity", "E", "") for _ in range(3)]
    edges = [Edge(doc_id, f"{doc_id}#{i}", "parent-child", 0.8) for i in range(1, n + 1)]
    edges += [Edge(f"{doc_id}#1", e.node_id, "mentions", 0.7, (f"{doc_id}#1",)) for e in entities]
    store.writes.replace_document(Document(doc_id, doc_id), nodes, edges, entities=entities)


def _filled(path, documents: int = 300) -> SQLiteStore:
    """A store written in random key order, some documents replaced and removed (free
    pages and half-empty ones)."""
    rng = random.Random(7)
    store = SQLiteStore(path)
    names = [f"doc-{rng.randrange(10**9):09d}" for _ in range(documents)]
    for name in names:
        _write(store, name, rng.randrange(3, 12), rng)
    for name in rng.sample(names, documents // 5):
        store.writes.remove_document(name)
    for name in rng.sample(names, documents // 5):
        _write(store, name, rng.randrange(3, 12), rng)
    return store


def _tables(path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, rowid first, in rowid order (or key order)."""
    conn = sqlite3.connect(path)
    try:
        names = [
            str(r[0])
            for r in conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        rows = {}
        for name in names:
            plain = "WITHOUT ROWID" in str(
                conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
            )
            query = (
                f"SELECT * FROM {name}" if plain else f"SELECT rowid, * FROM {name} ORDER BY rowid"
            )
            rows[name] = (
                sorted(conn.execute(query).fetchall(), key=repr)
                if plain
                else (conn.execute(query).fetchall())
            )
        return rows
    finally:
        conn.close()


def _pages(path) -> tuple[int, int]:
    conn = sqlite3.connect(path)
    try:
        return (
            int(conn.execute("PRAGMA page_count").fetchone()[0]),
            int(conn.execute("PRAGMA freelist_count").fetchone()[0]),
        )
    finally:
        conn.close()


def _nodes(path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT key, node_id, kind, title, content FROM nodes").fetchall()
    finally:
        conn.close()


def _graph(store: SQLiteStore) -> dict[str, object]:
    reads = store.reads
    return {
        "documents": reads.documents(),
        "nodes": {d.doc_id: reads.document_nodes(d.doc_id) for d in reads.documents()},
        "entities": reads.entity_nodes(),
        "edges": list(reads.iter_edges()),
        "counts": reads.counts(),
    }


def test_packing_keeps_every_row_in_fewer_pages(tmp_path):
    path = tmp_path / "store.db"
    store = _filled(path)
    before, graph = _tables(path), _graph(store)
    store._db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages, free = _pages(path)
    size = store.packing.stored_bytes()
    assert size == pages * 4096
    assert store.packing.pack() is True
    packed_pages, packed_free = _pages(path)
    assert packed_free == 0 and packed_pages < 0.95 * (pages - free)  # fewer used pages too
    assert path.stat().st_size == packed_pages * 4096  # the file itself, WAL checkpointed
    assert store.packing.stored_bytes() < size
    assert _tables(path) == before and _graph(store) == graph
    _write(store, "doc-after", 4, random.Random(1))  # the store goes on as before
    assert store.reads.get_document("doc-after") is not None
    store.close()
    assert _tables(path)["documents"][: len(before["documents"])] == before["documents"]


def test_a_run_that_filled_the_store_packs_it_one_that_added_little_does_not(tmp_path):
    path = tmp_path / "store.db"
    store = _filled(path, 200)
    assert pack_after_filling(store.packing, 0, min_bytes=0) is True
    assert _pages(path)[1] == 0
    size = store.packing.stored_bytes()
    _write(store, "doc-small", 3, random.Random(2))
    store.writes.remove_document("doc-small")
    _write(store, "doc-small", 3, random.Random(3))
    grown = store.packing.stored_bytes()
    # It did not double since ``size``: left as it is, free pages and all.
    assert pack_after_filling(store.packing, size, min_bytes=0) is False
    assert store.packing.stored_bytes() == grown
    # Below the minimum it is never packed, however it grew.
    assert pack_after_filling(store.packing, 0, min_bytes=grown + 1) is False
    assert store.packing.stored_bytes() == grown
    store.close()


def test_packing_is_refused_inside_a_batch_and_on_a_read_only_store(tmp_path):
    path = tmp_path / "store.db"
    store = _filled(path, 20)
    with store.writes.batch(), pytest.raises(StoreError, match="batch"):
        store.packing.pack()
    store.close()
    reader = SQLiteStore(path, read_only=True)
    try:
        assert reader.packing.stored_bytes() > 0
        with pytest.raises(StoreError, match="read-only"):
            reader.packing.pack()
    finally:
        reader.close()
    with pytest.raises(StoreError, match="closed"):
        store.packing.pack()


class _CountedPacking:
    """A store's packing part that counts the packs asked of it."""

    def __init__(self, part):
        self.part, self.packs = part, []

    def stored_bytes(self):
        return self.part.stored_bytes()

    def pack(self):
        self.packs.append(self.part.pack())
        return self.packs[-1]


def _index(path, folder) -> tuple[list[bool], int, list[str]]:
    """Index ``folder`` into the store at ``path``: the packs asked, the bytes after, and
    the top hits of a search."""
    with DocumentGraph(path) as graph:
        counted = _CountedPacking(graph.store.packing)
        graph.store.packing = counted
        for _ in graph.index_files(plan_folder([folder])[0], workers=0):
            pass
        hits = [h.node_id for h in graph.search("deploy server", top_k=3)]
        return counted.packs, counted.stored_bytes(), hits


def test_indexing_a_folder_into_a_new_store_packs_it(tmp_path, monkeypatch):
    folder = tmp_path / "docs"
    folder.mkdir()
    rng = random.Random(5)
    words = ["install", "config", "deploy", "error", "server", "client", "cache", "token"]
    for i in range(60):
        sections = "\n\n".join(
            f"## {rng.choice(words).title()} {j}\n\n"
            + " ".join(rng.choice(words) for _ in range(40))
            for j in range(6)
        )
        (folder / f"page-{rng.randrange(10**6):06d}.md").write_text(f"# Page {i}\n\n{sections}\n")
    monkeypatch.setattr(packing_module, "PACK_MIN_BYTES", 0)
    path = tmp_path / "store.db"
    packs, _, hits = _index(path, folder)
    assert packs == [True]
    conn = sqlite3.connect(path)
    conn.execute(f"VACUUM INTO '{tmp_path / 'copy.db'}'")
    conn.close()
    assert _pages(path) == _pages(tmp_path / "copy.db")  # as packed as can be
    plain = tmp_path / "plain.db"  # the same run, never packed, finds the same
    monkeypatch.setattr(packing_module, "PACK_MIN_BYTES", 1 << 40)
    assert _index(plain, folder)[0] == [] and _index(plain, folder)[2] == hits
    assert _nodes(plain) == _nodes(path)
    assert _pages(plain)[0] > _pages(path)[0]
    # A second run that changes one file of many does not pack.
    monkeypatch.setattr(packing_module, "PACK_MIN_BYTES", 0)
    (folder / "extra.md").write_text("# Extra\n\nA page about the token cache.\n")
    packs, _, again = _index(path, folder)
    assert packs == [] and again == hits
