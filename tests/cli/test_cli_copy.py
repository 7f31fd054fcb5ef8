"""``groundgraph copy`` leaves the copy with its own lexical index snapshot, at its own
generation, so the first process that opens it reads the snapshot instead of deriving the
index from every node (the PostgreSQL side: ``tests/store/postgres/test_postgres_copy.py``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from groundgraph import DocumentGraph
from groundgraph.graph.indexes import INDEX_BLOB
from groundgraph.store import open_store

TEXTS = {
    "orchard": "# Orchard\n\nThe orchard grows pears and plums beside the old mill.",
    "mill": "# Mill\n\nThe old mill ground flour for the village bakery.\n\n"
    "## Wheel\n\nThe water wheel of the mill turns in the spring floods.",
    "bakery": "# Bakery\n\nThe village bakery sells plum cake in autumn.",
}

pytestmark = pytest.mark.slow  # a CLI run in a subprocess


def _snapshot(location: str) -> tuple[int, int] | None:
    """The generation of the store and of its saved index snapshot (None: no snapshot)."""
    store = open_store(location, create=False)
    try:
        saved = store.blobs.load_blob(INDEX_BLOB)
        return None if saved is None else (store.changes.generation(), saved[0])
    finally:
        store.close()


def test_a_copy_holds_an_index_snapshot_at_its_own_generation(tmp_path):
    source, target = str(tmp_path / "source.db"), str(tmp_path / "copy.db")
    with DocumentGraph(source) as graph:
        for doc_id, text in TEXTS.items():
            graph.add_document(text, doc_id.title(), doc_id=doc_id)
    done = subprocess.run(
        [sys.executable, "-m", "groundgraph", "copy", source, target],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "index snapshot" in done.stderr and "copied 3 documents" in done.stdout
    held = _snapshot(target)
    assert held is not None and held[0] == held[1]
    with DocumentGraph(source) as a, DocumentGraph(target) as b:
        assert not b.indexes.dirty  # read from the snapshot, not derived from the nodes
        for query in ("mill flour", "plum cake", "water wheel floods"):
            assert [(h.node_id, h.score) for h in a.search(query)] == [
                (h.node_id, h.score) for h in b.search(query)
            ]
