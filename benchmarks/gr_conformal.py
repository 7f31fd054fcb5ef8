"""Grounded Reasoning's conformal experiments, theirs and ours on the same graphs.

1. Theorem K (``grounded_reasoning.theory.theorems.theorem_conformal_reasoning``): split
   conformal coverage and false-positive rate on random 45-node DAGs with dropped and
   spurious edges, 20 seeds per noise level.
2. ``experiments.redundancy_conformal_eval``: one global threshold against one per
   redundancy group (Mondrian), 60 seeds, two noise regimes.
3. ``experiments.drift_conformal_eval``: a frozen threshold against adaptive conformal
   inference while the drop rate moves from 0.05 to 0.45, 15 runs.

Their side is their own function. Our side rebuilds the very same graphs with their
generators (their engine's edge weights become a ``KatzScorer``), draws the same jitter
from the same seeded generators, and calibrates with our ``conformal_threshold``,
``ConformalReasoner``, ``redundancy_grouping`` and ``AdaptiveConformalReasoner``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from grounded_reasoning.experiments import drift_conformal_eval as their_drift
from grounded_reasoning.experiments import edge_pruning_eval as their_pruning
from grounded_reasoning.experiments import redundancy_conformal_eval as their_redundancy
from grounded_reasoning.theory.theorems import theorem_conformal_reasoning

from groundgraph.reason.relations import (
    AdaptiveConformalReasoner,
    ConformalReasoner,
    KatzScorer,
    conformal_threshold,
    redundancy_grouping,
)

WALK_LEN, KATZ_ALPHA = 12, 0.7  # the engine every one of these experiments builds
N_NODES = 45


@dataclass(frozen=True)
class Row:
    """One line of the table: a metric with the seed's, their package's and our figure."""

    experiment: str
    metric: str
    seed: str
    theirs: str
    ours: str


def pct(value: float) -> str:
    return f"{100 * value:.1f} %"


def scorer_from_engine(engine: Any) -> KatzScorer:
    """Our Katz scorer over their engine's weighted edges (repeated edges keep their weight)."""
    weights = {
        (str(a), str(b)): w for a, targets in engine._edges.items() for b, w in targets.items()
    }
    return KatzScorer(weights, alpha=KATZ_ALPHA, walk_len=WALK_LEN)


def scorer_from_weights(weights: Mapping[tuple[int, int], float]) -> KatzScorer:
    named = {(str(a), str(b)): w for (a, b), w in weights.items()}
    return KatzScorer(named, alpha=KATZ_ALPHA, walk_len=WALK_LEN)


class FixedScores:
    """A scorer reading pre-drawn (jittered) scores, so both sides rank the same numbers."""

    def __init__(self, scores: Mapping[tuple[int, int], float]) -> None:
        self._scores = scores

    def confidence(self, subject: str, obj: str) -> float:
        return self._scores[(int(subject), int(obj))]


# -- 1. Theorem K ---------------------------------------------------------------------


def theorem_k_weights(seed: int, p_drop: float, p_add: float) -> tuple[Any, KatzScorer]:
    """Theorem K's noisy graph for one seed, rebuilt from their DAG generator.

    ``build_true_dag`` makes the same edge set in the same insertion order as Theorem K's
    own builder (so the set iterates identically); the random draws it made are replayed
    so the drop and add draws that follow are Theorem K's own.
    """
    _, true_edges, truth = their_pruning.build_true_dag(seed, N_NODES)
    rng = random.Random(seed)
    for j in range(1, N_NODES):
        for _ in range(rng.randint(1, 2)):
            rng.randint(0, j - 1)
    weights: dict[tuple[int, int], float] = {}
    for edge in true_edges:  # Theorem K walks the set as it is, unsorted
        if rng.random() > p_drop:
            weights[edge] = weights.get(edge, 0.0) + 1.0
    for _ in range(int(p_add * len(true_edges))):
        a, b = rng.randint(0, N_NODES - 1), rng.randint(0, N_NODES - 1)
        if a != b:
            weights[(a, b)] = weights.get((a, b), 0.0) + 1.0
    return truth, scorer_from_weights(weights)


