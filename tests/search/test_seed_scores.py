"""How dense and hybrid seeds are scored: the cosine above its floor, and the mean of the
two normalised scores in reciprocal-rank order (search.seeds)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.index.embedder import unit_rows
from groundgraph.index.vectors import VectorIndex
from groundgraph.model import TermScore
from groundgraph.search.seeds import DenseMatches, FusedMatches


class Lexical:
    """A lexical stage over fixed scores (normalised by the best, as BM25's is)."""

    def __init__(self, scores: dict[str, float]) -> None:
        best = max(scores.values())
        self.scores = {n: s / best for n, s in scores.items()}
        self.ranked = sorted(self.scores, key=lambda n: (-self.scores[n], n))

    def top(self, k: int) -> list[tuple[str, float]]:
        return [(n, self.scores[n]) for n in self.ranked[:k]]

    def scores_of(self, node_ids: Sequence[str]) -> dict[str, float]:
        return {n: self.scores[n] for n in node_ids if n in self.scores}

    def terms(self, node_id: str) -> tuple[TermScore, ...]:
        return ()


def vectors(rows: dict[str, list[float]]) -> VectorIndex:
    index = VectorIndex(len(next(iter(rows.values()))))
    index.put(list(rows), unit_rows(np.array(list(rows.values()))))
    return index


def dense(rows: dict[str, list[float]], query: list[float], floor: float = 0.3) -> DenseMatches:
    return DenseMatches(vectors(rows), unit_rows([query])[0], floor, lambda n: True)


ROWS = {"a": [1.0, 0.1, 0.0], "b": [1.0, 0.8, 0.0], "c": [0.4, 1.0, 0.0], "d": [0.0, 0.0, 1.0]}
QUERY = [1.0, 0.0, 0.0]


def test_a_dense_seed_scores_how_far_its_cosine_is_above_the_floor_over_the_best():
    found = dense(ROWS, QUERY)
    cos = {n: c for n, c in found.cosine.items()}
    assert found.ranked == sorted(cos, key=lambda n: -cos[n]) and "d" not in cos
    best = max(cos.values())
    for node_id, score in found.top(10):
        assert score == pytest.approx((cos[node_id] - 0.3) / (best - 0.3), abs=1e-6)
    assert found.top(1)[0][1] == pytest.approx(1.0)
    assert found.scores_of(["c", "d"]) == {"c": pytest.approx(found.top(3)[2][1])}


def test_dense_matches_all_at_the_floor_each_score_one():
    found = dense({"a": [1.0, 0.0], "b": [1.0, 0.0]}, [1.0, 0.0], floor=1.0 - 1e-7)
    assert [s for _, s in found.top(2)] == [1.0, 1.0]


def test_hybrid_seeds_come_in_reciprocal_rank_order_scored_by_the_mean_of_both_scores():
    cosines = dense(ROWS, QUERY)
    lexical = Lexical({"c": 3.0, "a": 2.0, "x": 1.0})  # x: no vector at all
    fused = FusedMatches(lexical, cosines, rrf_k=60)
    rrf = {
        n: sum(1 / (60 + r) for r in (fused.lexical_rank.get(n), cosines.rank.get(n)) if r)
        for n in fused.fused
    }
    assert fused.ranked == sorted(rrf, key=lambda n: (-rrf[n], n))
    mean = {n: (lexical.scores.get(n, 0.0) + cosines.scores_of([n]).get(n, 0.0)) / 2 for n in rrf}
    best = max(mean.values())
    assert dict(fused.top(10)) == {n: pytest.approx(m / best) for n, m in mean.items()}
    assert fused.scores_of(["x", "d"]) == {"x": pytest.approx(mean["x"] / best)}


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(0.05, 1.0), min_size=4, max_size=4),
    st.integers(1, 500),
)
def test_a_node_first_in_both_lists_scores_one_whatever_rrf_k(weights, rrf_k):
    lexical = Lexical(dict(zip("abcd", weights, strict=True)))
    cosines = dense(ROWS, QUERY)
    fused = FusedMatches(lexical, cosines, rrf_k)
    top_node, top_score = fused.top(1)[0]
    if lexical.ranked[0] == cosines.ranked[0]:
        assert top_node == lexical.ranked[0] and top_score == pytest.approx(1.0)
    assert all(0.0 <= s <= 1.0 + 1e-9 for _, s in fused.top(10))
    assert max(s for _, s in fused.top(10)) == pytest.approx(1.0)
