"""Shortest paths between two nodes, for bridges: every path of fewest hops first.

Breadth-first over simple paths, one layer of the frontier at a time (each layer's edges
come from one call to ``neighbours``), so the first paths found are the shortest. Among
paths of equal length the stronger (product of edge weights) comes first, then by ids.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from groundgraph.model import Edge

EdgeFn = Callable[[Sequence[str]], Mapping[str, Sequence[Edge]]]


@dataclass(frozen=True)
class Step:
    """One hop of a path: the edge and the node it arrives at."""

    edge: Edge
    arrive: str

    @property
    def leave(self) -> str:
        return self.edge.source if self.arrive == self.edge.target else self.edge.target


def shortest_paths(
    start: str,
    goal: str,
    neighbours: EdgeFn,
    max_hops: int = 3,
    k: int = 3,
    max_paths: int = 20_000,
) -> list[tuple[Step, ...]]:
    """Up to ``k`` simple paths from ``start`` to ``goal`` of at most ``max_hops`` steps."""
    if start == goal or k < 1:
        return []
    found: list[tuple[Step, ...]] = []
    frontier: list[tuple[tuple[str, ...], tuple[Step, ...]]] = [((start,), ())]
    for _ in range(max_hops):
        ends = sorted({nodes[-1] for nodes, _ in frontier})
        edges = neighbours(ends)
        grown: list[tuple[tuple[str, ...], tuple[Step, ...]]] = []
        for nodes, steps in frontier:
            for edge in edges.get(nodes[-1], ()):
                if edge.invalid_at is not None:
                    continue
                other = edge.target if edge.source == nodes[-1] else edge.source
                if other in nodes:
                    continue
                path = (*steps, Step(edge, other))
                if other == goal:
                    found.append(path)
                else:
                    grown.append(((*nodes, other), path))
        if len(found) >= k:
            break
        frontier = grown[:max_paths]
        if not frontier:
            break
    found.sort(key=lambda p: (len(p), -_strength(p), [s.arrive for s in p]))
    unique: list[tuple[Step, ...]] = []
    seen: set[tuple[str, ...]] = set()
    for path in found:
        key = tuple(s.arrive for s in path)
        if key not in seen:
            seen.add(key)
            unique.append(path)
    return unique[:k]


def _strength(path: tuple[Step, ...]) -> float:
    return math.prod(step.edge.weight for step in path)
