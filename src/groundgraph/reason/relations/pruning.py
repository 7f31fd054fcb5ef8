"""Edge pruning from held-out evidence: drop extracted edges that only ever prove false claims.

A decision rule, not a guarantee. An edge is suspect when it lies on the proof path of at
least ``min_evidence`` held-out claims labelled false and on the proof of no claim labelled
true. Removing suspects lowers the false-positive rate of claims on the remaining graph, at
the cost of any true claim that needed the removed edge. ``identify_and_prune_edges`` uses
the conservative setting (85% of the labels to identify, 2 pieces of evidence), which
wrongly removes far fewer true edges than (50%, 1).

After pruning, score with ``masked_infer``: it divides each node's edge weights by the
node's degree *before* pruning, so a removed edge takes its share of confidence with it
instead of handing it to the node's remaining edges.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Sequence
from typing import NamedTuple

import numpy as np

from groundgraph.errors import InputError
from groundgraph.reason.relations.calibrate import LabeledPair, check_labeled_pairs
from groundgraph.reason.relations.katz import KatzScorer
from groundgraph.reason.relations.paths import shortest_path

Edge = tuple[str, str]


class PruneResult(NamedTuple):
    """What ``identify_and_prune_edges`` kept, removed and left unused for evaluation."""

    edges: list[Edge]
    blocked: list[Edge]
    reserved: list[LabeledPair]


def _adjacency(edges: Iterable[Edge]) -> dict[str, list[str]]:
    adjacency: dict[str, dict[str, None]] = {}
    for a, b in edges:
        adjacency.setdefault(a, {})[b] = None
    return {node: list(targets) for node, targets in adjacency.items()}


def _check_edges(edges: Iterable[Sequence[str]]) -> list[Edge]:
    checked: list[Edge] = []
    for i, edge in enumerate(edges):
        if isinstance(edge, str) or len(edge) != 2 or not all(isinstance(x, str) for x in edge):
            raise InputError(f"edge #{i} must be a (source, target) pair of strings, got {edge!r}")
        checked.append((edge[0], edge[1]))
    return checked


def identify_suspect_edges(
    edges: Iterable[Sequence[str]],
    labeled_pairs: Iterable[Sequence[object]],
    walk_len: int = 8,
    min_evidence: int = 1,
) -> list[Edge]:
    """Edges on the proofs of ≥ min_evidence false claims and of no true claim, in edge order.

    A claim's proof is its shortest path (at most walk_len edges), as ``verify`` finds it.
    """
    edge_list = _check_edges(edges)
    adjacency = _adjacency(edge_list)
    false_evidence: dict[Edge, int] = {}
    protected: set[Edge] = set()
    for a, b, label in check_labeled_pairs(labeled_pairs):
        path = shortest_path(a, b, lambda node: adjacency.get(node, ()), max_len=walk_len)
        if path is None:
            continue
        for edge in itertools.pairwise(path):
            if label:
                protected.add(edge)
            else:
                false_evidence[edge] = false_evidence.get(edge, 0) + 1
    suspects = {
        edge
        for edge, count in false_evidence.items()
        if count >= min_evidence and edge not in protected
    }
    return [edge for edge in dict.fromkeys(edge_list) if edge in suspects]


def prune_edges(edges: Iterable[Sequence[str]], blocked: Collection[Edge]) -> list[Edge]:
    """The edges minus the blocked ones (a new list; the input is left alone)."""
    block = set(blocked)
    return [edge for edge in _check_edges(edges) if edge not in block]


def masked_infer(
    edges: Iterable[Sequence[str]],
    blocked: Collection[Edge] = (),
    walk_len: int = 8,
    alpha: float = 0.6,
) -> KatzScorer:
    """Katz confidences on the edges minus ``blocked``, normalised by the unpruned degree."""
    edge_list = _check_edges(edges)
    degree: dict[str, float] = {}
    for a, _ in dict.fromkeys(edge_list):
        degree[a] = degree.get(a, 0.0) + 1.0
    block = set(blocked)
    kept = {edge: 1.0 for edge in edge_list if edge not in block}
    return KatzScorer(kept, alpha=alpha, walk_len=walk_len, degree=degree)


def identify_and_prune_edges(
    edges: Iterable[Sequence[str]],
    labeled_pairs: Iterable[Sequence[object]],
    identify_frac: float = 0.85,
    min_evidence: int = 2,
    walk_len: int = 8,
    seed: int = 0,
) -> PruneResult:
    """Split the labels (seeded shuffle), find suspects on one part, prune them.

    ``identify_frac`` of the labelled pairs identify suspects; the rest come back as
    ``reserved`` so the pruned graph can be evaluated, or calibrated, on labels it has
    not seen.
    """
    if not 0.0 < identify_frac <= 1.0:
        raise InputError(f"identify_frac must be in (0, 1], got {identify_frac!r}")
    edge_list = _check_edges(edges)
    pairs = check_labeled_pairs(labeled_pairs)
    order = np.random.default_rng(seed).permutation(len(pairs))
    cut = round(identify_frac * len(pairs))
    identify = [pairs[i] for i in order[:cut]]
    reserved = [pairs[i] for i in order[cut:]]
    blocked = identify_suspect_edges(edge_list, identify, walk_len, min_evidence)
    return PruneResult(prune_edges(edge_list, blocked), blocked, reserved)
