"""A first fill of a SQLite store builds its edge lookups (the ``edges_src`` and
``edges_dst`` indexes) when it ends, and a fill that never ended leaves them to the next
writable open."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from groundgraph import DocumentGraph
from groundgraph.errors import StoreError
from groundgraph.ingest.folder import plan_folder
from groundgraph.store import SQLiteStore
from store.conformance.store_data import write

LOOKUPS = {"edges_src", "edges_dst"}


def _lookups(db: Path) -> set[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'").fetchall()
    return {name for (name,) in rows} & LOOKUPS


def _plan(db: Path, sql: str) -> str:
    with sqlite3.connect(db) as conn:
        return " ".join(str(r[-1]) for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))


def test_a_first_fill_builds_the_lookups_at_its_end(tmp_path):
    db = tmp_path / "s.db"
    store = SQLiteStore(db)
    with store.writes.filling():
        write(store, "a", n=3, entities=("entity:x",))
        assert _lookups(db) == set()  # none during the fill
    assert _lookups(db) == LOOKUPS
    assert "edges_dst" in _plan(db, "SELECT * FROM edges WHERE dst = 3")
    with store.writes.filling():  # the store has edges: its lookups stay
        write(store, "b", n=1)
        assert _lookups(db) == LOOKUPS
    store.close()


def test_a_fill_that_raises_builds_them_too(tmp_path):
    db = tmp_path / "s.db"
    store = SQLiteStore(db)
    with pytest.raises(RuntimeError), store.writes.filling():
        write(store, "a", n=2)
        raise RuntimeError("stop")
    assert _lookups(db) == LOOKUPS
    assert [e.target for e in store.reads.edges_touching(["a#2"])] == ["a#2"]
    store.close()


def test_a_fill_killed_midway_leaves_them_to_the_next_writable_open(tmp_path):
    db = tmp_path / "s.db"
    child = textwrap.dedent(
        f"""
        import os, signal, sys
        sys.path.insert(0, {str(Path(__file__).parents[1])!r})
        from store.conformance.store_data import write
        from groundgraph.store import SQLiteStore
        store = SQLiteStore({str(db)!r})
        with store.writes.filling():
            write(store, "a", n=2)
            os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()
    assert _lookups(db) == set()
    read_only = SQLiteStore(db, read_only=True)  # reads are right without them
    assert [e.target for e in read_only.reads.edges_touching(["a#1"])] == ["a#1"]
    read_only.close()
    SQLiteStore(db).close()
    assert _lookups(db) == LOOKUPS


def test_the_cli_index_leaves_a_store_with_its_lookups(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    names = ["Alpha", "Beta", "Gamma"]
    for k, name in enumerate(names):
        (folder / f"d{k}.md").write_text(f"# {name}\n\nSee {names[k - 1]} here.\n")
    db = tmp_path / "g.db"
    done = subprocess.run(
        [sys.executable, "-m", "groundgraph", "--db", str(db), "index", str(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.returncode == 0, done.stderr
    assert _lookups(db) == LOOKUPS
    with DocumentGraph(db) as graph:
        assert "d2" in [h.node_id for h in graph.search("gamma")]


@pytest.mark.parametrize("last", [True, False])
def test_a_graph_that_serves_searches_between_steps_keeps_them(tmp_path, last):
    # The service's ingest jobs step through index_files between searches: they keep the
    # lookups (``edge_lookups_last = False``); a plain first index builds them at the end.
    folder = tmp_path / "docs"
    folder.mkdir()
    for k in range(3):
        (folder / f"d{k}.md").write_text(f"# Title {k}\n\nText about lamps {k}.\n")
    db = tmp_path / "g.db"
    with DocumentGraph(db) as graph:
        graph.writer.edge_lookups_last = last
        steps = graph.index_files(plan_folder(folder).files, workers=0)
        next(steps)
        during = _lookups(db)
        list(steps)
    assert during == (set() if last else LOOKUPS)
    assert _lookups(db) == LOOKUPS


def test_a_read_only_store_fills_nothing_and_reads_on(tmp_path):
    db = tmp_path / "s.db"
    SQLiteStore(db).close()
    store = SQLiteStore(db, read_only=True)
    with store.writes.filling():  # no write: no error, and the lookups stay
        assert store.reads.edges_touching(["a"]) == []
    with pytest.raises(StoreError, match="read-only"), store.writes.filling():
        write(store, "a")
    store.close()
    assert _lookups(db) == LOOKUPS


def _saved_graph(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for k in range(4):
        (folder / f"d{k}.md").write_text(f"# Title {k}\n\nText about lamps {k}, see Title 0.\n")
    with DocumentGraph(tmp_path / "source.db") as graph:
        list(graph.index_files(plan_folder(folder).files, workers=0))
        saved = tmp_path / "graph.json"
        graph.save(saved)
    return saved


def test_an_import_into_an_empty_store_builds_the_lookups_at_its_end(tmp_path, monkeypatch):
    saved = _saved_graph(tmp_path)
    db = tmp_path / "g.db"
    seen: list[set[str]] = []
    import groundgraph.graph.saved_files as saved_files

    inner = saved_files.SavedGraphs.load_json_documents

    def watched(self, *args, **kwargs):
        seen.append(_lookups(db))
        return inner(self, *args, **kwargs)

    monkeypatch.setattr(saved_files.SavedGraphs, "load_json_documents", watched)
    with DocumentGraph(db) as graph:
        assert graph.load(saved) == 4
        assert seen and all(s == set() for s in seen)  # none while it loads
        assert _lookups(db) == LOOKUPS
    with DocumentGraph(tmp_path / "source.db") as source, DocumentGraph(db) as loaded:
        for count in ("documents", "nodes", "edges", "edge_types"):
            assert getattr(loaded.stats(), count) == getattr(source.stats(), count)
        for query in ("lamps 2", "title 0", "text about lamps"):
            assert [h.node_id for h in loaded.search(query)] == [
                h.node_id for h in source.search(query)
            ]
    assert "edges_dst" in _plan(db, "SELECT * FROM edges WHERE dst = 3")


def test_an_import_that_fails_keeps_what_it_wrote_with_the_lookups(tmp_path, monkeypatch):
    saved = _saved_graph(tmp_path)
    db = tmp_path / "g.db"
    import groundgraph.graph.saved_files as saved_files

    inner = saved_files.SavedGraphs.load_json_documents
    calls = []

    def failing(self, *args, **kwargs):
        calls.append(1)
        if len(calls) > 1:
            raise RuntimeError("the disk went away")
        return inner(self, *args, **kwargs)

    monkeypatch.setattr(saved_files.SavedGraphs, "load_json_documents", failing)
    with DocumentGraph(db) as graph:
        with pytest.raises(RuntimeError, match="disk"):
            graph.load(saved)
        # The documents written before the error stay, each whole (``Store.batch``).
        assert graph.stats()["documents"] == 1
    assert _lookups(db) == LOOKUPS
    assert "edges_src" in _plan(db, "SELECT * FROM edges WHERE src = 3")
