"""A read-only open: the store's file is read as it is and never written."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from groundgraph import DocumentGraph
from groundgraph.errors import SchemaVersionError, StoreError
from groundgraph.graph.searcher import GraphSearcher
from groundgraph.store import SQLiteStore

GUIDE = """# Boiler guide

## Service

The boiler is serviced every October by the [heating team](#heating).

## Heating

The heating team also bleeds the radiators.
"""


def _files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture
def built(tmp_path: Path) -> Path:
    path = tmp_path / "kb.db"
    with DocumentGraph(path) as graph:
        graph.add_document(GUIDE, "Boiler guide", "guide")
        graph.add_text("The pump failed because the fuse blew.", scopes="ops")
        graph.add_text("The fuse blew because of a power surge.", scopes="ops")
    return path


def test_a_searcher_reads_what_the_graph_reads_and_writes_nothing(built: Path):
    with DocumentGraph(built) as graph:
        expected = [(h.node_id, h.via) for h in graph.search("who services the boiler")]
        recalled = graph.query("why did the pump fail", scopes="ops")
        traced = graph.trace_causes("The pump failed", scopes="ops").to_dict()
        outline = graph.outline("guide")
    before = _files(built.parent)  # the graph may have saved its snapshot on close
    with DocumentGraph.open_searcher(built) as searcher:
        assert isinstance(searcher, GraphSearcher)
        assert not hasattr(searcher, "add_document") and not hasattr(searcher, "add_text")
        hits = searcher.verb("search")("who services the boiler")
        assert [(h.node_id, h.via) for h in hits] == expected
        assert searcher.verb("query")("why did the pump fail", scopes="ops") == recalled
        assert recalled and traced["chain"]
        assert searcher.verb("trace_causes")("The pump failed", scopes="ops").to_dict() == traced
        assert searcher.verb("outline")("guide") == outline
    after = _files(built.parent)
    # SQLite's WAL readers keep their lock in a -shm file and may leave an empty -wal.
    assert after["kb.db"] == before["kb.db"]
    assert (
        not (built.parent / "kb.db-wal").exists() or not (built.parent / "kb.db-wal").stat().st_size
    )


def test_every_write_to_a_read_only_store_is_refused(built: Path):
    store = SQLiteStore(built, read_only=True)
    assert store.read_only and not SQLiteStore(":memory:").read_only
    count = store.reads.counts()
    for write in (
        lambda: store.writes.remove_document("guide"),
        lambda: store.settings.set_setting("x", "y"),
        lambda: store.blobs.save_blob("x", 0, b""),
    ):
        with pytest.raises(StoreError, match="open read-only"):
            write()
    store.ledger.touch(["guide#1"], "2026-01-01T00:00:00+00:00")  # noted nowhere, no error
    assert store.ledger.access_times(["guide#1"]) == {}
    assert store.reads.counts() == count
    store.close()


def test_a_missing_file_is_an_error_and_no_store_is_made(tmp_path: Path):
    missing = tmp_path / "typo.db"
    with pytest.raises(StoreError, match="no store at"):
        DocumentGraph.open_searcher(missing)
    assert not missing.exists()


def test_another_applications_database_is_refused_untouched(tmp_path: Path):
    other = tmp_path / "shop.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()
    conn.close()
    before = _files(tmp_path)
    with pytest.raises(StoreError, match="not a groundgraph store"):
        DocumentGraph.open_searcher(other)
    (tmp_path / "junk.db").write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a groundgraph store"):
        SQLiteStore(tmp_path / "junk.db", read_only=True)
    assert _files(tmp_path) == {**before, "junk.db": _files(tmp_path)["junk.db"]}


def test_a_store_of_another_schema_version_is_refused(built: Path):
    conn = sqlite3.connect(built)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(SchemaVersionError, match="open it read-write once"):
        SQLiteStore(built, read_only=True)
