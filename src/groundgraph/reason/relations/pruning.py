"""Edge pruning from held-out evidence: drop extracted edges that only ever prove false claims.

A decision rule, not a guarantee. An edge is suspect when it lies on the proof path of at
least ``min_evidence`` held-out claims labelled false and on the proof of no claim labelled
true. Removing suspects lowers the false-positive rate of claims on the remaining graph, at
the cost of any true claim that needed the removed edge. ``identify_and_prune_edges`` uses
the conservative setting (85% of the labels to identify, 2 pieces of evidence), which
wrongly removes far fewer true edges than (50%, 1).

``use_propagation`` makes the rule hub-aware: once one edge into a node is suspect on its
own evidence, that node attracts invented edges, so its other incoming edges with no true
proof need only ``propagated_min_evidence`` false proofs (Grounded Reasoning's
``identify_suspect_edges_propagated``). It changes nothing when no edge reaches
``min_evidence`` by itself, as when every claim was checked once.

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
    alpha: float = 0.6,
    min_evidence: int = 1,
    use_propagation: bool = False,
    propagated_min_evidence: int = 1,
) -> list[Edge]:
    """Edges on the proofs of ≥ min_evidence false claims and of no true claim, in edge order.

    A claim's proof is its shortest path (at most walk_len edges), as ``verify`` finds it;
    ``alpha`` is taken for Grounded Reasoning's signature and does not change a shortest
    path. With ``use_propagation``, an edge into the target of a suspect edge needs only
    ``propagated_min_evidence`` false proofs (and still no true one).
    """
    edge_list = _check_edges(edges)
    _check_alpha(alpha)
    need = _check_evidence("min_evidence", min_evidence)
    need_near_hub = _check_evidence("propagated_min_evidence", propagated_min_evidence)
    if not isinstance(use_propagation, bool):
        raise InputError(f"use_propagation must be True or False, not {use_propagation!r}")
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
    candidates = {edge: n for edge, n in false_evidence.items() if edge not in protected}
    suspects = {edge for edge, count in candidates.items() if count >= need}
    if use_propagation:
        # The targets of edges suspect on their own evidence draw invented edges.
        magnets = {target for _, target in suspects}
        suspects |= {
            edge
            for edge, count in candidates.items()
            if edge[1] in magnets and count >= need_near_hub
        }
    return [edge for edge in dict.fromkeys(edge_list) if edge in suspects]


def _check_evidence(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{name} must be a whole number >= 1, not {value!r}")
    return value


def _check_alpha(alpha: object) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1:
        raise InputError(f"alpha must be a number between 0 and 1, not {alpha!r}")
    return float(alpha)


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
    alpha: float = 0.6,
    seed: int | None = 0,
    use_propagation: bool = False,
    propagated_min_evidence: int = 1,
) -> PruneResult:
    """Split the labels (seeded shuffle), find suspects on one part, prune them.

    ``identify_frac`` of the labelled pairs identify suspects; the rest come back as
    ``reserved`` so the pruned graph can be evaluated, or calibrated, on labels it has
    not seen. The defaults (0.85, 2) are the setting Grounded Reasoning recommends;
    ``use_propagation`` and ``propagated_min_evidence`` are passed to
    :func:`identify_suspect_edges`. ``seed`` None draws a fresh split each call.
    """
    if isinstance(identify_frac, bool) or not isinstance(identify_frac, int | float):
        raise InputError(f"identify_frac must be a number in (0, 1], got {identify_frac!r}")
    if not 0.0 < identify_frac <= 1.0:
        raise InputError(f"identify_frac must be in (0, 1], got {identify_frac!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InputError(f"seed must be a whole number or None, not {seed!r}")
    edge_list = _check_edges(edges)
    pairs = check_labeled_pairs(labeled_pairs)
    order = np.random.default_rng(seed).permutation(len(pairs))
    cut = round(identify_frac * len(pairs))
    identify = [pairs[i] for i in order[:cut]]
    reserved = [pairs[i] for i in order[cut:]]
    blocked = identify_suspect_edges(
        edge_list,
        identify,
        walk_len,
        alpha,
        min_evidence,
        use_propagation,
        propagated_min_evidence,
    )
    return PruneResult(prune_edges(edge_list, blocked), blocked, reserved)
