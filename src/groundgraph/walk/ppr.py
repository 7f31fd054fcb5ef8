"""Personalized PageRank from the seeds: the walker for questions that need many hops.

Power iteration on the row-normalised adjacency, restarting at the seeds in proportion to
their scores: r ← (1 − d)·p + d·(r P), with the mass of nodes that have no edges sent
back to the seeds. It stops when the L1 change falls below ``tol``, after ``max_iter``
rounds, or at ``time_cap`` seconds, whichever comes first, and says which.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from groundgraph.model import EDGE_TYPES
from groundgraph.walk.dijkstra import (
    HUB_PREFIX,
    MAX_FANOUT,
    Arc,
    Reached,
    WalkParams,
    walk_from_seeds,
)
from groundgraph.walk.matrix import GraphMatrix


@dataclass(frozen=True)
class PPRParams:
    damping: float = 0.85
    tol: float = 1e-6
    max_iter: int = 100
    time_cap: float = 1.0


@dataclass(frozen=True)
class PPRResult:
    scores: npt.NDArray[np.float64]  # by matrix position
    iterations: int
    converged: bool
    timed_out: bool


def personalized_pagerank(
    matrix: GraphMatrix, seeds: Mapping[str, float], params: PPRParams | None = None
) -> PPRResult:
    """PageRank mass of every node, restarting at ``seeds`` (weighted by their scores)."""
    p = params or PPRParams()
    n = len(matrix)
    restart = restart_vector(matrix, seeds)
    total = restart.sum()
    if n == 0 or total <= 0:
        return PPRResult(np.zeros(n), 0, True, False)
    restart /= total
    transition_t, dangling = matrix.transition()
    rank = restart.copy()
    started = time.perf_counter()
    for iteration in range(1, p.max_iter + 1):
        leaked = rank[dangling].sum()
        new = (1 - p.damping) * restart + p.damping * (transition_t @ rank + leaked * restart)
        change = float(np.abs(new - rank).sum())
        rank = new
        if change < p.tol:
            return PPRResult(rank, iteration, True, False)
        if time.perf_counter() - started > p.time_cap:
            return PPRResult(rank, iteration, False, True)
    return PPRResult(rank, p.max_iter, False, False)


def explain_paths(
    matrix: GraphMatrix,
    seeds: Mapping[str, float],
    targets: Sequence[str],
    max_hops: int = 4,
    max_activated: int = 2000,
) -> dict[str, Reached]:
    """The strongest path (at most ``max_hops`` steps) from a seed to each target, if any."""
    ids = matrix.node_ids

    def neighbours(node_ids: Sequence[str], weakest: float) -> dict[str, list[Arc]]:
        found: dict[str, list[Arc]] = {}
        for node in node_ids:
            pos = matrix.position.get(node)
            if pos is None:
                found[node] = []
                continue
            start, end = int(matrix.indptr[pos]), int(matrix.indptr[pos + 1])
            if node.startswith(HUB_PREFIX) and end - start > MAX_FANOUT:
                found[node] = []  # too common to explain anything, as in the bounded walk
                continue
            vals = matrix.weight[start:end]
            heavy = start + np.flatnonzero(vals >= weakest)  # lighter ones cannot help
            found[node] = [
                Arc(ids[c], v, EDGE_TYPES[k - 1] if k > 0 else "unknown", False)
                for c, v, k in zip(
                    matrix.indices[heavy].tolist(),
                    matrix.weight[heavy].tolist(),
                    matrix.kind[heavy].tolist(),
                    strict=True,
                )
            ]
        return found

    params = WalkParams(max_hops=max_hops, damping=1.0, min_score=1e-9, max_activated=max_activated)
    wanted = set(targets)
    reached = walk_from_seeds(seeds, neighbours, params, targets=wanted, prefetch=False)
    return {node: hit for node, hit in reached.items() if node in wanted}


def restart_vector(matrix: GraphMatrix, seeds: Mapping[str, float]) -> npt.NDArray[np.float64]:
    """The seeds' positive scores by matrix position (not normalised); unknown seeds drop."""
    restart = np.zeros(len(matrix))
    for node, weight in seeds.items():
        pos = matrix.position.get(node)
        if pos is not None and weight > 0:
            restart[pos] += weight
    return restart
