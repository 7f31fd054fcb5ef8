"""Work that indexing hands to worker processes gives the graph one process gives: the
semantic links scored with a worker (``graph.shared_links``) and the evidence layer a
worker makes with the run's titles (``graph.prepare.TitleSnapshot``)."""

from __future__ import annotations

import time

import pytest

from graph.test_parallel_index import _corpus, _dump
from groundgraph import DocumentGraph
from groundgraph.graph import pool, shared_links, writer
from groundgraph.index.link_params import LinkParams
from groundgraph.index.semantic import TermRows, semantic_links
from groundgraph.ingest import plan_folder


def _folder(tmp_path, count: int):
    folder = tmp_path / "docs"
    folder.mkdir()
    for doc_id, _, text in _corpus(count):
        (folder / f"{doc_id}.md").write_text(text, encoding="utf-8")
    return plan_folder([folder])[0]


def _indexed(path, files, workers: int) -> DocumentGraph:
    graph = DocumentGraph(path)
    for _ in graph.index_files(files, workers=workers):
        pass
    return graph


@pytest.fixture
def small_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers start after two files and take three at a time; links are shared from two
    linkable nodes, in chunks of a few rows."""
    monkeypatch.setattr(pool, "DEFAULT_WARM", 2)
    monkeypatch.setattr(pool, "DEFAULT_CHUNK", 3)
    monkeypatch.setattr(shared_links, "MIN_SHARED_ROWS", 2)
    monkeypatch.setenv(pool.WORKERS_ENV, "1")


@pytest.mark.parametrize("chunks", [1, 3, 16])
def test_links_scored_with_a_worker_are_the_links_of_one_process(
    tmp_path, small_runs, monkeypatch, chunks
):
    monkeypatch.setattr(shared_links, "CHUNKS", chunks)
    graph = _indexed(tmp_path / "g.db", _folder(tmp_path, 14), workers=0)
    index, params = graph.indexes.index, LinkParams()
    shared = shared_links.SharedTermSimilarity.start(index, params)
    assert shared is not None
    alone = semantic_links(index, params)
    assert alone and semantic_links(index, params, shared) == alone
    # Settings other than the ones it was started with are scored here, the same way.
    other = LinkParams(neighbours=2)
    again = shared_links.SharedTermSimilarity.start(index, params)
    assert semantic_links(index, other, again) == semantic_links(index, other)


def test_a_relink_with_a_worker_stores_the_graph_of_one_process(tmp_path, small_runs, monkeypatch):
    files = _folder(tmp_path, 16)
    shared = _dump(_indexed(tmp_path / "shared.db", files, workers=1))
    monkeypatch.setattr(shared_links, "MIN_SHARED_ROWS", 10**9)
    alone = _dump(_indexed(tmp_path / "alone.db", files, workers=0))
    assert any('"type": "semantic"' in row for row in alone)
    assert shared == alone


def test_a_links_worker_that_dies_leaves_its_rows_to_this_process(tmp_path, small_runs):
    graph = _indexed(tmp_path / "g.db", _folder(tmp_path, 10), workers=0)
    index, params = graph.indexes.index, LinkParams()
    expected = semantic_links(index, params)
    original = pool._WORKER_CODE
    pool._WORKER_CODE = "import sys; sys.exit(3)"
    try:
        shared = shared_links.SharedTermSimilarity.start(index, params)
        assert shared is not None
        assert semantic_links(index, params, shared) == expected
    finally:
        pool._WORKER_CODE = original


def test_a_title_the_run_did_not_expect_gives_the_graph_of_one_process(
    tmp_path, small_runs, monkeypatch
):
    """A file whose title was not guessed joins the titles mid-run: the evidence workers
    made for the files after it is made again here, with that title."""
    files = _folder(tmp_path, 16)
    guess = writer.expected_title
    monkeypatch.setattr(
        writer, "expected_title", lambda f: None if f.doc_id == "log-0" else guess(f)
    )
    expected = _dump(_indexed(tmp_path / "alone.db", files, workers=0))
    assert any('"node_id": "entity:harbour log 0"' in row for row in expected)
    assert _dump(_indexed(tmp_path / "workers.db", files, workers=1)) == expected


def test_rows_a_worker_has_scored_are_not_scored_again(tmp_path, small_runs, monkeypatch):
    graph = _indexed(tmp_path / "g.db", _folder(tmp_path, 14), workers=0)
    index, params = graph.indexes.index, LinkParams()
    expected = semantic_links(index, params)
    shared = shared_links.SharedTermSimilarity.start(index, params)
    assert shared is not None
    worker = shared._worker
    assert worker is not None
    deadline = time.monotonic() + 60
    while worker.answers.qsize() < len(shared.chunks) + 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    scored_here: list[tuple[int, int]] = []
    nearest = TermRows.nearest

    def counted(rows: TermRows, first: int, last: int):
        scored_here.append((first, last))
        return nearest(rows, first, last)

    monkeypatch.setattr(TermRows, "nearest", counted)
    assert semantic_links(index, params, shared) == expected
    assert scored_here == []


def test_a_run_without_workers_links_in_this_process(tmp_path, small_runs, monkeypatch):
    started: list[object] = []
    start = shared_links.SharedTermSimilarity.start

    def counted(index, params):
        started.append(index)
        return start(index, params)

    monkeypatch.setattr(shared_links.SharedTermSimilarity, "start", staticmethod(counted))
    files = _folder(tmp_path, 8)
    _indexed(tmp_path / "none.db", files, workers=0)
    assert started == []
    _indexed(tmp_path / "one.db", files, workers=1)
    assert len(started) == 1
