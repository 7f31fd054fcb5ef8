"""Conformal thresholds: the coverage promise on synthetic noisy graphs, groups, drift."""

from __future__ import annotations

import math

import numpy as np
import pytest

from groundgraph.errors import InputError
from groundgraph.reason.relations import (
    AdaptiveConformalReasoner,
    ConformalReasoner,
    KatzScorer,
    conformal_threshold,
    redundancy_group,
    redundancy_grouping,
)


def test_threshold_is_the_floor_alpha_n_plus_one_th_smallest() -> None:
    scores = [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8, 0.4, 0.6, 1.0]
    assert conformal_threshold(scores, 0.1) == 0.1  # floor(0.1 * 11) = 1
    assert conformal_threshold(scores, 0.25) == 0.2  # floor(2.75) = 2
    assert conformal_threshold(scores, 0.05) == -math.inf  # floor(0.55) = 0
    assert conformal_threshold([0.5], 0.6) == 0.5  # k = 1, capped at n


def test_threshold_needs_scores_and_a_level() -> None:
    with pytest.raises(InputError, match="at least one"):
        conformal_threshold([], 0.1)
    with pytest.raises(InputError, match="alpha"):
        conformal_threshold([0.1], 1.0)


def noisy_tree(
    rng: np.random.Generator, n: int = 80, p_drop: float = 0.2, n_spurious: int = 10
) -> tuple[KatzScorer, list[tuple[str, str]], list[tuple[str, str]]]:
    """A true is_a tree, an extraction of it that drops and invents edges, and the truth."""
    parent = {i: int(rng.integers(0, i)) for i in range(1, n)}
    true_pairs = []
    for child in range(1, n):
        node = child
        while node in parent:
            node = parent[node]
            true_pairs.append((f"n{child}", f"n{node}"))
    edges = {(f"n{c}", f"n{p}"): 1.0 for c, p in parent.items() if rng.random() >= p_drop}
    truth = set(true_pairs)
    for _ in range(n_spurious):
        a, b = rng.integers(0, n, size=2)
        edges.setdefault((f"n{a}", f"n{b}"), 1.0)
    false_pairs = [
        (f"n{a}", f"n{b}") for a in range(n) for b in range(n) if (f"n{a}", f"n{b}") not in truth
    ]
    return KatzScorer(edges), true_pairs, false_pairs


def split(rng: np.random.Generator, pairs: list[tuple[str, str]]) -> tuple[list, list]:
    order = rng.permutation(len(pairs))
    half = len(pairs) // 2
    return [pairs[i] for i in order[:half]], [pairs[i] for i in order[half:]]


@pytest.mark.parametrize(("p_drop", "n_spurious"), [(0.0, 10), (0.03, 10), (0.1, 20)])
def test_split_conformal_covers_true_pairs_on_noisy_graphs(p_drop: float, n_spurious: int) -> None:
    """Over many noisy graphs, the share of held-out true pairs accepted is ≥ 1 − α − 0.02."""
    rng = np.random.default_rng(7)
    coverages, positive = [], 0
    for _ in range(40):
        scorer, true_pairs, _ = noisy_tree(rng, p_drop=p_drop, n_spurious=n_spurious)
        calibration, test = split(rng, true_pairs)
        reasoner = ConformalReasoner(scorer, alpha=0.1)
        positive += reasoner.calibrate(calibration) > 0
        coverages.append(np.mean([reasoner.accept(a, b) for a, b in test]))
    assert np.mean(coverages) >= 0.9 - 0.02
    assert np.quantile(coverages, 0.1) >= 0.8
    if p_drop == 0.0:  # every true pair is connected: τ really excludes something
        assert positive == 40 and np.mean(coverages) < 0.95


def test_conformal_accepts_fewer_false_pairs_than_true_ones() -> None:
    rng = np.random.default_rng(3)
    scorer, true_pairs, false_pairs = noisy_tree(rng, p_drop=0.05, n_spurious=5)
    reasoner = ConformalReasoner(scorer, alpha=0.2)
    calibration, test = split(rng, true_pairs)
    reasoner.calibrate(calibration)
    true_rate = np.mean([reasoner.accept(a, b) for a, b in test])
    false_rate = np.mean([reasoner.accept(a, b) for a, b in false_pairs])
    assert true_rate > 0.75 and false_rate < 0.2


