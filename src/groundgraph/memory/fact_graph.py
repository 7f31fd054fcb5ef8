"""The part of the graph that the visible facts assert, read from the store on demand.

Facts connect through the entity and span nodes they mention: ``mentions`` (fact to
entity or span), ``co-occurs`` and ``relation`` (entity to entity) and ``causes`` (span to
span), each edge walked only when the facts asserting it are visible (``MemoryView``),
``reference`` links from one fact to another (drawn with ``add_edges``),
plus ``same-span`` steps between spans that name the same thing (``SpanIndex``) when both
are asserted by visible facts. Degrees, and so hub damping, count visible edges only.

Names of entity and span nodes are taken from the visible facts' own text (the offsets a
``mentions`` edge holds), never from the node's first spelling, which another tenant may
have written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from groundgraph.memory.spans import SpanIndex
from groundgraph.memory.view import MemoryView
from groundgraph.model import Edge
from groundgraph.model.ids import ENTITY_PREFIX, is_fact_id
from groundgraph.walk.dijkstra import HUB_PREFIX, MAX_FANOUT, Arc, arcs_from_links

WALK_TYPES = frozenset({"mentions", "co-occurs", "causes", "relation"})
#: A link drawn between two facts (``add_edges``); walked only from fact to fact.
FACT_LINK = "reference"
SAME_SPAN = "same-span"
SAME_SPAN_WEIGHT = 0.9
EdgeLoader = Callable[[Sequence[str]], Mapping[str, Sequence[Edge]]]


class FactGraph:
    """Usable edges around nodes, arcs for the walk, and how to name what it passes."""

    def __init__(
        self,
        edges_touching: EdgeLoader,
        view: MemoryView,
        spans: SpanIndex,
        texts: Mapping[str, str],
    ) -> None:
        self._load = edges_touching
        self.view = view
        self.spans = spans
        self.texts = texts
        self._edges: dict[str, list[Edge]] = {}
        self.names: dict[str, str] = {}

    def edges(self, node_ids: Sequence[str]) -> dict[str, list[Edge]]:
        """The walkable edges touching each node (loaded once per node)."""
        missing = [n for n in dict.fromkeys(node_ids) if n not in self._edges]
        if missing:
            for node in missing:
                self._edges[node] = []
            for node, edges in self._load(missing).items():
                for edge in edges:
                    if _walkable(edge) and self.view.usable(edge):
                        self._edges[node].append(edge)
                        self._name(edge)
        return {n: self._edges[n] for n in node_ids}

    def _name(self, edge: Edge) -> None:
        if edge.type != "mentions" or edge.target in self.names:
            return
        for node, start, end in edge.spans:
            text = self.texts.get(node)
            if text is not None and start < end:
                self.names[edge.target] = text[start:end]
                return
        self.names.setdefault(edge.target, edge.target.removeprefix(ENTITY_PREFIX))

    def name(self, node_id: str) -> str:
        """How to show a node: a fact's text, or an entity's or span's name as written."""
        if node_id in self.texts:
            return self.texts[node_id]
        if node_id not in self.names:
            self.edges([node_id])
        return self.names.get(node_id, node_id.removeprefix(ENTITY_PREFIX))

    def linked_spans(self, node_id: str) -> list[str]:
        """Spans naming the same thing as ``node_id`` that visible facts assert."""
        if node_id not in self.spans:
            return []
        others = list(self.spans.similar(node_id))
        if not others:
            return []
        found = self.edges(others)
        return [o for o in others if found[o]]

    def neighbours(self, node_ids: Sequence[str], weakest: float = 0.0) -> dict[str, list[Arc]]:
        """Arcs out of each node, for ``walk.dijkstra.walk_from_seeds`` (all of them:
        ``weakest`` is a hint this in-memory graph does not need)."""
        found = self.edges(node_ids)
        # An entity with more than MAX_FANOUT edges gives no arcs (arcs_from_steps): leave
        # it out before listing its edges and span links rather than after.
        hubs = {n for n in node_ids if n.startswith(HUB_PREFIX) and len(found[n]) > MAX_FANOUT}
        walkable = [n for n in node_ids if n not in hubs]
        seen: set[Edge] = set()  # an edge between two asked-for nodes is in both lists
        pairs: set[tuple[str, str]] = set()
        links: list[tuple[str, str, str, float]] = []
        for node in walkable:
            for edge in found[node]:
                if edge not in seen:
                    seen.add(edge)
                    links.append((edge.source, edge.target, edge.type, edge.weight))
            for other in self.linked_spans(node):
                pair = (node, other) if node < other else (other, node)
                if pair not in pairs:
                    pairs.add(pair)
                    links.append((*pair, SAME_SPAN, SAME_SPAN_WEIGHT))
        arcs = arcs_from_links(links, walkable)
        arcs.update((hub, []) for hub in hubs)
        return arcs


def _walkable(edge: Edge) -> bool:
    """Edges the memory walk follows: evidence and meaning, and links between two facts."""
    if edge.type in WALK_TYPES:
        return True
    return edge.type == FACT_LINK and is_fact_id(edge.source) and is_fact_id(edge.target)
