"""Causal reasoning over memory: traces, root causes and chains along ``causes`` edges.

A ``causes`` edge runs from a cause span to an effect span and is asserted by one fact
(its ``sources``). Facts chain where one's effect span is another's cause span: the same
span node, or spans that name the same thing (``same-span``). Every hop of a trace or a
chain names the fact that asserts it, that fact's scopes, and whether it lies outside the
read's scopes; span texts are quoted from that fact's own words.

A trace from a fact starts with the fact's own pairs (depth 0) and walks on from their
effects (or, backwards, their causes) breadth first, so each hop has its shortest depth;
from a span, it starts with every pair leaving that span.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from groundgraph.memory.fact_graph import FactGraph
from groundgraph.memory.facts import CAUSE, EFFECT
from groundgraph.memory.limits import CAUSES as CAUSES
from groundgraph.memory.limits import DIRECTIONS as DIRECTIONS
from groundgraph.memory.limits import EFFECTS as EFFECTS
from groundgraph.model import Edge
from groundgraph.model.memory import CausalHop

EdgeKey = tuple[str, str, str]


@dataclass(frozen=True)
class Trace:
    """The hops of a trace, the spans where it ends, and whether a limit cut it short."""

    hops: tuple[CausalHop, ...]
    terminals: tuple[str, ...]
    truncated: bool


def key(edge: Edge) -> EdgeKey:
    return (edge.source, edge.target, edge.sources[0] if edge.sources else "")


class CausalReader:
    """The visible ``causes`` edges around spans and facts, and how to show them."""

    def __init__(self, graph: FactGraph) -> None:
        self.graph = graph
        self.view = graph.view

    def fact_edges(self, fact: str) -> list[Edge]:
        """The pairs a visible fact asserts, in a stable order."""
        mentions = self.graph.edges([fact])[fact]
        spans = sorted({e.target for e in mentions if e.label in (CAUSE, EFFECT)})
        found = {
            key(e): e
            for edges in self.graph.edges(spans).values()
            for e in edges
            if e.type == "causes" and fact in e.sources
        }
        return [found[k] for k in sorted(found)]

    def equivalents(self, span: str) -> list[str]:
        return [span, *self.graph.linked_spans(span)]

    def leaving(self, span: str, direction: str) -> list[Edge]:
        """Pairs leaving ``span`` (or a span naming the same thing) in ``direction``."""
        same = self.equivalents(span)
        found: dict[EdgeKey, Edge] = {}
        for node, edges in self.graph.edges(same).items():
            for edge in edges:
                if edge.type == "causes" and _start(edge, direction) == node:
                    found[key(edge)] = edge
        return [found[k] for k in sorted(found)]

    def text(self, edge: Edge, role: str) -> str:
        """The cause or effect text of a pair, in its fact's words."""
        index = 0 if role == CAUSE else 1
        if len(edge.spans) > index:
            node, start, end = edge.spans[index]
            text = self.graph.texts.get(node)
            if text is not None and start < end:
                return text[start:end]
        return self.graph.name(edge.source if role == CAUSE else edge.target)

    def hop(self, edge: Edge, depth: int) -> CausalHop:
        fact = edge.sources[0]
        return CausalHop(
            cause=self.text(edge, CAUSE),
            effect=self.text(edge, EFFECT),
            cause_id=edge.source,
            effect_id=edge.target,
            fact_id=fact,
            fact=self.graph.texts.get(fact, ""),
            depth=depth,
            scopes=self.view.scopes_at.get(fact, ()),
            cross_scope=self.view.cross_scope(fact),
        )


def _start(edge: Edge, direction: str) -> str:
    return edge.source if direction == EFFECTS else edge.target


def _end(edge: Edge, direction: str) -> str:
    return edge.target if direction == EFFECTS else edge.source


def trace(
    reader: CausalReader,
    start: Iterable[Edge],
    direction: str,
    max_depth: int,
    max_visited: int,
) -> Trace:
    """Breadth-first from the ``start`` pairs (depth 0) in ``direction``."""
    hops: list[CausalHop] = []
    seen: set[EdgeKey] = set()
    reached: dict[str, str] = {}
    frontier: list[str] = []
    truncated = False

    def take(edge: Edge, depth: int) -> None:
        seen.add(key(edge))
        hop = reader.hop(edge, depth)
        hops.append(hop)
        end = _end(edge, direction)
        reached.setdefault(end, hop.effect if direction == EFFECTS else hop.cause)
        frontier.append(end)

    for edge in start:
        if key(edge) not in seen:
            take(edge, 0)
    expanded: set[str] = set()
    depth = 1
    while frontier and not truncated:
        current = list(dict.fromkeys(s for s in frontier if s not in expanded))
        frontier.clear()
        if depth >= max_depth:
            truncated = any(reader.leaving(s, direction) for s in current)
            break
        for span in current:
            expanded.add(span)
            for edge in reader.leaving(span, direction):
                if key(edge) in seen:
                    continue
                if len(hops) >= max_visited:
                    truncated = True
                    break
                take(edge, depth)
            if truncated:
                break
        depth += 1
    terminals = tuple(text for span, text in reached.items() if not reader.leaving(span, direction))
    return Trace(tuple(hops), terminals, truncated)


def chain(
    reader: CausalReader,
    start: Iterable[Edge],
    arrived: Callable[[Edge], bool],
    max_depth: int,
    max_visited: int,
) -> list[CausalHop] | None:
    """The shortest run of pairs from ``start`` to a pair that ``arrived`` accepts."""
    parent: dict[EdgeKey, Edge | None] = {}
    level = [e for e in start]
    for edge in level:
        parent.setdefault(key(edge), None)
    depth = 0
    while level and depth < max_depth:
        for edge in level:
            if arrived(edge):
                return _unwind(reader, edge, parent)
        if len(parent) >= max_visited:
            return None
        following: list[Edge] = []
        for edge in level:
            for nxt in reader.leaving(edge.target, EFFECTS):
                if key(nxt) not in parent:
                    parent[key(nxt)] = edge
                    following.append(nxt)
        level = following
        depth += 1
    return None


def _unwind(
    reader: CausalReader, last: Edge, parent: dict[EdgeKey, Edge | None]
) -> list[CausalHop]:
    edges = [last]
    before = parent.get(key(last))
    while before is not None:
        edges.append(before)
        before = parent.get(key(before))
    edges.reverse()
    return [reader.hop(edge, depth) for depth, edge in enumerate(edges)]
