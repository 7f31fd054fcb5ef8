"""BM25 over a subset with its own statistics: the visible nodes and the outside nodes
(given by their term counts) score as bm25s scores a corpus of just those texts."""

from __future__ import annotations

from collections import Counter

import bm25s
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.index.subset import subset_bm25

VOCAB = ["cat", "dog", "fish", "bird", "tree", "rock", "moon", "star", "rain", "lamp"]
docs = st.lists(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=12), min_size=1, max_size=20)


@settings(max_examples=80, deadline=None)
@given(
    inside=docs,
    outside=st.lists(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=12), max_size=8),
    seen=st.lists(st.booleans(), min_size=20, max_size=20),
    query=st.lists(st.sampled_from(VOCAB), min_size=1, max_size=4, unique=True),
)
def test_subset_scores_equal_bm25s_on_the_subset(inside, outside, seen, query):
    index = LexicalIndex(params=BM25Params(k1=1.2, b=0.75, title_boost=0))
    assert all(index.analyzer.terms(w) == [w] for w in VOCAB)
    for i, tokens in enumerate(inside):
        index.add_counts(f"n{i:03d}", f"d{i}", Counter(tokens), blank=False)
    visible = np.array(seen[: len(inside)], dtype=bool)
    others = {f"o{i}": Counter(tokens) for i, tokens in enumerate(outside)}
    found = subset_bm25(index, " ".join(query), visible, others).scores
    corpus = [t for t, v in zip(inside, visible, strict=True) if v] + outside
    names = [f"n{i:03d}" for i, v in enumerate(visible) if v] + list(others)
    if not corpus:
        assert found == {}
        return
    reference = bm25s.BM25(method="lucene", k1=1.2, b=0.75)
    reference.index(corpus, show_progress=False)
    expected = reference.get_scores(query)
    for name, score in zip(names, expected, strict=True):
        assert np.isclose(found.get(name, 0.0), score, rtol=1e-5, atol=1e-9), name
    assert set(found) <= set(names)
