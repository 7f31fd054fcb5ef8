"""Ranking metrics over document ids, bootstrap intervals, latency percentiles.

A ranking is a list of document ids, best first. It is first reduced to distinct ids (a
document met twice, say as two chunks, counts once, at its first rank) and then cut at k.
With R the relevant ids and hits(k) the relevant ids among the first k:

- precision@k = |hits(k)| / k
- recall@k = |hits(k)| / |R|, 0 when R is empty: HippoRAG's passage recall
  (``RetrievalRecall``: per question the share of its gold passages found in the top k,
  then the plain mean over questions)
- RR@k = 1 / rank of the first relevant id within the top k, 0 if there is none (its mean
  over questions is MRR@k)
- nDCG@k = DCG@k / IDCG@k with binary gains: DCG@k = Σ 1 / log2(i + 1) over the ranks
  i ≤ k holding a relevant id, IDCG@k = Σ_{i=1}^{min(k, |R|)} 1 / log2(i + 1)

Each mean over questions comes with a percentile bootstrap 95% interval: resample the
questions with replacement (fixed seed), take the mean of each resample, and report the
2.5th and 97.5th percentiles of those means.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from groundgraph.errors import InputError

Metric = Callable[[Sequence[str], Collection[str], int], float]

BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 20261129


def distinct(ranking: Iterable[str]) -> list[str]:
    """The ids of ``ranking`` in order, each at its first rank only."""
    return list(dict.fromkeys(ranking))


def _top(ranking: Sequence[str], k: int) -> list[str]:
    if k < 1:
        raise InputError(f"k must be at least 1, not {k}")
    return distinct(ranking)[:k]


def precision_at_k(ranking: Sequence[str], relevant: Collection[str], k: int) -> float:
    """Share of the first k places that hold a relevant id (empty places count as misses)."""
    return sum(1 for d in _top(ranking, k) if d in relevant) / k


def recall_at_k(ranking: Sequence[str], relevant: Collection[str], k: int) -> float:
    """Share of the relevant ids found in the first k places; 0 when none is relevant."""
    gold = set(relevant)
    if not gold:
        return 0.0
    return len(gold.intersection(_top(ranking, k))) / len(gold)


def reciprocal_rank_at_k(ranking: Sequence[str], relevant: Collection[str], k: int) -> float:
    """1 / rank of the first relevant id in the first k places, else 0."""
    for rank, doc_id in enumerate(_top(ranking, k), start=1):
        if doc_id in relevant:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranking: Sequence[str], relevant: Collection[str], k: int) -> float:
    """Normalised discounted cumulative gain with binary gains and a log2(rank + 1) discount."""
    gold = set(relevant)
    dcg = sum(
        1.0 / math.log2(rank + 1)
        for rank, doc_id in enumerate(_top(ranking, k), start=1)
        if doc_id in gold
    )
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(k, len(gold)) + 1))
    return dcg / ideal if ideal else 0.0


#: The metrics reported for every k, by the name used in tables and JSON.
METRICS: dict[str, Metric] = {
    "precision": precision_at_k,
    "recall": recall_at_k,
    "mrr": reciprocal_rank_at_k,
    "ndcg": ndcg_at_k,
}


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean over questions and its bootstrap interval."""

    mean: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "low": self.low, "high": self.high}


def bootstrap_interval(
    values: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
) -> Interval:
    """The mean of ``values`` with a percentile bootstrap interval at ``level``."""
    if not len(values):
        raise InputError("a bootstrap interval needs at least one value")
    if resamples < 1 or not 0 < level < 1:
        raise InputError("resamples must be >= 1 and level in (0, 1)")
    data = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(data), size=(resamples, len(data)))
    means = data[picks].mean(axis=1)
    tail = (1.0 - level) / 2.0 * 100.0
    low, high = np.percentile(means, [tail, 100.0 - tail])
    return Interval(float(data.mean()), float(low), float(high))


@dataclass(frozen=True, slots=True)
class Latency:
    """Per-query wall time in milliseconds: median, 95th percentile and mean."""

    p50_ms: float
    p95_ms: float
    mean_ms: float

    def to_dict(self) -> dict[str, float]:
        return {"p50Ms": self.p50_ms, "p95Ms": self.p95_ms, "meanMs": self.mean_ms}


def latency_summary(seconds: Sequence[float]) -> Latency:
    """Percentiles of per-query times (linear interpolation between ranks, as numpy does)."""
    if not len(seconds):
        raise InputError("latency needs at least one timing")
    ms = np.asarray(seconds, dtype=np.float64) * 1000.0
    p50, p95 = np.percentile(ms, [50.0, 95.0])
    return Latency(float(p50), float(p95), float(ms.mean()))
