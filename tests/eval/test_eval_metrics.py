"""Ranking metrics against values worked out by hand, bootstrap intervals, latency."""

from __future__ import annotations

import pytest

from groundgraph.errors import InputError
from groundgraph.eval.metrics import (
    METRICS,
    bootstrap_interval,
    distinct,
    latency_summary,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank_at_k,
)

# "a" comes twice (two chunks of one document): it counts once, at rank 1, so the
# ranking scored is a, x, b, y, c.
RANKING = ["a", "x", "b", "a", "y", "c"]
RELEVANT = {"a", "b", "c", "d"}


def test_distinct_keeps_first_ranks():
    assert distinct(RANKING) == ["a", "x", "b", "y", "c"]


def test_precision():
    assert precision_at_k(RANKING, RELEVANT, 2) == 0.5  # {a} of a, x: 1 / 2
    assert precision_at_k(RANKING, RELEVANT, 5) == 0.6  # {a, b, c} of 5 places: 3 / 5
    # only 5 distinct documents for 10 places: the empty places are misses, 3 / 10
    assert precision_at_k(RANKING, RELEVANT, 10) == 0.3


def test_recall_is_the_share_of_gold_found():
    assert recall_at_k(RANKING, RELEVANT, 2) == 0.25  # a of {a, b, c, d}: 1 / 4
    assert recall_at_k(RANKING, RELEVANT, 5) == 0.75  # a, b, c of 4: 3 / 4
    assert recall_at_k(RANKING, RELEVANT, 10) == 0.75  # d never retrieved
    # a repeated document is not found twice: a, a, a holds 1 of 2, so 1 / 2
    assert recall_at_k(["a", "a", "a"], {"a", "b"}, 3) == 0.5
    # HippoRAG gives 0 to a question with no gold passage
    assert recall_at_k(RANKING, set(), 5) == 0.0


def test_reciprocal_rank():
    assert reciprocal_rank_at_k(RANKING, RELEVANT, 5) == 1.0  # a at rank 1: 1 / 1
    assert reciprocal_rank_at_k(["x", "y", "b"], RELEVANT, 5) == pytest.approx(1 / 3)
    assert reciprocal_rank_at_k(["x", "y", "b"], RELEVANT, 2) == 0.0  # b is at rank 3 > k
    assert reciprocal_rank_at_k([], RELEVANT, 5) == 0.0


def test_ndcg_binary_gains_log2_discount():
    # k = 2: DCG = 1/log2(2) = 1; IDCG = 1/log2(2) + 1/log2(3) = 1 + 0.6309297535714575
    # nDCG = 1 / 1.6309297535714575 = 0.6131471927654584
    assert ndcg_at_k(RANKING, RELEVANT, 2) == pytest.approx(0.6131471927654584)
    # k = 5: hits at ranks 1, 3, 5: DCG = 1 + 1/log2(4) + 1/log2(6) = 1 + 0.5 + 0.38685280723454163
    #   = 1.8868528072345416; 4 relevant, so IDCG = 1 + 0.6309297535714575 + 0.5
    #   + 0.43067655807339306 = 2.5616063116448506; nDCG = 0.7365896932159578
    assert ndcg_at_k(RANKING, RELEVANT, 5) == pytest.approx(0.7365896932159578)
    # one relevant document at rank 3: DCG = 1/log2(4) = 0.5, IDCG = 1, nDCG = 0.5
    assert ndcg_at_k(["x", "y", "b"], {"b"}, 5) == pytest.approx(0.5)
    assert ndcg_at_k(["b", "x"], {"b"}, 5) == 1.0
    assert ndcg_at_k(RANKING, set(), 5) == 0.0


def test_every_metric_is_registered_and_rejects_k_below_one():
    assert set(METRICS) == {"precision", "recall", "mrr", "ndcg"}
    for metric in METRICS.values():
        with pytest.raises(InputError):
            metric(RANKING, RELEVANT, 0)


def test_bootstrap_interval_of_a_constant_is_that_constant():
    interval = bootstrap_interval([0.5, 0.5, 0.5])
    assert (interval.mean, interval.low, interval.high) == (0.5, 0.5, 0.5)


def test_bootstrap_interval_is_seeded_and_brackets_the_mean():
    values = [0.0, 1.0] * 50  # mean 0.5 over 100 questions
    first = bootstrap_interval(values, resamples=2000, seed=3)
    assert first == bootstrap_interval(values, resamples=2000, seed=3)
    assert first.mean == 0.5
    # the normal approximation: 0.5 ± 1.96 · sqrt(0.25 / 100) = 0.5 ± 0.098
    assert first.low == pytest.approx(0.402, abs=0.02)
    assert first.high == pytest.approx(0.598, abs=0.02)
    assert bootstrap_interval(values, resamples=2000, seed=4) != first


def test_bootstrap_needs_values():
    with pytest.raises(InputError):
        bootstrap_interval([])
    with pytest.raises(InputError):
        bootstrap_interval([1.0], level=1.0)


def test_latency_percentiles_interpolate_between_ranks():
    latency = latency_summary([0.004, 0.001, 0.003, 0.002])  # 1, 2, 3, 4 ms
    # p50: position 0.5 · 3 = 1.5, halfway from 2 to 3 ms = 2.5
    assert latency.p50_ms == pytest.approx(2.5)
    # p95: position 0.95 · 3 = 2.85, so 3 + 0.85 · (4 − 3) = 3.85 ms
    assert latency.p95_ms == pytest.approx(3.85)
    assert latency.mean_ms == pytest.approx(2.5)  # (1 + 2 + 3 + 4) / 4
    assert latency.to_dict() == {"p50Ms": latency.p50_ms, "p95Ms": latency.p95_ms, "meanMs": 2.5}
    with pytest.raises(InputError):
        latency_summary([])