def test_group_thresholds_cover_each_group() -> None:
    rng = np.random.default_rng(11)
    per_group: dict[int, list[float]] = {0: [], 1: []}
    for _ in range(30):
        scorer, true_pairs, _ = noisy_tree(rng, n=60, p_drop=0.15, n_spurious=30)
        calibration, test = split(rng, true_pairs)
        reasoner = ConformalReasoner(scorer, alpha=0.1)
        reasoner.calibrate(calibration, group_fn=redundancy_grouping(scorer))
        for group in (0, 1):
            members = [(a, b) for a, b in test if redundancy_group(scorer, a, b) == group]
            if members:
                per_group[group].append(np.mean([reasoner.accept(a, b) for a, b in members]))
    for coverages in per_group.values():
        assert np.mean(coverages) >= 0.9 - 0.03


def test_groups_fall_back_to_the_global_threshold() -> None:
    scorer = KatzScorer({("a", "b"): 1.0, ("b", "c"): 1.0, ("a", "c"): 1.0})
    reasoner = ConformalReasoner(scorer, alpha=0.5)
    tau = reasoner.calibrate([("a", "b"), ("a", "c")], group_fn=lambda a, b: a)
    assert reasoner.threshold_for("z", "q") == tau
    assert reasoner.predict_set("a", ["b", "c", "q"]) == ["b", "c"]


def test_accept_needs_calibration() -> None:
    with pytest.raises(InputError, match="calibrate"):
        ConformalReasoner(KatzScorer({("a", "b"): 1.0})).accept("a", "b")


def test_redundancy_group_counts_walks() -> None:
    scorer = KatzScorer({("a", "b"): 1.0, ("b", "c"): 1.0, ("a", "c"): 1.0})
    assert redundancy_group(scorer, "a", "b") == 0  # one walk
    assert redundancy_group(scorer, "a", "c") == 1  # a→c and a→b→c


def test_aci_recovers_coverage_after_a_drift() -> None:
    """True-pair scores drop halfway (edges lost): ACI keeps ≈ 1 − α, a fixed τ does not."""
    rng = np.random.default_rng(5)
    before = rng.uniform(0.5, 1.0, size=600)
    after = rng.uniform(0.0, 0.6, size=1200)
    fixed_tau = conformal_threshold(before[:300].tolist(), 0.1)
    aci = AdaptiveConformalReasoner(
        KatzScorer({("a", "b"): 1.0}), alpha=0.1, init_scores=before[:300]
    )
    for score in before[300:]:
        aci.update_score(float(score))
    covered_after = [aci.update_score(float(score)) for score in after]
    assert np.mean(after >= fixed_tau) < 0.5
    assert np.mean(covered_after[600:]) >= 0.9 - 0.03
    assert aci.empirical_coverage >= 0.85


def test_aci_on_graphs_whose_noise_drifts() -> None:
    rng = np.random.default_rng(9)
    stream = []
    for p_drop in [0.05] * 6 + [0.45] * 12:
        scorer, true_pairs, _ = noisy_tree(rng, n=40, p_drop=p_drop, n_spurious=0)
        picks = rng.choice(len(true_pairs), size=40, replace=False)
        stream += [scorer.confidence(*true_pairs[i]) for i in picks]
    warmup = stream[:120]
    aci = AdaptiveConformalReasoner(KatzScorer({("a", "b"): 1.0}), alpha=0.1, init_scores=warmup)
    fixed_tau = conformal_threshold(warmup, 0.1)
    drifted = stream[240:]
    covered = [aci.update_score(s) for s in stream[120:]]
    assert np.mean([s >= fixed_tau for s in drifted]) < 0.85
    assert np.mean(covered[-240:]) >= 0.9 - 0.04


def test_aci_update_scores_the_pair() -> None:
    scorer = KatzScorer({("a", "b"): 1.0})
    aci = AdaptiveConformalReasoner(scorer, alpha=0.1)
    assert math.isnan(aci.empirical_coverage)
    assert aci.threshold == -math.inf
    assert aci.update("a", "b") is True
    assert aci.accept("a", "b")
    assert aci.n_seen == 1 and aci.empirical_coverage == 1.0


@pytest.mark.parametrize("kwargs", [{"gamma": 0.0}, {"window": 0}, {"alpha": 0.0}])
def test_aci_parameters_are_checked(kwargs: dict[str, float]) -> None:
    with pytest.raises(InputError):
        AdaptiveConformalReasoner(KatzScorer({("a", "b"): 1.0}), **kwargs)  # type: ignore[arg-type]
