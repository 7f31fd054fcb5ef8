"""Conformal thresholds on Katz confidence: coverage of true claims on a noisy graph.

When the facts come from an extractor, some are missing and some are wrong, so "grounded
or not" is no longer exact. Split conformal prediction turns the confidence into a test
with a distribution-free guarantee instead: calibrate a threshold τ on pairs known to be
true, accept a claim when its confidence is at least τ, and a new true pair exchangeable
with the calibration pairs is accepted with probability at least 1 − α. Precision is not
promised: how many false pairs pass depends on the graph.

``ConformalReasoner`` can calibrate one τ per group (Mondrian conformal), e.g. by
``redundancy_group``; ``AdaptiveConformalReasoner`` keeps τ tracking a stream whose noise
drifts (adaptive conformal inference, Gibbs and Candès, NeurIPS 2021).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Protocol

from groundgraph.errors import InputError

GroupFn = Callable[[str, str], Hashable]


class PairScorer(Protocol):
    """Anything that scores a (subject, object) pair: GroundedReasoner, KatzScorer."""

    def confidence(self, subject: str, obj: str) -> float: ...


class WalkCounter(Protocol):
    """Anything that counts walks between two entities."""

    def path_multiplicity(
        self, subject: str, obj: str, max_len: int | None = None, cap: int = 5
    ) -> int: ...


def conformal_threshold(scores: Sequence[float], alpha: float) -> float:
    """The split-conformal threshold: the ⌊α(n+1)⌋-th smallest calibration score.

    −inf when α(n+1) < 1 (too few scores to exclude anything). Accepting a score ≥ τ
    covers a new exchangeable score with probability ≥ 1 − α.
    """
    _check_alpha(alpha)
    if len(scores) == 0:
        raise InputError("conformal_threshold needs at least one calibration score")
    ordered = sorted(float(s) for s in scores)
    k = math.floor(alpha * (len(ordered) + 1))
    if k < 1:
        return -math.inf
    return ordered[min(k, len(ordered)) - 1]


def _check_alpha(alpha: float) -> None:
    if not 0.0 < alpha < 1.0:
        raise InputError(f"alpha must be in (0, 1), got {alpha!r}")


def redundancy_group(counter: WalkCounter, subject: str, obj: str) -> int:
    """0 when at most one walk links the pair, 1 when several do.

    Pairs held by one walk lose it to a single dropped edge; redundant pairs rarely do,
    so the two groups want different thresholds. Needs no labels.
    """
    return 0 if counter.path_multiplicity(subject, obj) <= 1 else 1


def redundancy_grouping(counter: WalkCounter) -> GroupFn:
    """``redundancy_group`` bound to one graph, ready for ``calibrate(group_fn=...)``."""
    return lambda subject, obj: redundancy_group(counter, subject, obj)


class ConformalReasoner:
    """Accept a claim when its confidence reaches the threshold calibrated on true pairs."""

    def __init__(self, scorer: PairScorer, alpha: float = 0.1) -> None:
        _check_alpha(alpha)
        self.scorer = scorer
        self.alpha = alpha
        self.threshold: float | None = None
        self.group_thresholds: dict[Hashable, float] = {}
        self.group_fn: GroupFn | None = None

    def calibrate(
        self, true_pairs: Iterable[tuple[str, str]], group_fn: GroupFn | None = None
    ) -> float:
        """Set τ from pairs known to be true; with ``group_fn``, also one τ per group.

        Returns the global τ, which also serves any group unseen during calibration.
        """
        pairs = list(true_pairs)
        scores = [self.scorer.confidence(a, b) for a, b in pairs]
        self.threshold = conformal_threshold(scores, self.alpha)
        self.group_fn = group_fn
        self.group_thresholds = {}
        if group_fn is not None:
            by_group: dict[Hashable, list[float]] = {}
            for (a, b), score in zip(pairs, scores, strict=True):
                by_group.setdefault(group_fn(a, b), []).append(score)
            self.group_thresholds = {
                group: conformal_threshold(group_scores, self.alpha)
                for group, group_scores in by_group.items()
            }
        return self.threshold

    def threshold_for(self, subject: str, obj: str) -> float:
        """The τ that applies to this pair."""
        if self.threshold is None:
            raise InputError("call calibrate(true_pairs) before accept or predict_set")
        if self.group_fn is None:
            return self.threshold
        return self.group_thresholds.get(self.group_fn(subject, obj), self.threshold)

    def accept(self, subject: str, obj: str) -> bool:
        """Whether the pair's confidence reaches its threshold."""
        return self.scorer.confidence(subject, obj) >= self.threshold_for(subject, obj)

    def predict_set(self, subject: str, candidates: Iterable[str]) -> list[str]:
        """The candidates accepted as objects of subject, in the order given."""
        return [obj for obj in candidates if self.accept(subject, obj)]


class AdaptiveConformalReasoner:
    """A conformal threshold that keeps its coverage while the noise level drifts.

    After each confirmed true pair, the working level moves: αₜ ← αₜ + γ(α − errₜ),
    where errₜ is 1 if the pair was missed. Misses lower τ, long runs of hits raise it,
    and the long-run miss rate approaches α whatever the drift (Gibbs and Candès, 2021).
    τ is the ⌊αₜ(n+1)⌋-th smallest of the last ``window`` true-pair scores.
    """

    def __init__(
        self,
        scorer: PairScorer,
        alpha: float = 0.1,
        gamma: float = 0.05,
        window: int = 300,
        init_scores: Iterable[float] | None = None,
    ) -> None:
        _check_alpha(alpha)
        if not gamma > 0:
            raise InputError(f"gamma must be positive, got {gamma!r}")
        if window < 1:
            raise InputError(f"window must be at least 1, got {window!r}")
        self.scorer = scorer
        self.alpha = alpha
        self.gamma = gamma
        self.alpha_t = alpha
        self._window: deque[float] = deque(maxlen=window)
        if init_scores is not None:
            self._window.extend(float(s) for s in init_scores)
        self.n_seen = 0
        self.n_covered = 0

    @property
    def threshold(self) -> float:
        """The current τ (−inf while the window is too small to exclude anything)."""
        if not self._window:
            return -math.inf
        k = int(self.alpha_t * (len(self._window) + 1))
        if k < 1:
            return -math.inf
        ordered = sorted(self._window)
        return ordered[min(k, len(ordered)) - 1]

    def accept(self, subject: str, obj: str) -> bool:
        """Whether the pair's confidence reaches the current τ."""
        return self.scorer.confidence(subject, obj) >= self.threshold

    def update_score(self, score: float) -> bool:
        """Record the score of a newly confirmed true pair; returns whether τ covered it."""
        covered = score >= self.threshold
        self.n_seen += 1
        self.n_covered += covered
        error = 0.0 if covered else 1.0
        self.alpha_t = min(0.999, max(0.001, self.alpha_t + self.gamma * (self.alpha - error)))
        self._window.append(float(score))
        return covered

    def update(self, subject: str, obj: str) -> bool:
        """``update_score`` for a confirmed true pair, scored by the scorer."""
        return self.update_score(self.scorer.confidence(subject, obj))

    @property
    def empirical_coverage(self) -> float:
        """The share of updates τ covered so far (nan before the first update)."""
        return self.n_covered / self.n_seen if self.n_seen else math.nan