def our_theorem_k(p_drop: float, seeds: int = 20, alpha: float = 0.1) -> tuple[float, float]:
    """Mean coverage and false-positive rate, Theorem K's protocol through our code."""
    covs, fprs = [], []
    for sd in range(seeds):
        truth, scorer = theorem_k_weights(sd, p_drop, 0.3)
        rng = random.Random(1000 + sd)
        conf = scorer.confidence
        pos = [
            conf(str(x), str(b)) + rng.uniform(0, 1e-9) for x in range(N_NODES) for b in truth[x]
        ]
        neg = [
            conf(str(x), str(b)) + rng.uniform(0, 1e-9)
            for x in range(N_NODES)
            for b in range(N_NODES)
            if b != x and b not in truth[x] and conf(str(x), str(b)) > 0
        ]
        rng.shuffle(pos)
        half = len(pos) // 2
        cal, test = pos[:half], pos[half:]
        tau = conformal_threshold(cal, alpha)
        covs.append(sum(s >= tau for s in test) / len(test))
        fprs.append(sum(s >= tau for s in neg) / max(len(neg), 1))
    return sum(covs) / len(covs), sum(fprs) / len(fprs)


def theorem_k_rows(quick: bool) -> list[Row]:
    theirs = theorem_conformal_reasoning()  # fixed at 20 seeds: cheap enough for --quick
    clean, noisy = our_theorem_k(0.0), our_theorem_k(0.3)
    name = "1 conformal coverage (Thm K)"
    return [
        Row(
            name,
            "coverage, p_drop 0 / p_add 0.3",
            "≥ 90 %",
            pct(theirs["coverage_clean"]),
            pct(clean[0]),
        ),
        Row(
            name,
            "coverage, p_drop 0.3 / p_add 0.3",
            "≥ 90 %",
            pct(theirs["coverage_noisy"]),
            pct(noisy[0]),
        ),
        Row(
            name,
            "FPR, p_drop 0 / p_add 0.3",
            "grows with noise",
            pct(theirs["fpr_clean"]),
            pct(clean[1]),
        ),
        Row(
            name,
            "FPR, p_drop 0.3 / p_add 0.3",
            "grows with noise",
            pct(theirs["fpr_noisy"]),
            pct(noisy[1]),
        ),
    ]


# -- 2. Mondrian grouping by redundancy ------------------------------------------------


def our_redundancy_measure(
    seed: int, p_drop: float, p_add: float, alpha: float = 0.1
) -> dict[str, float]:
    """``redundancy_conformal_eval.measure`` through our reasoner on their graph."""
    _, truth, engine = their_redundancy.build(seed, p_drop, p_add, N_NODES)
    katz = scorer_from_engine(engine)
    rng = random.Random(1000 + seed)
    nodes = range(N_NODES)
    pos = [(x, b) for x in nodes for b in truth[x]]
    neg = [
        (x, b)
        for x in nodes
        for b in nodes
        if b != x and b not in truth[x] and katz.confidence(str(x), str(b)) > 0
    ]
    scores = {
        (x, b): katz.confidence(str(x), str(b)) + rng.uniform(0, 1e-9)
        for x in nodes
        for b in nodes
        if x != b
    }
    rng.shuffle(pos)
    half = len(pos) // 2
    cal = [(str(x), str(b)) for x, b in pos[:half]]
    test = [(str(x), str(b)) for x, b in pos[half:]]
    negatives = [(str(x), str(b)) for x, b in neg]
    out: dict[str, float] = {}
    for label, group_fn in (("global", None), ("grouped", redundancy_grouping(katz))):
        reasoner = ConformalReasoner(FixedScores(scores), alpha=alpha)
        reasoner.calibrate(cal, group_fn=group_fn)
        out[f"{label}_coverage"] = sum(reasoner.accept(a, b) for a, b in test) / len(test)
        out[f"{label}_fpr"] = sum(reasoner.accept(a, b) for a, b in negatives) / max(
            len(negatives), 1
        )
    return out


REDUNDANCY_SCENARIOS = {"drop-dominant": (0.2, 0.3), "spurious-dominant": (0.0, 0.3)}
SEED_REDUNDANCY = {
    ("drop-dominant", "global_fpr"): "98.7 %",
    ("drop-dominant", "grouped_fpr"): "80.8 %",
    ("drop-dominant", "global_coverage"): "≥ 90 %",
    ("drop-dominant", "grouped_coverage"): "≥ 90 %",
    ("spurious-dominant", "grouped_fpr"): "≈ global",
}


