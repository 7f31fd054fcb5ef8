"""A document's edges, at most one per pair of nodes.

The precedence rule of the seed system (``reference/seeds.md`` §1.5): an edge between a
pair that already has one of at least the same weight is dropped; a stronger one replaces
the weaker, except that an existing parent-child edge keeps its type and direction and
only takes the higher weight.
"""

from __future__ import annotations

from dataclasses import replace

from groundgraph.records import EDGE_WEIGHTS, PARENT_CHILD, Edge


class EdgeSet:
    """Edges keyed by their unordered pair of nodes, in the order pairs were first linked."""

    def __init__(self) -> None:
        self._edges: dict[tuple[str, str], Edge] = {}

    def link(self, source: str, target: str, edge_type: str) -> None:
        """Link ``source`` → ``target`` with the default weight of ``edge_type``."""
        if source == target:
            return
        weight = EDGE_WEIGHTS[edge_type]
        key = (source, target) if source < target else (target, source)
        old = self._edges.get(key)
        if old is not None and old.weight >= weight:
            return
        if old is not None and old.type == PARENT_CHILD:
            self._edges[key] = replace(old, weight=weight)
            return
        self._edges[key] = Edge(source, target, edge_type, weight, sources=(source,))

    def between(self, a: str, b: str) -> Edge | None:
        """The edge between ``a`` and ``b`` in either direction, if any."""
        return self._edges.get((a, b) if a < b else (b, a))

    def __len__(self) -> int:
        return len(self._edges)

    def to_list(self) -> list[Edge]:
        """The edges, in the order their pairs were first linked."""
        return list(self._edges.values())
