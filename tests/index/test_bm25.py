"""BM25 scoring: cross-checked against bm25s (Lucene variant), plus live add/remove."""

from __future__ import annotations

from collections import Counter

import bm25s
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.index.bm25 import BM25Params, LexicalIndex, top_positions
from groundgraph.index.snapshot import dump_index, load_index, read_snapshot, snapshot_bytes

VOCAB = [f"w{i}" for i in range(30)]
docs_strategy = st.lists(
    st.lists(st.sampled_from(VOCAB), min_size=1, max_size=25), min_size=2, max_size=40
)


def _index_of(token_lists: list[list[str]], k1: float = 1.2, b: float = 0.75) -> LexicalIndex:
    index = LexicalIndex(params=BM25Params(k1=k1, b=b, title_boost=0))
    for i, tokens in enumerate(token_lists):
        index.add_counts(f"n{i:03d}", f"d{i}", Counter(tokens), blank=False)
    return index


def _bm25s_scores(
    token_lists: list[list[str]], query: list[str], k1: float, b: float
) -> np.ndarray:
    reference = bm25s.BM25(method="lucene", k1=k1, b=b)
    reference.index(token_lists, show_progress=False)
    return np.asarray(reference.get_scores(query), dtype=np.float64)


def test_an_index_read_from_the_snapshot_of_an_empty_one_takes_new_terms():
    # An empty snapshot holds no document frequencies: the first new term grows them.
    empty = LexicalIndex()
    again = load_index(dump_index(empty), empty.analyzer, empty.params)
    assert again is not None
    again.add("a", "a", "Rain", "Heavy rain caused flooding.")
    assert len(again) == 1 and again.match("flooding").scores.tolist()[0] > 0


@settings(max_examples=60, deadline=None)
@given(
    docs=docs_strategy,
    query=st.lists(st.sampled_from(VOCAB), min_size=1, max_size=5, unique=True),
    k1=st.sampled_from([0.9, 1.2, 1.5]),
    b=st.sampled_from([0.0, 0.5, 0.75, 1.0]),
)
def test_scores_equal_bm25s_lucene(docs, query, k1, b):
    index = _index_of(docs, k1, b)
    matches = index.match_terms(query)
    ours = np.zeros(len(docs))
    ours[matches.positions] = matches.scores
    theirs = _bm25s_scores(docs, query, k1, b)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-9)


def test_title_words_count_extra():
    index = LexicalIndex()
    index.add("a", "a", "Deployment", "push the build")
    index.add("b", "b", "Notes", "deployment happens on fridays")
    counts = index.counter.counts("Deployment", "push the build")
    assert counts["deploy"] == 3
    top = index.match("deploy")
    best = top.positions[int(np.argmax(top.scores))]
    assert index.node_ids[best] == "a"


def test_stemming_finds_other_word_forms():
    index = LexicalIndex()
    index.add("x", "x", "Deployment", "Push the build to the server.")
    assert index.node_ids[int(index.match("deploy").positions[0])] == "x"
    assert len(index.match("deploying servers").positions) == 1


def test_removal_updates_statistics_and_postings():
    index = _index_of([["a1", "b1"], ["b1", "c1"], ["c1"]])
    before = index.idf("b1")
    removed = index.remove_doc("d0")
    assert removed == ["n000"]
    assert index.df("b1") == 1 and index.df("a1") == 0
    assert index.idf("b1") != before
    assert len(index.match_terms(["a1"]).positions) == 0
    index.compact()
    assert index.posting_count() == 3  # b1 and c1 of n001, c1 of n002


def test_removed_then_readded_scores_like_a_fresh_index():
    docs = [["x1", "y1"], ["y1", "z1", "z1"], ["x1", "z1"]]
    live = _index_of(docs)
    live.remove_doc("d1")
    live.add_counts("n001", "d1", Counter(docs[1]), blank=False)
    fresh = _index_of(docs)
    for query in (["x1"], ["y1", "z1"]):
        a, b = live.match_terms(query), fresh.match_terms(query)
        got = dict(zip((live.node_ids[p] for p in a.positions), a.scores, strict=True))
        want = dict(zip((fresh.node_ids[p] for p in b.positions), b.scores, strict=True))
        assert got.keys() == want.keys()
        for key in want:
            assert got[key] == pytest.approx(want[key], rel=1e-12)


