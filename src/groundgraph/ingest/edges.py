"""A document's edges, at most one per pair of nodes.

The precedence rule of the seed system (``reference/seeds.md`` §1.5): an edge between a
pair that already has one of at least the same weight is dropped; a stronger one replaces
the weaker, except that an existing parent-child edge keeps its type and direction and
only takes the higher weight. Two edges of one type and weight in opposite directions keep
the one from the smaller node id, whichever was linked first (a document and one it
names may each name the other, and which arrives second must not show).
"""

from __future__ import annotations

from groundgraph.model import EDGE_WEIGHTS, PARENT_CHILD, Edge

# (source, target, type, weight): Edge records are made once, at the end, for the kept ones.
_Link = tuple[str, str, str, float]


class EdgeSet:
    """Edges keyed by their unordered pair of nodes, in the order pairs were first linked."""

    def __init__(self) -> None:
        self._links: dict[tuple[str, str], _Link] = {}

    def link(self, source: str, target: str, edge_type: str, weight: float | None = None) -> None:
        """Link ``source`` → ``target``; ``weight`` defaults to that of ``edge_type``."""
        if source == target:
            return
        if weight is None:
            weight = EDGE_WEIGHTS[edge_type]
        key = (source, target) if source < target else (target, source)
        old = self._links.get(key)
        if old is None:
            self._links[key] = (source, target, edge_type, weight)
        elif old[3] < weight:
            if old[2] == PARENT_CHILD:
                self._links[key] = (old[0], old[1], PARENT_CHILD, weight)
            else:
                self._links[key] = (source, target, edge_type, weight)
        elif old[3] == weight and old[2] == edge_type and source < old[0]:
            self._links[key] = (source, target, edge_type, weight)

    def __len__(self) -> int:
        return len(self._links)

    def to_list(self) -> list[Edge]:
        """The edges, in the order their pairs were first linked."""
        return [_edge(link) for link in self._links.values()]


def _edge(link: _Link) -> Edge:
    source, target, edge_type, weight = link
    return Edge(source, target, edge_type, weight, (source,))
