"""``groundgraph copy``: SQLite to PostgreSQL and back, streamed, resumable, and the copy
answers queries as the source does."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from pg_corpus import queries, write_corpus

from fake_embedder import BagEmbedder
from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.graph.indexes import INDEX_BLOB
from groundgraph.ingest.folder import read_folder
from groundgraph.store import open_store
from groundgraph.store.copy import copy_store
from postgres_server import fresh_schema_url

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _state(location: str) -> dict[str, object]:
    store = open_store(location, create=False)
    try:
        reads = store.reads
        return {
            "documents": reads.documents(),
            "nodes": list(reads.iter_nodes()),
            "entities": reads.entity_nodes(),
            "edges": list(reads.iter_edges()),
            "events": store.ledger.fact_events(),
            "conflicts": store.ledger.conflict_records(),
            "access": store.ledger.access_times(),
            "vectors": [
                v.tolist() if hasattr(v, "tolist") else v for v in store.vectors.load_vectors()
            ],
            "language": store.settings.get_setting("language"),
        }
    finally:
        store.close()


def _answers(location: str) -> list[object]:
    with DocumentGraph(location, embed=BagEmbedder()) as graph:
        out: list[object] = [
            [(h.node_id, round(h.score, 9)) for h in graph.search(q, max_results=10)]
            for q in queries(60, seed=5)
        ]
        out.append(list(graph.query("valve pressure", scopes="plant")))
        return out


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = write_corpus(tmp_path_factory.mktemp("corpus") / "notes", files=30)
    path = str(tmp_path_factory.mktemp("src") / "source.db")
    with DocumentGraph(path, embed=BagEmbedder()) as graph:
        list(graph.add_documents(read_folder(folder).documents, workers=1))
        old = graph.add_text("The valve pressure is 3 bar.", scopes="plant")
        graph.supersede(old.fact_id, "The valve pressure is 4 bar.", scopes="plant")
        graph.add_text("Harrow Works sells the pumps.")
        graph.query("valve pressure")  # access times
    return path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", "copy", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=os.environ.copy(),
    )


def test_a_copy_there_and_back_answers_as_the_source(source, tmp_path):
    postgres = fresh_schema_url("copy")
    back = str(tmp_path / "back.db")
    there = _cli("--quiet", source, postgres)
    assert there.returncode == 0, there.stderr
    assert "copied" in there.stdout
    again = _cli(postgres, back)
    assert again.returncode == 0, again.stderr
    for copy in (postgres, back):  # each with its own index snapshot, at its generation
        store = open_store(copy, create=False)
        try:
            saved = store.blobs.load_blob(INDEX_BLOB)
            assert saved is not None and saved[0] == store.changes.generation()
        finally:
            store.close()
    expected = _state(source)
    assert expected["events"] and expected["conflicts"] and expected["access"]
    assert _state(postgres) == expected
    assert _state(back) == expected
    answers = _answers(source)
    assert _answers(postgres) == answers
    assert _answers(back) == answers


def test_a_stopped_copy_goes_on_from_where_it_stopped(source):
    postgres = fresh_schema_url("resume")
    stages: list[tuple[str, int]] = []

    def stop_in_the_edges(stage: str, count: int) -> None:
        stages.append((stage, count))
        if stage == "edges":
            raise KeyboardInterrupt

    src = open_store(source, create=False)
    dst = open_store(postgres)
    try:
        with pytest.raises(KeyboardInterrupt):
            copy_store(src, dst, batch=5, progress=stop_in_the_edges)
        assert ("edges", 50) in stages
        report = copy_store(src, dst, batch=5)
        assert report.documents == 0 and report.skipped == len(src.reads.documents())
    finally:
        src.close()
        dst.close()
    assert _state(postgres) == _state(source)


def test_a_copy_into_a_store_that_holds_other_documents_is_refused(source, tmp_path):
    other = tmp_path / "other.db"
    with DocumentGraph(other) as graph:
        graph.add_document("# Mine\n\nNot a copy.", "Mine", "mine")
    src, dst = open_store(source, create=False), open_store(str(other))
    try:
        with pytest.raises(InputError, match="empty store"):
            copy_store(src, dst)
    finally:
        src.close()
        dst.close()
    done = _cli("/no/such/store.db", str(tmp_path / "x.db"))
    assert done.returncode != 0 and "no store at" in done.stderr
    assert "Traceback" not in done.stderr
