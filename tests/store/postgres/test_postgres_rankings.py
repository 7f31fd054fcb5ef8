"""Same rankings on both stores: one corpus indexed into SQLite and into PostgreSQL gives
the same top ten, with scores within 1e-9, for 200 queries (the BM25 index and the walk
are derived from what each store reads back, in the orders both promise)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pg_corpus import queries, write_corpus

from groundgraph import DocumentGraph
from groundgraph.ingest.folder import read_folder
from postgres_server import fresh_schema_url

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _index(location: str, folder: Path) -> None:
    with DocumentGraph(location) as graph:
        list(graph.add_documents(read_folder(folder).documents, workers=1))


def _top(graph: DocumentGraph, query: str, **options: object) -> list[tuple[str, float]]:
    return [(h.node_id, h.score) for h in graph.search(query, max_results=10, **options)]


def _same(left: list[tuple[str, float]], right: list[tuple[str, float]], query: str) -> None:
    assert [n for n, _ in left] == [n for n, _ in right], query
    for (_, a), (_, b) in zip(left, right, strict=True):
        assert abs(a - b) <= 1e-9, query


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = write_corpus(tmp_path_factory.mktemp("corpus") / "notes")
    sqlite = str(tmp_path_factory.mktemp("sqlite") / "notes.db")
    postgres = fresh_schema_url("rank")
    _index(sqlite, folder)
    _index(postgres, folder)
    return sqlite, postgres


def test_the_same_corpus_ranks_the_same_on_both_stores(stores):
    sqlite, postgres = stores
    asked = queries(200)
    with DocumentGraph(sqlite) as left, DocumentGraph(postgres) as right:
        assert left.store.reads.counts() == right.store.reads.counts()
        found = 0
        for query in asked:
            a, b = _top(left, query), _top(right, query)
            _same(a, b, query)
            found += bool(a)
        assert found > 150  # the queries do find things: the comparison says something


def test_walks_and_scoped_searches_rank_the_same(stores):
    sqlite, postgres = stores
    with DocumentGraph(sqlite) as left, DocumentGraph(postgres) as right:
        docs = [d.doc_id for d in left.store.reads.documents()][:10]
        for query in queries(40, seed=3):
            for options in (
                {"walker": "ppr"},
                {"max_hops": 3, "fusion": "linear"},
                {"doc_ids": docs},
            ):
                _same(_top(left, query, **options), _top(right, query, **options), query)
