"""The CLI on a PostgreSQL store: ``--db postgresql://...`` and ``GROUNDGRAPH_DB`` select it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from groundgraph import DocumentGraph
from postgres_server import fresh_schema_url

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_db_and_the_environment_name_a_postgres_store(tmp_path, kitchen, garden):
    url = fresh_schema_url("cli")
    (tmp_path / "kitchen.md").write_text(kitchen)
    (tmp_path / "garden.md").write_text(garden)
    missing = _run("--db", url, "search", "bread")
    assert missing.returncode == 3 and "no store at" in missing.stderr  # nothing made
    indexed = _run("--db", url, "index", str(tmp_path))
    assert indexed.returncode == 0, indexed.stderr
    found = _run("search", "bread oven", "--json", env={"GROUNDGRAPH_DB": url})
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)
    assert hits and hits[0]["docId"] == "kitchen"
    with DocumentGraph(url) as graph:  # the same store, through the Python API
        assert [h.doc_id for h in graph.search("bread oven")][:1] == ["kitchen"]


def test_a_searcher_opens_a_postgres_store_only_to_read():
    from groundgraph.errors import NoStoreError, StoreError
    from groundgraph.store.postgres import PostgresStore

    url = fresh_schema_url("searcher")
    with pytest.raises(NoStoreError):
        DocumentGraph.open_searcher(url)
    with DocumentGraph(url) as graph:
        graph.add_document("# Notes\n\nThe boiler is serviced in October.", "Notes", "notes")
    with DocumentGraph.open_searcher(url) as searcher:
        assert searcher.verb("search")("boiler")[0].node_id == "notes"
        assert not hasattr(searcher, "add_document")
    store = PostgresStore(url, read_only=True)
    try:
        with pytest.raises(StoreError, match="read-only"):
            store.settings.set_setting("k", "v")
    finally:
        store.close()
