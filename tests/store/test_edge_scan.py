"""The SQLite store's fast read of every edge (``store.sqlite.edge_scan``) gives the
columns the row-by-row read gives, whatever the graph, the page size or the width of its
keys; a store whose keys are too wide to pack is read row by row."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph.model import Edge
from groundgraph.store import SQLiteStore
from groundgraph.store.edge_columns import EdgeColumns, read_edge_columns
from groundgraph.store.sqlite import edge_scan
from groundgraph.store.sqlite.reads import _EDGE_COLUMNS_FROM
from store.conformance.store_data import STAMP, column_edges, documents, write


def _by_rows(store: SQLiteStore) -> EdgeColumns:
    with store.reads._db.snapshot() as query:
        return read_edge_columns(query, "?", _EDGE_COLUMNS_FROM)


def _packed(store: SQLiteStore) -> EdgeColumns | None:
    with store.reads._db.snapshot() as query:
        return edge_scan.read_packed_edge_columns(query)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    graph=st.lists(st.sampled_from("abcd"), min_size=1, max_size=4, unique=True).flatmap(
        lambda names: st.tuples(*(documents(name) for name in names))
    ),
    page=st.sampled_from([1, 2, 3, 1_000_000]),
)
def test_the_packed_read_gives_the_rows_columns(tmp_path_factory, monkeypatch, graph, page):
    monkeypatch.setattr(edge_scan, "PAGE_IDS", page)
    store = SQLiteStore(tmp_path_factory.mktemp("scan") / "s.db")
    try:
        for document, nodes, edges in graph:
            extra = [Edge(nodes[0].node_id, nodes[-1].node_id, "custom-type", 0.25)]
            store.writes.replace_document(document, nodes, [*edges, *extra])
        packed = _packed(store)
        rows = _by_rows(store)
        assert packed is not None
        assert packed.generation == rows.generation
        assert sorted(packed.node_ids) == sorted(rows.node_ids)
        assert column_edges(packed) == column_edges(rows)
        assert column_edges(store.reads.edge_columns()) == column_edges(rows)
    finally:
        store.close()


def test_an_invalid_edge_a_loop_and_exact_weights_come_through(tmp_path):
    store = SQLiteStore(tmp_path / "s.db")
    extra = (
        Edge("a#1", "a#2", "semantic", 0.1234567890123456789),
        Edge("a#2", "a#1", "old", 0.9, invalid_at=STAMP),
        Edge("a#1", "a#1", "loop", 2.0**-40),
    )
    write(store, "a", n=2, extra_edges=extra, entities=("entity:x",))
    packed = _packed(store)
    assert packed is not None and column_edges(packed) == column_edges(_by_rows(store))
    weights = {(s, t, k): w for s, t, k, w, _ in column_edges(packed)}
    assert weights[("a#1", "a#2", "semantic")] == 0.1234567890123456789
    assert weights[("a#1", "a#1", "loop")] == 2.0**-40
    assert ("a#2", "a#1", "old", 0.9, False) in column_edges(packed)
    store.close()


def test_keys_too_wide_to_pack_are_read_row_by_row(tmp_path, monkeypatch):
    store = SQLiteStore(tmp_path / "s.db")
    write(store, "a", n=3, extra_edges=(Edge("a#1", "a#2", "next", 0.4),))
    want = column_edges(_by_rows(store))
    monkeypatch.setattr(edge_scan, "_BITS", 4)
    assert _packed(store) is None
    assert column_edges(store.reads.edge_columns()) == want
    store.close()


def test_an_empty_store_packs_no_edge(tmp_path):
    store = SQLiteStore(tmp_path / "s.db")
    packed = _packed(store)
    assert packed is not None and len(packed.source) == 0 and packed.node_ids == []
    store.close()


@pytest.mark.parametrize("count", [0, 5])
def test_edges_of_documents_written_and_removed_read_back(tmp_path, count):
    store = SQLiteStore(tmp_path / "s.db")
    for i in range(count):
        write(store, f"d{i}", n=2, extra_edges=(Edge(f"d{i}#1", f"d{i}#2", "next", 0.4),))
    if count:
        store.writes.remove_document("d0")
    assert column_edges(store.reads.edge_columns()) == column_edges(_by_rows(store))
    store.close()


@pytest.mark.parametrize("packed", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
def test_derived_edges_skip_joined_pairs_packed_or_not(tmp_path, monkeypatch, packed, sparse):
    # replace_derived_edges leaves out a pair another edge joins already, either way; the
    # pairs are read packed by SQLite unless the keys are too wide (here: made so).
    from groundgraph.store.sqlite import writes

    if not packed:
        monkeypatch.setattr(writes, "_PACKED_KEY_BITS", 0)
    store = SQLiteStore(tmp_path / "s.db")
    if sparse:  # node keys far above their count, as after much churn
        write(store, "z", n=0)
        with store.reads._db.write() as conn:
            conn.execute("UPDATE nodes SET key = 100000000 WHERE node_id = 'z'")
    write(store, "a", n=3, extra_edges=(Edge("a#1", "a#2", "next", 0.4),))
    write(store, "b", n=2)
    offered = [
        Edge("a#2", "a#1", "semantic", 0.5),  # joined by next, the other way: left out
        Edge("a#1", "a#3", "semantic", 0.6),
        Edge("a#3", "b#1", "semantic", 0.7),
        Edge("b#1", "a#3", "semantic", 0.8),  # the pair just linked, the other way
        Edge("b", "b#2", "semantic", 0.9),  # joined by parent-child: left out
    ]
    store.writes.replace_derived_edges("semantic", offered)
    stored = sorted((e.source, e.target, e.weight) for e in store.reads.iter_edges(["semantic"]))
    assert stored == [("a#1", "a#3", 0.6), ("a#3", "b#1", 0.7)]
    owners = {e.source for e in store.reads.owned_edges(["a"]) if e.type == "semantic"}
    assert owners == {"a#1", "a#3"}  # each edge owned by its source's document
    store.close()
