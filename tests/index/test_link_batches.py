"""Batch linking equals node-by-node linking: the same top terms and neighbours."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.index.bm25 import BM25Params, LexicalIndex, TermBatch
from groundgraph.index.links import (
    LinkParams,
    TermLinker,
    TopTerms,
    similar_within,
    similar_within_many,
)
from groundgraph.index.top_terms import _log_tf

# Few words and small counts: equal scores (ties) are common, in terms and in similarity.
WORDS = ["ab", "ba", "c", "dd", "e", "fa", "g", "ha", "i"]
counts_strategy = st.dictionaries(st.sampled_from(WORDS), st.integers(1, 3), max_size=6).map(
    Counter
)
params_strategy = st.builds(
    LinkParams,
    top_terms=st.sampled_from([1, 2, 4, 12]),
    neighbours=st.sampled_from([0, 1, 2, 5]),
    min_similarity=st.sampled_from([0.0, 0.08, 0.3]),
    max_term_nodes=st.sampled_from([0, 1, 2, 3, 2000]),  # small caps leave terms out
)
# Documents already indexed, then some of them removed.
corpus_strategy = st.tuples(
    st.lists(st.lists(counts_strategy, max_size=4), max_size=8),
    st.sets(st.integers(0, 7), max_size=3),
)


def _node_id(doc: int, i: int) -> str:
    # Names sort in another order than positions, so ties by name are really tested.
    return f"{'zyxwvutsrq'[(doc * 3 + i) % 10]}{doc}#{i}"


def _linked(corpus: Any, params: LinkParams) -> tuple[LexicalIndex, TermLinker]:
    docs, removed = corpus
    index = LexicalIndex(params=BM25Params(title_boost=0))
    linker = TermLinker(index, params)
    for doc, nodes in enumerate(docs):
        for i, counts in enumerate(nodes):
            top = linker.top_terms(counts)
            linker.register(index.add_counts(_node_id(doc, i), f"d{doc}", counts, False), top)
    for doc in sorted(removed):
        linker.forget(list(index.doc_positions.get(f"d{doc}", [])))
        index.remove_doc(f"d{doc}")
    return index, linker


@settings(max_examples=100, deadline=None)
@given(corpus_strategy, st.lists(counts_strategy, max_size=8), params_strategy)
def test_top_terms_many_equals_top_terms_node_by_node(corpus, counts_list, params):
    _, linker = _linked(corpus, params)
    expected = [linker.top_terms(c) for c in counts_list]
    assert linker.top_terms_many(counts_list) == expected
    batch = TermBatch.of([Counter({"zz": 1}), *counts_list])
    other = LexicalIndex()  # where the same terms have other ids: not reused
    other.add_counts("x", "x", Counter(dict.fromkeys(reversed(WORDS), 1)), False)
    batch.term_ids(other.vocab)
    assert linker.top_terms_many(batch.take(range(1, len(batch)))) == expected


def _postings_state(linker: TermLinker) -> tuple[dict[str, list[int]], list[float]]:
    store = linker._postings
    terms = {t: found.tolist() for t, found in store._postings.items()}
    return terms, [-1.0 if np.isnan(m) else float(m) for m in store._mass[:64]]


@settings(max_examples=100, deadline=None)
@given(
    corpus_strategy,
    st.lists(st.tuples(st.integers(0, 40), counts_strategy), max_size=8),
    params_strategy,
)
def test_register_many_equals_register_node_by_node(corpus, batch, params):
    (_, one), (_, many) = _linked(corpus, params), _linked(corpus, params)
    positions = [pos for pos, _ in batch]  # repeats, known and forgotten positions included
    tops = [one.top_terms(counts) for _, counts in batch]
    for pos, top in zip(positions, tops, strict=True):
        one.register(pos, top)
    many.register_many(positions, tops)
    assert _postings_state(one) == _postings_state(many)


@settings(max_examples=150, deadline=None)
@given(
    corpus_strategy,
    st.lists(st.tuples(counts_strategy, st.booleans()), max_size=8),
    params_strategy,
    st.integers(0, 7),
    st.integers(1, 6),
)
def test_batch_neighbours_equal_the_node_by_node_search(corpus, new_nodes, params, replaced, block):
    index, linker = _linked(corpus, params)
    tops = linker.top_terms_many([counts for counts, _ in new_nodes])
    names = [_node_id(replaced, i) + "new" for i in range(len(new_nodes))]
    exclude = set(index.doc_positions.get(f"d{replaced}", []))
    assert linker.neighbours_many(tops, exclude) == [linker.neighbours(t, exclude) for t in tops]
    within = similar_within(tops, names, params)
    assert similar_within_many(tops, names, params) == within
    # Scored a few rows at a time (as a large document is), the neighbours are the same.
    assert similar_within_many(tops, names, params, block=block) == within


def test_a_term_held_by_too_many_earlier_nodes_proposes_none_of_them():
    params = LinkParams(top_terms=2, neighbours=5, min_similarity=0.0, max_term_nodes=2)
    tops = [TopTerms(("a", "b"), (1.0, 2.0)) for _ in range(5)]
    names = [f"n{i}" for i in range(5)]
    found = similar_within_many(tops, names, params)
    assert found == similar_within(tops, names, params)
    assert [len(f) for f in found] == [0, 1, 2, 0, 0]  # a third holder skips both terms


def test_a_linker_builds_over_indexed_nodes_without_terms():
    index = LexicalIndex()
    index.add_counts("a#0", "a", Counter(), True)
    assert TermLinker(index).neighbours(TopTerms(("x",), (1.0,))) == []


def test_log_tf_is_math_log_in_and_beyond_the_table():
    tf = np.array([1, 2, 3, 255, 256, 70_000], dtype=np.int64)
    want = [1.0 + math.log(v) for v in tf.tolist()]
    assert _log_tf(tf).tolist() == want
    assert _log_tf(tf[:4]).tolist() == want[:4]
