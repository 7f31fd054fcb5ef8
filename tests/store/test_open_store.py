"""open_store: make a store only when asked; read what may not be written read-only."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from groundgraph import DocumentGraph
from groundgraph.errors import NoStoreError, StoreError
from groundgraph.store import open_store
from groundgraph.store.sqlite.connection import APPLICATION_ID


def test_only_create_makes_a_store(tmp_path: Path):
    missing = tmp_path / "new.db"
    with pytest.raises(NoStoreError, match="no store at"):
        open_store(str(missing), create=False)
    assert not missing.exists()
    store = open_store(str(missing))
    assert not store.read_only
    store.close()
    app = sqlite3.connect(missing).execute("PRAGMA application_id").fetchone()[0]
    assert app == APPLICATION_ID


def test_a_file_that_may_not_be_written_opens_read_only(tmp_path: Path, monkeypatch):
    path = tmp_path / "kb.db"
    with DocumentGraph(path) as graph:
        graph.add_document("# Boiler\n\nServiced in October.", "Boiler", "b")
    before = path.read_bytes()
    # As on read-only media: root may write anywhere, so the check is what is replaced.
    monkeypatch.setattr(os, "access", lambda p, mode: mode != os.W_OK)
    store = open_store(str(path), create=False)
    assert store.read_only
    graph = DocumentGraph(store=store)
    assert graph.search("boiler")[0].node_id.startswith("b")
    with pytest.raises(StoreError, match="read-only"):
        graph.add_document("# More\n\ntext", "More", "m")
    graph.close()  # saves nothing
    assert path.read_bytes() == before


def test_a_store_made_before_the_mark_is_recognised_and_marked(tmp_path: Path):
    path = tmp_path / "old.db"
    with DocumentGraph(path) as graph:
        graph.add_document("# Boiler\n\nServiced in October.", "Boiler", "b")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 0")
    conn.close()
    with DocumentGraph.open_searcher(path) as searcher:  # read-only: recognised by tables
        assert searcher.verb("search")("boiler")[0].node_id.startswith("b")
    open_store(str(path), create=False).close()
    assert sqlite3.connect(path).execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_a_postgres_url_without_the_extra_says_what_to_install(monkeypatch):
    import sys

    # As if psycopg were not installed: importing it fails.
    monkeypatch.setitem(sys.modules, "psycopg", None)
    for name in [m for m in sys.modules if m.startswith("groundgraph.store.postgres")]:
        monkeypatch.delitem(sys.modules, name)
    from groundgraph.errors import InputError

    with pytest.raises(InputError, match=r"pip install 'groundgraph\[postgres\]'"):
        open_store("postgresql://me@db.example.org/notes")
    with pytest.raises(InputError, match="postgres extra"):
        DocumentGraph("postgres://me@db.example.org/notes")
