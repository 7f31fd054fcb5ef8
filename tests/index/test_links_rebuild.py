"""After a cold start the derived per-node views are rebuilt in bulk, and equal the slow way."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.index.links import LinkParams, TermLinker, bulk_top_terms
from groundgraph.index.snapshot import dump_index, load_index
from groundgraph.text import Analyzer

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"]

documents = st.lists(
    st.tuples(
        st.lists(st.sampled_from(WORDS), min_size=0, max_size=3),
        st.lists(st.sampled_from(WORDS), min_size=0, max_size=25),
    ),
    min_size=1,
    max_size=25,
)


def _build(docs: list[tuple[list[str], list[str]]], removed: set[int]) -> LexicalIndex:
    index = LexicalIndex(Analyzer(), BM25Params())
    for i, (title, body) in enumerate(docs):
        index.add(f"d{i}#1", f"d{i}", " ".join(title), " ".join(body))
    for i in sorted(removed):
        index.remove_doc(f"d{i}")
    return index


def _reloaded(index: LexicalIndex) -> LexicalIndex:
    loaded = load_index(dump_index(index), Analyzer(), BM25Params())
    assert loaded is not None
    return loaded


@settings(max_examples=60)
@given(documents, st.data())
def test_bulk_top_terms_equal_node_by_node(docs, data):
    removed = set(data.draw(st.sets(st.integers(0, len(docs) - 1), max_size=len(docs) // 2)))
    index = _build(docs, removed)
    for source in (index, _reloaded(index)):
        linker = TermLinker(source, LinkParams(top_terms=4))
        bulk = bulk_top_terms(source, 4)
        assert bulk.keys.tolist() == sorted(source.position.values())
        for key, ids, row in zip(bulk.keys.tolist(), bulk.term_ids, bulk.weights, strict=True):
            names = tuple(source.terms[int(t)] for t in ids if t >= 0)
            term_ids, tfs = source.node_terms(key)
            counts = Counter(
                {source.terms[int(t)]: int(f) for t, f in zip(term_ids, tfs, strict=True)}
            )
            expected = linker.top_terms(counts)
            assert names == expected.terms
            assert row[: len(names)].tolist() == list(expected.weights)
            assert not row[len(names) :].any() and (ids[len(names) :] == -1).all()


@settings(max_examples=40)
@given(documents)
def test_forward_view_after_a_snapshot_load_equals_the_one_built_while_adding(docs):
    index = _build(docs, set())
    loaded = _reloaded(index)
    for pos in range(len(index.node_ids)):
        ids_a, tfs_a = index.node_terms(pos)
        ids_b, tfs_b = loaded.node_terms(pos)
        order = np.argsort(ids_a, kind="stable")
        assert ids_b.tolist() == ids_a[order].tolist()
        assert tfs_b.tolist() == tfs_a[order].tolist()


def test_a_reopened_linker_proposes_the_same_neighbours():
    docs = [
        (["deploy", "guide"], "deploy the harbor queue with a rolling restart of workers"),
        (["restart", "workers"], "a rolling restart drains each harbor worker before stopping"),
        (["billing"], "invoices are generated monthly from usage records"),
        (["queue", "tuning"], "tune the harbor queue depth and the worker restart budget"),
    ]
    index = LexicalIndex(Analyzer(), BM25Params())
    for i, (title, body) in enumerate(docs):
        index.add(f"d{i}", f"d{i}", " ".join(title), body)
    warm = TermLinker(index, LinkParams())
    probe = warm.top_terms(index.counter.counts("restart", "harbor queue worker restart"))
    cold = TermLinker(_reloaded(index), LinkParams())
    found = cold.neighbours(probe)
    assert found and found == warm.neighbours(probe)
    assert "d2" not in {index.node_ids[k] for k, _ in found}  # billing shares no term
