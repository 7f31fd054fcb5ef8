"""Path searches over a successor function: the proofs behind every verdict.

All three searches visit successors in the order the function returns them, so the same
facts always give the same proof.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import TypeVar

from groundgraph.errors import InputError

N = TypeVar("N", bound=Hashable)
Successors = Callable[[str], Iterable[str]]
RelationSuccessors = Callable[[str, str], Iterable[str]]


def shortest_path(
    start: N, goal: N, successors: Callable[[N], Iterable[N]], max_len: int | None = None
) -> list[N] | None:
    """A shortest path of at least one step from ``start`` to ``goal`` (breadth-first).

    ``start == goal`` is found only through a real cycle. Returns the nodes of the path,
    both ends included, or None when there is none (within ``max_len`` steps, if given).
    """
    parent: dict[N, N] = {}
    seen: set[N] = set() if start == goal else {start}
    frontier = [start]
    depth = 0
    while frontier and (max_len is None or depth < max_len):
        depth += 1
        next_frontier: list[N] = []
        for node in frontier:
            for nxt in successors(node):
                if nxt in seen:
                    continue
                seen.add(nxt)
                parent[nxt] = node
                if nxt == goal:
                    return _walk_back(start, goal, parent)
                next_frontier.append(nxt)
        frontier = next_frontier
    return None


def _walk_back(start: N, goal: N, parent: dict[N, N]) -> list[N]:
    path = [goal]
    node = parent[goal]
    while node != start:
        path.append(node)
        node = parent[node]
    path.append(start)
    path.reverse()
    return path


def chain_path(
    start: str, goal: str, via: Sequence[str], successors: RelationSuccessors
) -> list[str] | None:
    """A walk from ``start`` to ``goal`` taking exactly the relations ``via``, in order.

    Layer by layer: layer i holds every node reachable by the first i relations, each
    with the node it was first reached from. Nodes may repeat along the walk.
    """
    if not via:
        raise InputError("via must name at least one relation")
    layers: list[dict[str, str]] = []
    frontier: Iterable[str] = (start,)
    for relation in via:
        layer: dict[str, str] = {}
        for node in frontier:
            for nxt in successors(node, relation):
                layer.setdefault(nxt, node)
        if not layer:
            return None
        layers.append(layer)
        frontier = layer
    if goal not in layers[-1]:
        return None
    path = [goal]
    for layer in reversed(layers):
        path.append(layer[path[-1]])
    path.reverse()
    return path


def find_cycle(nodes: Iterable[str], successors: Successors) -> list[str] | None:
    """One directed cycle, as ``[a, b, …, a]``, or None if the graph is acyclic.

    Depth-first from each node in order; the first back edge found closes the cycle.
    """
    done: set[str] = set()
    for root in nodes:
        if root in done:
            continue
        on_stack: dict[str, int] = {root: 0}
        stack: list[tuple[str, Iterator[str]]] = [(root, iter(successors(root)))]
        while stack:
            node, pending = stack[-1]
            nxt = next(pending, None)
            if nxt is None:
                stack.pop()
                del on_stack[node]
                done.add(node)
                continue
            if nxt in on_stack:
                cycle = [entry[0] for entry in stack[on_stack[nxt] :]]
                return [*cycle, nxt]
            if nxt not in done:
                on_stack[nxt] = len(stack)
                stack.append((nxt, iter(successors(nxt))))
    return None
