"""Personalized PageRank by local push: the PageRank walker bounded by what the query
activates.

Power iteration (``walk.ppr``) touches every edge of the graph in every round. Push
(Andersen, Chung and Lang, 2006) keeps an estimate ``p`` and a residual ``r``, starting
with all the restart mass in ``r`` at the seeds; pushing a node moves ``(1 − d)`` of its
residual into its estimate and spreads the rest, ``d`` of it, over its steps in proportion
to their weights. Only nodes whose residual is at least ``eps`` per step are pushed, all
of them at once, round after round, so a round costs the steps of the nodes the query has
activated, not the size of the graph.

Every term is non-negative, so the estimate never exceeds the exact PageRank, and what
is missing is exactly the PageRank of the residual left over: at most its mass, which the
result reports. The estimate returned is ``p + (1 − d)·r``, still a lower bound (the
residual's own first step), so a node reached but never pushed still has a score.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from groundgraph.walk.matrix import GraphMatrix
from groundgraph.walk.ppr import restart_vector


@dataclass(frozen=True)
class PushParams:
    damping: float = 0.85
    eps: float = 1e-5  # the residual per step below which a node is not pushed
    max_rounds: int = 200
    time_cap: float = 1.0


@dataclass(frozen=True)
class PushResult:
    scores: npt.NDArray[np.float64]  # by matrix position; a lower bound of PageRank
    residual: float  # the mass not yet pushed: scores are within this of PageRank (L1)
    rounds: int
    pushed: int  # how many distinct nodes were pushed
    timed_out: bool


def local_pagerank(
    matrix: GraphMatrix, seeds: Mapping[str, float], params: PushParams | None = None
) -> PushResult:
    """PageRank mass near ``seeds`` (restarting there in proportion to their scores)."""
    p = params or PushParams()
    n = len(matrix)
    restart = restart_vector(matrix, seeds)
    total = restart.sum()
    if n == 0 or total <= 0:
        return PushResult(np.zeros(n), 0.0, 0, 0, False)
    restart /= total
    indptr, indices, share = matrix.step_shares()
    steps = np.diff(indptr)
    threshold = p.eps * np.maximum(steps, 1)
    estimate = np.zeros(n)
    residual = restart.copy()
    ever = np.zeros(n, dtype=bool)
    started = time.perf_counter()
    rounds = 0
    timed_out = False
    while rounds < p.max_rounds:
        active = np.flatnonzero(residual >= threshold)
        if not len(active):
            break
        rounds += 1
        ever[active] = True
        mass = residual[active]
        residual[active] = 0.0
        estimate[active] += (1 - p.damping) * mass
        counts = steps[active]
        # Every step of every active node, as positions into the CSR arrays.
        first = np.repeat(indptr[active] - np.cumsum(counts) + counts, counts)
        flat = first + np.arange(int(counts.sum()))
        spread = np.repeat(p.damping * mass, counts) * share[flat]
        residual += np.bincount(indices[flat], weights=spread, minlength=n)
        stuck = float(mass[counts == 0].sum())  # a node with no steps sends it home
        if stuck:
            residual += p.damping * stuck * restart
        if time.perf_counter() - started > p.time_cap:
            timed_out = True
            break
    left = float(residual.sum())
    scores = estimate + (1 - p.damping) * residual
    return PushResult(scores, left, rounds, int(ever.sum()), timed_out)
