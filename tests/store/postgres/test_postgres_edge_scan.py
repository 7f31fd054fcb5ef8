"""The PostgreSQL store's fast read of every edge (``store.postgres.edge_scan``) gives the
columns the row-by-row read gives, whatever the graph, the page size and the types; edges
that do not pack are read row by row."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph.model import Edge
from groundgraph.store import open_store
from groundgraph.store.edge_columns import EdgeColumns, read_edge_columns
from groundgraph.store.postgres import edge_scan
from postgres_server import fresh_schema_url
from store.conformance.store_data import STAMP, column_edges, documents, write

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _both(store) -> tuple[EdgeColumns | None, EdgeColumns]:
    with store.reads._db.snapshot() as query:
        return edge_scan.read_packed_edge_columns(query), read_edge_columns(query, "%s")


@pytest.fixture(scope="module")
def url() -> str:
    return fresh_schema_url("scan")


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    graph=st.lists(st.sampled_from("abc"), min_size=1, max_size=3, unique=True).flatmap(
        lambda names: st.tuples(*(documents(name) for name in names))
    ),
    page=st.sampled_from([1, 3, 1_000_000]),
)
def test_the_packed_read_gives_the_rows_columns(monkeypatch, graph, page):
    monkeypatch.setattr(edge_scan, "PAGE_IDS", page)
    store = open_store(fresh_schema_url("scan"))
    try:
        for document, nodes, edges in graph:
            extra = [Edge(nodes[0].node_id, nodes[-1].node_id, "custom-type", 0.25)]
            store.writes.replace_document(document, nodes, [*edges, *extra])
        packed, rows = _both(store)
        assert packed is not None and packed.generation == rows.generation
        assert sorted(packed.node_ids) == sorted(rows.node_ids)
        assert (
            column_edges(packed) == column_edges(rows) == column_edges(store.reads.edge_columns())
        )
    finally:
        store.close()


def test_an_invalid_edge_a_loop_and_exact_weights_come_through(url):
    store = open_store(url)
    extra = (
        Edge("a#1", "a#2", "semantic", 0.1234567890123456789),
        Edge("a#2", "a#1", "old", 0.9, invalid_at=STAMP),
        Edge("a#1", "a#1", "loop", 2.0**-40),
    )
    write(store, "a", n=2, extra_edges=extra, entities=("entity:x",))
    packed, rows = _both(store)
    assert packed is not None and column_edges(packed) == column_edges(rows)
    weights = {(s, t, k): w for s, t, k, w, _ in column_edges(packed)}
    assert weights[("a#1", "a#2", "semantic")] == 0.1234567890123456789
    assert weights[("a#1", "a#1", "loop")] == 2.0**-40
    assert ("a#2", "a#1", "old", 0.9, False) in column_edges(packed)
    store.close()


def test_edges_that_do_not_pack_are_read_row_by_row(monkeypatch):
    store = open_store(fresh_schema_url("scan"))
    write(store, "a", n=3, extra_edges=(Edge("a#1", "a#2", "next", 0.4),))
    _, rows = _both(store)
    monkeypatch.setattr(edge_scan, "_BITS", 4)
    assert _both(store)[0] is None
    assert column_edges(store.reads.edge_columns()) == column_edges(rows)
    store.close()


def test_weights_stay_exact_when_the_server_rounds_floats(url):
    # A session with extra_float_digits = 0 writes 15 digits; the read asks for
    # the shortest exact text inside its own transaction.
    store = open_store(url)
    write(store, "b", n=1, extra_edges=(Edge("b#1", "b", "semantic", 0.1234567890123456789),))
    with store.reads._db.snapshot() as query:
        query("SELECT set_config('extra_float_digits', '0', true)", ())
        packed = edge_scan.read_packed_edge_columns(query)
    assert packed is not None
    assert 0.1234567890123456789 in packed.weight.tolist()
    store.close()
