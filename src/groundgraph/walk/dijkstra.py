"""Bounded best-first walk from seed nodes: the graph half of every search score.

A step along an edge multiplies the score by ``weight × damping`` (and by ``up_factor``
when it climbs from a child to its parent); paths below ``min_score`` stop, and no path
has more than ``max_hops`` steps. Because every factor is at most 1, this is Dijkstra on
−log(weight), run over (node, hops) states so that the hop bound is exact: a node first
reached cheaply at its last hop is still expanded from a shorter, weaker path.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from groundgraph.model import PARENT_CHILD, Edge
from groundgraph.model.ids import ENTITY_PREFIX


@dataclass(frozen=True, slots=True)
class Arc:
    """One way to leave a node: along ``edge`` to ``target``."""

    target: str
    weight: float
    type: str
    upward: bool  # a child-to-parent step over a parent-child edge


@dataclass(frozen=True, slots=True)
class Reached:
    """The best path found to a node, and what it scored."""

    node_id: str
    score: float
    hops: int
    path: tuple[str, ...]
    edge_types: tuple[str, ...]

    @property
    def via(self) -> str | None:
        return self.path[-2] if len(self.path) > 1 else None

    @property
    def edge_type(self) -> str | None:
        return self.edge_types[-1] if self.edge_types else None


@dataclass(frozen=True)
class WalkParams:
    max_hops: int = 2
    damping: float = 0.85
    min_score: float = 0.1
    max_activated: int = 200
    up_factor: float = 0.5


NeighbourFn = Callable[[Sequence[str]], Mapping[str, Sequence[Arc]]]


HUB_PREFIX = ENTITY_PREFIX
HUB_DEGREE = 8
MAX_FANOUT = 64


def arcs_from_edges(edges: Iterable[Edge], node_ids: Iterable[str]) -> dict[str, list[Arc]]:
    """Both directions of every valid edge record (see :func:`arcs_from_links`)."""
    links = [(e.source, e.target, e.type, e.weight) for e in edges if e.invalid_at is None]
    return arcs_from_links(links, node_ids)


def arcs_from_links(
    links: Iterable[tuple[str, str, str, float]], node_ids: Iterable[str]
) -> dict[str, list[Arc]]:
    """Both directions of every valid edge, grouped by the node in ``node_ids`` they leave.

    Steps out of an entity node are damped by ``sqrt(HUB_DEGREE / degree)`` once it has
    more than HUB_DEGREE edges, and an entity with more than MAX_FANOUT edges gives none:
    a name that half the corpus mentions must not pull half the corpus into every answer.
    """
    wanted = set(node_ids)
    steps = []
    for source, target, kind, weight in links:
        if source == target:
            continue
        if source in wanted:
            steps.append((source, target, kind, weight, False))
        if target in wanted:
            steps.append((target, source, kind, weight, True))
    degree: dict[str, int] = {}
    for node, *_ in steps:
        degree[node] = degree.get(node, 0) + 1
    return arcs_from_steps([(*s, degree[s[0]]) for s in steps], wanted)


def arcs_from_steps(
    steps: Iterable[tuple[str, str, str, float, bool, int]], node_ids: Iterable[str]
) -> dict[str, list[Arc]]:
    """Arcs from (node, other, type, weight, against direction, node degree) steps.

    A step against a parent-child edge climbs to the parent. Steps out of an entity with
    more than HUB_DEGREE edges are damped by sqrt(HUB_DEGREE / degree); an entity with
    more than MAX_FANOUT edges is too common to say anything and gives no steps.
    """
    out: dict[str, list[Arc]] = {n: [] for n in node_ids}
    for node, other, kind, weight, against, degree in steps:
        if node.startswith(HUB_PREFIX) and degree > HUB_DEGREE:
            if degree > MAX_FANOUT:
                continue
            weight *= math.sqrt(HUB_DEGREE / degree)
        out.setdefault(node, []).append(Arc(other, weight, kind, against and kind == PARENT_CHILD))
    return out


def walk_from_seeds(
    seeds: Mapping[str, float],
    neighbours: NeighbourFn,
    params: WalkParams | None = None,
    targets: set[str] | None = None,
    prefetch: bool = True,
) -> dict[str, Reached]:
    """Best path of at most ``max_hops`` steps to every node worth reaching.

    Seeds start at their own score with hops 0. Stops once ``max_activated`` distinct
    nodes are settled, best first, so the cap keeps the strongest nodes; with ``targets``
    it also stops once all of them are settled. Ties between equal scores are broken by
    node id, so the result is deterministic. ``prefetch`` asks ``neighbours`` for every
    waiting node at once (one store query instead of many); turn it off when arcs are
    cheap to get one node at a time.
    """
    waiting = None if targets is None else set(targets)
    p = params or WalkParams()
    loaded: dict[str, Sequence[Arc]] = {}
    # Heap of (-score, hops, node, path, types); paths are short (at most max_hops + 1).
    heap: list[tuple[float, int, str, tuple[str, ...], tuple[str, ...]]] = []
    best_at: dict[tuple[str, int], float] = {}
    for node, score in sorted(seeds.items()):
        if score > 0:
            heap.append((-score, 0, node, (node,), ()))
            best_at[(node, 0)] = score
    heapq.heapify(heap)
    settled: dict[str, Reached] = {}
    # For each node, the fewest hops among its settled states: a later state with
    # more hops and a lower score can never do better, so it is skipped.
    fewest_hops: dict[str, int] = {}
    while heap and len(settled) < p.max_activated:
        neg, hops, node, path, types = heapq.heappop(heap)
        score = -neg
        if best_at.get((node, hops), 0.0) > score:
            continue
        known = fewest_hops.get(node)
        if known is not None and known <= hops:
            continue
        fewest_hops[node] = hops
        if node not in settled:
            settled[node] = Reached(node, score, hops, path, types)
            if waiting is not None:
                waiting.discard(node)
                if not waiting:
                    break
        if hops >= p.max_hops:
            continue
        if node not in loaded:
            _load(node, heap if prefetch else [], loaded, neighbours, p.max_hops)
        for arc in loaded[node]:
            if arc.target in path:
                continue
            step = arc.weight * p.damping * (p.up_factor if arc.upward else 1.0)
            nxt = score * step
            if nxt < p.min_score:
                continue
            key = (arc.target, hops + 1)
            if best_at.get(key, 0.0) >= nxt:
                continue
            best_at[key] = nxt
            heapq.heappush(
                heap, (-nxt, hops + 1, arc.target, (*path, arc.target), (*types, arc.type))
            )
    return settled


def _load(
    node: str,
    heap: list[tuple[float, int, str, tuple[str, ...], tuple[str, ...]]],
    loaded: dict[str, Sequence[Arc]],
    neighbours: NeighbourFn,
    max_hops: int,
) -> None:
    # Fetch the arcs of every waiting node that may still expand, in one call.
    wanted = {node}
    for _, hops, other, _, _ in heap:
        if hops < max_hops and other not in loaded:
            wanted.add(other)
    found = neighbours(sorted(wanted))
    for name in wanted:
        arcs = found.get(name, ())
        # Strongest first, then by id: a deterministic order for equal scores.
        loaded[name] = sorted(arcs, key=lambda a: (-a.weight, a.target, a.type))
