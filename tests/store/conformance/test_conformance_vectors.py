"""NodeVectors conformance: a vector lives and dies with its node."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph.errors import InputError
from groundgraph.model import Document, Edge, Node
from groundgraph.store import ChangeLog, DocumentWrites, NodeVectors

REQUIRES = (NodeVectors, DocumentWrites)


def _doc(doc_id: str, sections: int) -> tuple[Document, list[Node], list[Edge]]:
    nodes = [Node(doc_id, doc_id, "document", doc_id.upper(), "")]
    nodes += [
        Node(f"{doc_id}#{i}", doc_id, "section", f"S{i}", f"text {i}", 2, doc_id)
        for i in range(1, sections + 1)
    ]
    return Document(doc_id, doc_id.upper()), nodes, []


def _rows(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, 3)).astype(np.float32)


def test_vectors_round_trip_exactly_in_node_order(store):
    store.writes.replace_document(*_doc("a", 2))
    store.writes.replace_document(*_doc("b", 1))
    rows = _rows(3, 1)
    store.vectors.save_vectors(["b#1", "a#2", "a#1"], rows)
    ids, docs, matrix = store.vectors.load_vectors()
    assert ids == ["a#1", "a#2", "b#1"] and docs == ["a", "a", "b"]
    np.testing.assert_array_equal(matrix, rows[[2, 1, 0]])
    ids, _, matrix = store.vectors.load_vectors(["b"])
    assert ids == ["b#1"]
    np.testing.assert_array_equal(matrix, rows[[0]])
    assert store.vectors.vector_count() == 3


def test_no_vectors_is_an_empty_matrix(store):
    ids, docs, matrix = store.vectors.load_vectors()
    assert ids == [] and docs == [] and matrix.shape == (0, 0)


def test_a_vector_goes_with_its_node(store):
    store.writes.replace_document(*_doc("a", 2))
    store.writes.replace_document(*_doc("b", 1))
    store.vectors.save_vectors(["a#1", "a#2", "b#1"], _rows(3, 2))
    store.writes.replace_document(*_doc("a", 3))  # replaced: its old vectors go
    assert store.vectors.load_vectors()[0] == ["b#1"]
    store.writes.remove_document("b")
    assert store.vectors.vector_count() == 0


def test_a_vector_for_an_unknown_node_writes_nothing(store):
    store.writes.replace_document(*_doc("a", 1))
    with pytest.raises(InputError, match="no such node"):
        store.vectors.save_vectors(["a#1", "ghost#1"], _rows(2, 3))
    assert store.vectors.vector_count() == 0


def test_saving_vectors_is_not_a_graph_change(store):
    store.writes.replace_document(*_doc("a", 1))
    if isinstance(store, ChangeLog):
        before = store.changes.generation()
        store.vectors.save_vectors(["a#1"], _rows(1, 4))
        assert store.changes.generation() == before


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 3), st.booleans()), max_size=8))
def test_vectors_are_those_of_the_stored_nodes_after_any_writes(new_store, writes):
    store = new_store()
    expected: dict[str, np.ndarray] = {}
    for step, (doc_id, sections, remove) in enumerate(writes):
        for node in [n for n in expected if n.split("#")[0] == doc_id]:
            del expected[node]
        if remove:
            store.writes.remove_document(doc_id)
            continue
        store.writes.replace_document(*_doc(doc_id, sections))
        ids = [f"{doc_id}#{i}" for i in range(1, sections + 1)]
        rows = _rows(len(ids), step)
        store.vectors.save_vectors(ids, rows)
        expected.update(zip(ids, rows, strict=True))
    ids, _, matrix = store.vectors.load_vectors()
    assert sorted(ids) == sorted(expected)
    for node_id, row in zip(ids, matrix, strict=True):
        np.testing.assert_array_equal(row, expected[node_id])