def redundancy_rows(quick: bool) -> list[Row]:
    seeds = 10 if quick else 60
    theirs = their_redundancy.run(n_seeds=seeds)
    their_by_name = {
        name: next(m for label, m in theirs.items() if label.startswith(name.split("-")[0]))
        for name in REDUNDANCY_SCENARIOS
    }
    rows = []
    for name, (p_drop, p_add) in REDUNDANCY_SCENARIOS.items():
        runs = [our_redundancy_measure(s, p_drop, p_add) for s in range(seeds)]
        ours = {k: sum(r[k] for r in runs) / len(runs) for k in runs[0]}
        for key in ("global_coverage", "grouped_coverage", "global_fpr", "grouped_fpr"):
            rows.append(
                Row(
                    f"2 Mondrian by redundancy ({seeds} seeds)",
                    f"{name} (p_drop {p_drop}, p_add {p_add}): {key.replace('_', ' ')}",
                    SEED_REDUNDANCY.get((name, key), "—"),
                    pct(their_by_name[name][key]),
                    pct(ours[key]),
                )
            )
    return rows


# -- 3. adaptive conformal under drift -------------------------------------------------


def our_true_pair_scores(seed: int, p_drop: float, jit_seed: int) -> list[float]:
    """Their drift world at one noise level; our scores for its true pairs, jittered alike."""
    _, truth, engine = their_drift.build(seed, p_drop, N_NODES)
    katz = scorer_from_engine(engine)
    rng = random.Random(jit_seed)
    scores = [
        katz.confidence(str(x), str(b)) + rng.uniform(0, 1e-9)
        for x in range(N_NODES)
        for b in truth[x]
    ]
    rng.shuffle(scores)
    return scores


def our_drift_run(
    run_seed: int,
    alpha: float = 0.1,
    n_batches: int = 40,
    batch_size: int = 30,
    gamma: float = 0.05,
) -> dict[str, float]:
    """``drift_conformal_eval.run`` through our threshold and our adaptive reasoner."""
    half = n_batches // 2
    base = run_seed * 100_000
    init = our_true_pair_scores(base, 0.05, base + 1)[:batch_size]
    tau_static = conformal_threshold(init, alpha)
    adaptive = AdaptiveConformalReasoner(
        FixedScores({}), alpha=alpha, gamma=gamma, init_scores=init
    )
    static_cov, adaptive_cov = [], []
    for i in range(n_batches):
        p_drop = 0.05 if i < half else 0.45
        batch = our_true_pair_scores(base + i + 2, p_drop, base + i + 9000)[:batch_size]
        static_cov.append(sum(s >= tau_static for s in batch) / len(batch))
        adaptive_cov.append(sum(adaptive.update_score(s) for s in batch) / len(batch))
    return {
        "static_pre_shift": sum(static_cov[:half]) / half,
        "static_post_shift": sum(static_cov[half:]) / (n_batches - half),
        "adaptive_pre_shift": sum(adaptive_cov[:half]) / half,
        "adaptive_post_shift": sum(adaptive_cov[half:]) / (n_batches - half),
    }


def drift_rows(quick: bool) -> list[Row]:
    trials = 5 if quick else 15
    theirs = [their_drift.run(run_seed=t) for t in range(trials)]
    ours = [our_drift_run(t) for t in range(trials)]

    def mean(runs: list[dict[str, float]], key: str) -> str:
        return pct(sum(r[key] for r in runs) / len(runs))

    def wins(runs: list[dict[str, float]]) -> str:
        won = sum(r["adaptive_post_shift"] > r["static_post_shift"] for r in runs)
        return f"{won} of {len(runs)}"

    name = f"3 adaptive conformal, drift ({trials} runs)"
    seed_figures = {
        "static_pre_shift": "88.6 %",
        "static_post_shift": "47.6 %",
        "adaptive_pre_shift": "—",
        "adaptive_post_shift": "89.6 %",
    }
    rows = [
        Row(name, f"coverage {key.replace('_', ' ')}", fig, mean(theirs, key), mean(ours, key))
        for key, fig in seed_figures.items()
    ]
    rows.append(
        Row(name, "runs adaptive > fixed after the shift", "15 of 15", wins(theirs), wins(ours))
    )
    return rows