def test_dump_and_load_give_identical_scores():
    index = LexicalIndex()
    index.add("a", "a", "Configuration", "Edit config.json to customise settings.")
    index.add("b", "b", "Troubleshooting", "If config fails, see the Configuration section.")
    index.add("c", "c", "Empty", "")
    index.remove_doc("c")
    loaded = load_index(dump_index(index), index.analyzer, index.params)
    assert loaded is not None
    for query in ("config fails", "settings", "nothing here"):
        a, b = index.match(query), loaded.match(query)
        assert a.positions.tolist() == b.positions.tolist()
        assert a.scores.tolist() == b.scores.tolist()
    assert "c" not in loaded and len(loaded) == 2


def test_load_refuses_other_settings():
    index = LexicalIndex()
    index.add("a", "a", "T", "text here")
    assert load_index(dump_index(index), index.analyzer, BM25Params(k1=2.0)) is None


def test_contributions_add_up_to_the_score():
    index = LexicalIndex()
    index.add("a", "a", "Alpha", "config fails when the config is wrong")
    index.add("b", "b", "Beta", "nothing relevant")
    matches = index.match("config fails")
    for row, pos in enumerate(matches.positions):
        parts = matches.contributions(int(pos))
        assert sum(p.score for p in parts) == pytest.approx(float(matches.scores[row]))


def test_top_positions_breaks_ties_by_id():
    positions = np.array([0, 1, 2, 3])
    scores = np.array([1.0, 2.0, 2.0, 0.5])
    ids = ["d", "c", "b", "a"]
    assert top_positions(positions, scores, 2, ids.__getitem__) == [2, 1]
    assert top_positions(positions, scores, 10, ids.__getitem__) == [2, 1, 0, 3]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.0]), min_size=1, max_size=30),
    st.integers(1, 35),
    st.randoms(use_true_random=False),
)
def test_top_positions_is_the_sort_by_score_then_id(scores, k, rng):
    # Names are read for tied scores only, and the order is still that of sorting every
    # match by (-score, id).
    ids = [f"n{i:02d}" for i in range(len(scores))]
    rng.shuffle(ids)
    positions = np.arange(len(scores)) * 3
    read: list[int] = []

    def name_of(pos: int) -> str:
        read.append(pos)
        return ids[pos // 3]

    want = sorted(range(len(scores)), key=lambda i: (-scores[i], ids[i]))[:k]
    assert top_positions(positions, np.array(scores), k, name_of) == want
    tied = {3 * i for i, s in enumerate(scores) if scores.count(s) > 1}
    assert set(read) <= tied
    read.clear()
    many = top_positions(positions, np.array(scores), k, str, lambda ps: [name_of(p) for p in ps])
    assert many == want and set(read) <= tied


def test_arrays_round_trip_and_are_what_the_snapshot_stores():
    index = LexicalIndex()
    index.add("a", "a", "Configuration", "Edit config.json to customise settings.")
    index.add("b", "b", "Troubleshooting", "If config fails, see the Configuration section.")
    index.remove_doc("a")
    arrays = index.to_arrays()
    again = LexicalIndex.from_arrays(arrays, index.analyzer, index.params)
    assert dump_index(again) == dump_index(index)
    assert again.match("config").scores.tolist() == index.match("config").scores.tolist()
    assert "a" not in again and len(again) == 1


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.one_of(st.sampled_from(["d", "d#1", "d#x#2", "#3", "=4", "", "e#1", "dd#1"]), st.text()),
        st.sampled_from(["d", "e", "dd"]),
        max_size=8,
    )
)
def test_the_snapshot_reads_back_any_node_and_document_ids(owners):
    # Node ids are written relative to their document in the snapshot (index/snapshot.py).
    index = LexicalIndex()
    for node_id, doc_id in owners.items():
        index.add(node_id, doc_id, "Title", "some text here")
    arrays = index.to_arrays()
    again = read_snapshot(snapshot_bytes(arrays))
    assert again is not None
    assert list(again.node_ids) == list(arrays.node_ids)
    assert list(again.doc_of) == list(arrays.doc_of)
