"""Counterfactuals: what would collapse if one fact were false.

``what_if`` removes, in thought only, the causal pairs that the pruned fact alone
asserts (a pair another visible fact also asserts stays), walks from the origin again
and compares:

- **collapsed**: spans the origin reached before and reaches no more;
- **survived**: spans whose first path went through a removed pair but that another
  path still reaches.

Nothing is written: both walks read the same edges; the store is never changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundgraph.memory.causal_graph import (
    EFFECTS,
    CausalReader,
    EdgeKey,
    key,
)
from groundgraph.memory.facts import CAUSE, EFFECT
from groundgraph.model import Edge
from groundgraph.model.memory import SpanReach

Pair = tuple[str, str]


@dataclass(frozen=True)
class Counterfactual:
    pruned_edges: tuple[dict[str, str], ...]
    collapsed: tuple[SpanReach, ...]
    survived: tuple[SpanReach, ...]
    truncated: bool


@dataclass
class _Walk:
    reached: dict[str, tuple[SpanReach, bool]]  # span id -> (how, first path crossed a pruned pair)
    truncated: bool = False


def counterfactual(
    reader: CausalReader,
    pruned: str,
    start: list[Edge],
    direction: str,
    max_depth: int,
    max_visited: int,
) -> Counterfactual:
    """Compare the reach from the ``start`` pairs (an origin's depth-0 pairs) with and
    without the pairs only ``pruned`` asserts."""
    removed: dict[Pair, Edge] = {}
    for edge in reader.fact_edges(pruned):
        others = [
            e
            for e in reader.leaving(edge.source, EFFECTS)
            if e.source == edge.source and e.target == edge.target and pruned not in e.sources
        ]
        if not others:
            removed.setdefault((edge.source, edge.target), edge)
    before = _walk(reader, start, direction, max_depth, max_visited, set(removed), None)
    after = _walk(reader, start, direction, max_depth, max_visited, set(removed), pruned)
    collapsed = [how for span, (how, _) in before.reached.items() if span not in after.reached]
    survived = [
        after.reached[span][0]
        for span, (_, crossed) in before.reached.items()
        if crossed and span in after.reached
    ]
    pruned_edges = tuple(
        {"cause": reader.text(e, CAUSE), "effect": reader.text(e, EFFECT), "factId": pruned}
        for _, e in sorted(removed.items())
    )
    return Counterfactual(
        pruned_edges,
        tuple(sorted(collapsed, key=_order)),
        tuple(sorted(survived, key=_order)),
        before.truncated or after.truncated,
    )


def _order(reach: SpanReach) -> tuple[int, str, str]:
    return (reach.depth, reach.span, reach.fact_id)


def _walk(
    reader: CausalReader,
    start: list[Edge],
    direction: str,
    max_depth: int,
    max_visited: int,
    removed: set[Pair],
    without: str | None,
) -> _Walk:
    """Breadth first from ``start``; ``without`` drops that fact's pairs, keeping a pair
    another fact asserts too (the other fact's edge takes its place)."""
    walk = _Walk({})
    forward = direction == EFFECTS
    seen: set[EdgeKey] = set()
    level: list[tuple[Edge, bool]] = []
    for edge in start:
        kept = _stand_in(reader, edge, without, removed)
        if kept is not None:
            level.append((kept, (edge.source, edge.target) in removed))
    depth = 0
    while level and depth < max_depth:
        following: list[tuple[Edge, bool]] = []
        for edge, crossed in level:
            if key(edge) in seen:
                continue
            seen.add(key(edge))
            if len(seen) > max_visited:
                walk.truncated = True
                return walk
            end = edge.target if forward else edge.source
            if end in walk.reached:
                continue
            hop = reader.hop(edge, depth)
            walk.reached[end] = (
                SpanReach(
                    hop.effect if forward else hop.cause,
                    hop.fact_id,
                    hop.fact,
                    depth,
                    hop.scopes,
                    hop.cross_scope,
                ),
                crossed,
            )
            for nxt in reader.leaving(end, direction):
                if without is not None and without in nxt.sources:
                    continue
                if key(nxt) not in seen:
                    following.append((nxt, crossed or (nxt.source, nxt.target) in removed))
        level = following
        depth += 1
    if level:
        walk.truncated = True
    return walk


def _stand_in(
    reader: CausalReader, edge: Edge, without: str | None, removed: set[Pair]
) -> Edge | None:
    """``edge`` itself, or when its fact is pruned, another fact's edge for the same pair."""
    if without is None or without not in edge.sources:
        return edge
    if (edge.source, edge.target) in removed:
        return None
    for other in reader.leaving(edge.source, EFFECTS):
        if (
            other.source == edge.source
            and other.target == edge.target
            and without not in other.sources
        ):
            return other
    return None
