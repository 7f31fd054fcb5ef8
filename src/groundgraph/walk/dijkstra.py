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
from typing import NamedTuple

import numpy as np

from groundgraph.model import PARENT_CHILD, Edge
from groundgraph.model.ids import ENTITY_PREFIX


class Arc(NamedTuple):
    """One way to leave a node: along ``edge`` to ``target`` (a tuple: a walk reads
    hundreds of them per query, and a tuple is the cheapest record to make)."""

    target: str
    weight: float
    type: str
    upward: bool  # a child-to-parent step over a parent-child edge


class Reached(NamedTuple):
    """The best path found to a node, and what it scored (a tuple, as :class:`Arc`: a
    walk settles up to ``max_activated`` of them per query)."""

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


#: The arcs out of each of these nodes. Arcs that weigh less than the second argument
#: cannot lead anywhere the walk keeps: a neighbour function may leave them out.
NeighbourFn = Callable[[Sequence[str], float], Mapping[str, Sequence[Arc]]]


HUB_PREFIX = ENTITY_PREFIX
HUB_DEGREE = 8
MAX_FANOUT = 64
#: A node (not an entity) that more edges than this point to gives no steps back along
#: them: the page that a thousand pages name (a document titled "string" or "list") says
#: nothing about any one of them, and walking back would pull them all in, tied, in the
#: order of their ids. (64 reads as few arcs on real text but moves more rankings on the
#: quality sets; 256 moves only MuSiQue's "United States" page, and bounds the cost.)
MAX_FAN_IN = 256
#: The walk fetches the arcs of at most this many nodes at once, the strongest waiting:
#: the weaker ones wait for a later batch, by when the bound may have risen enough to
#: leave them out (fewer, larger batches cost fewer queries but read more arcs).
BATCH = 16


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
    Any other node that more than MAX_FAN_IN of the links point to gives no steps back
    along them.
    """
    wanted = set(node_ids)
    links = [link for link in links if link[0] != link[1]]
    fan_in: dict[str, int] = {}
    for _, target, _, _ in links:
        if target in wanted:
            fan_in[target] = fan_in.get(target, 0) + 1
    steps = []
    for source, target, kind, weight in links:
        if source in wanted:
            steps.append((source, target, kind, weight, False))
        if target in wanted and (target.startswith(HUB_PREFIX) or fan_in[target] <= MAX_FAN_IN):
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
        if degree > HUB_DEGREE and node.startswith(HUB_PREFIX):
            if degree > MAX_FANOUT:
                continue
            weight *= math.sqrt(HUB_DEGREE / degree)
        arcs = out.get(node)
        if arcs is None:
            arcs = out[node] = []
        arcs.append(Arc(other, weight, kind, kind == PARENT_CHILD and bool(against)))
    return out


def step_score(score: float, arc: Arc, p: WalkParams) -> float:
    """The score of a path of ``score`` after one more step, along ``arc``."""
    return score * arc.weight * p.damping * (p.up_factor if arc.upward else 1.0)


def walk_from_seeds(
    seeds: Mapping[str, float],
    neighbours: NeighbourFn,
    params: WalkParams | None = None,
    targets: set[str] | None = None,
    prefetch: bool = True,
    bounded: bool = True,
) -> dict[str, Reached]:
    """Best path of at most ``max_hops`` steps to every node worth reaching.

    Seeds start at their own score with hops 0. Stops once ``max_activated`` distinct
    nodes are settled, best first, so the cap keeps the strongest nodes; with ``targets``
    it also stops once all of them are settled. Ties between equal scores are broken by
    node id, so the result is deterministic. ``prefetch`` asks ``neighbours`` for the
    arcs of the BATCH strongest waiting nodes that may still matter at once (one store
    query instead of many); turn it off when arcs are cheap to get one node at a time.

    ``bounded`` prunes by the score a path can still reach (see :class:`_Bound`): a path
    weaker than the ``max_activated``-th best score already known cannot be kept, and
    neither can anything it leads to, so it is not pushed, and a node none of whose steps
    could beat that score is never loaded; with ``targets``, neither can a path weaker
    than every target's best known score. The result is the same as without the bound.
    """
    waiting = None if targets is None else set(targets)
    p = params or WalkParams()
    loaded: dict[str, Sequence[Arc]] = {}
    # Heap of (-score, hops, node, path, types); paths are short (at most max_hops + 1).
    heap: list[tuple[float, int, str, tuple[str, ...], tuple[str, ...]]] = []
    best_at: dict[tuple[str, int], float] = {}
    bound = _Bound(p.max_activated if bounded else 0, p.min_score, targets if bounded else None)
    for node, score in sorted(seeds.items()):
        if score > 0:
            heap.append((-score, 0, node, (node,), ()))
            best_at[(node, 0)] = score
            bound.known(node, score)
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
            floor = bound.refresh()
            if score * p.damping < floor:
                continue  # no step (weight at most 1) can reach a score worth keeping
            _load(node, score, heap if prefetch else [], loaded, neighbours, p, floor)
        floor = bound.floor
        for arc in loaded[node]:
            # step_score, written out: a call per arc costs the walk a fifth of its time
            nxt = score * arc.weight * p.damping * (p.up_factor if arc.upward else 1.0)
            if nxt < floor:
                break  # arcs come strongest first: the rest are weaker still
            if arc.target in path:
                continue
            key = (arc.target, hops + 1)
            if best_at.get(key, 0.0) >= nxt:
                continue
            best_at[key] = nxt
            bound.known(arc.target, nxt)
            heapq.heappush(
                heap, (-nxt, hops + 1, arc.target, (*path, arc.target), (*types, arc.type))
            )
    return settled


class _Bound:
    """The weakest score a path can have and still matter: ``min_score``, the ``k``-th
    best score known for distinct nodes, or the weakest best score known for a target,
    whichever is highest.

    Every known score is that of a real path, so the ``k``-th best score the walk will
    settle is at least the ``k``-th best known one; the walk stops after ``k`` nodes, best
    first, so a path (and every extension of it: steps only weaken) strictly below that
    is never settled. Likewise, once every target has a known score, the walk stops (all
    targets settled) before any path weaker than all of them pops. ``k`` = 0 and no
    targets keep ``min_score`` alone (the unbounded walk). A stale floor is still a
    bound, so the ``k``-th best is recomputed only after ``k / 4`` new scores.
    """

    def __init__(self, k: int, min_score: float, targets: set[str] | None = None) -> None:
        self.k = k
        self.best: dict[str, float] = {}
        self.floor = min_score
        self.fresh = 0  # scores learnt since the floor was last computed
        self.targets = targets or set()
        self.reached: dict[str, float] = {}  # the best score known for each target

    def known(self, node: str, score: float) -> None:
        if self.k and score > self.best.get(node, 0.0):
            self.best[node] = score
            self.fresh += 1
        if node in self.targets and score > self.reached.get(node, 0.0):
            self.reached[node] = score

    def refresh(self) -> float:
        """Raise the floor to what the scores known now allow."""
        if self.k and len(self.best) >= self.k and self.fresh * 4 >= self.k:
            scores = np.fromiter(self.best.values(), float, len(self.best))
            kth = float(np.partition(scores, len(scores) - self.k)[len(scores) - self.k])
            self.floor = max(self.floor, kth)
            self.fresh = 0
        if self.targets and len(self.reached) == len(self.targets):
            self.floor = max(self.floor, min(self.reached.values()))
        return self.floor


def _load(
    node: str,
    score: float,
    heap: list[tuple[float, int, str, tuple[str, ...], tuple[str, ...]]],
    loaded: dict[str, Sequence[Arc]],
    neighbours: NeighbourFn,
    p: WalkParams,
    floor: float,
) -> None:
    # Fetch, in one call, the arcs of this node and of the strongest BATCH - 1 waiting
    # nodes that may still expand. A path below floor / damping cannot expand into
    # anything kept, and no path of the batch will be stronger than ``score`` (paths pop
    # best first), so an arc lighter than floor / (score · damping) is of no use to any.
    least = floor / p.damping
    strongest: dict[str, float] = {}
    for neg, hops, other, _, _ in heap:
        if hops < p.max_hops and other not in loaded and -neg >= least:
            strongest[other] = max(-neg, strongest.get(other, 0.0))
    strongest.pop(node, None)
    wanted = {node}
    if strongest:
        wanted.update(heapq.nlargest(BATCH - 1, strongest, key=strongest.__getitem__))
    # The quotient may round above a weight whose step lands exactly on the floor (0.153 /
    # 0.17 is 0.9000000000000001): ask a hair lower; the walk still checks every step.
    found = neighbours(sorted(wanted), floor / (score * p.damping) * (1 - 1e-9))
    up = p.up_factor

    def order(a: Arc) -> tuple[float, str, float, str]:
        # Strongest step first (the walk stops at the first too weak), then by target,
        # raw weight and type: a deterministic order for equal scores.
        return (-a.weight * up if a.upward else -a.weight, a.target, -a.weight, a.type)

    for name in wanted:
        loaded[name] = sorted(found.get(name, ()), key=order)
