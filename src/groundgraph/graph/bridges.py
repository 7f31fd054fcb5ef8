"""Bridges: the shortest explained paths between two entities or nodes.

Each hop names the edge it walks and, where the edge was asserted by text, the sentence
that asserts it: the co-occurrence or relation sentence, the sentence of a mention, or
the section a structural edge leaves from.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph.evidence import entity_id
from groundgraph.model import Bridge, BridgeHop, Citation, Edge, Node
from groundgraph.model.ids import ENTITY_PREFIX
from groundgraph.model.valid_text import has_surrogates
from groundgraph.store.base import Store
from groundgraph.text import sentence_spans
from groundgraph.walk.dijkstra import HUB_DEGREE, MAX_FANOUT
from groundgraph.walk.paths import Step, shortest_paths

MAX_BRIDGE_HOPS = 6
MAX_BRIDGES = 20


def resolve_end(store: Store, name: str) -> str:
    """A node id from a node id, an entity id, or an entity's name."""
    if not isinstance(name, str) or not name.strip():
        raise InputError("a bridge end must be a non-empty node id or entity name")
    for candidate in (name, entity_id(name)):
        if not has_surrogates(candidate) and store.reads.get_nodes([candidate]):
            return candidate
    raise NotFoundError(
        f"no node or entity named {name!r}: use a node id from search, or an entity's name"
    )


def find_bridges(store: Store, a: str, b: str, max_hops: int = 3, k: int = 3) -> list[Bridge]:
    """Up to ``k`` shortest paths between ``a`` and ``b``, each hop cited."""
    if not 1 <= max_hops <= MAX_BRIDGE_HOPS or not 1 <= k <= MAX_BRIDGES:
        raise InputError(
            f"max_hops must be 1..{MAX_BRIDGE_HOPS} and k 1..{MAX_BRIDGES} for a bridge"
        )
    start, goal = resolve_end(store, a), resolve_end(store, b)

    def neighbours(node_ids: Sequence[str]) -> dict[str, list[Edge]]:
        out: dict[str, list[Edge]] = {n: [] for n in node_ids}
        for edge in store.reads.edges_touching(node_ids):
            for end in (edge.source, edge.target):
                if end in out:
                    out[end].append(edge)
        for node, edges in out.items():
            if node.startswith(ENTITY_PREFIX) and len(edges) > HUB_DEGREE:
                edges.sort(key=lambda e: (-e.weight, e.source, e.target))
                out[node] = edges[:MAX_FANOUT]
        return out

    paths = shortest_paths(start, goal, neighbours, max_hops, k)
    ids = {start} | {s.arrive for p in paths for s in p}
    ids |= {n for p in paths for s in p for n in (*s.edge.sources, *(x[0] for x in s.edge.spans))}
    nodes = store.reads.get_nodes(sorted(ids))
    return [_bridge(start, path, nodes) for path in paths]


def _bridge(start: str, path: tuple[Step, ...], nodes: dict[str, Node]) -> Bridge:
    order = (start, *(s.arrive for s in path))
    names = tuple(nodes[n].title if n in nodes else n for n in order)
    hops = tuple(
        BridgeHop(
            step.leave,
            step.arrive,
            step.edge.type,
            step.edge.label,
            step.edge.weight,
            _support(step.edge, nodes),
        )
        for step in path
    )
    strength = math.prod(s.edge.weight for s in path)
    return Bridge(order, names, hops, strength)


def _support(edge: Edge, nodes: dict[str, Node]) -> Citation | None:
    """The sentence behind an edge: its first recorded span, widened to its sentence."""
    if edge.spans:
        node_id, start, end = edge.spans[0]
    elif edge.sources:
        node_id, start, end = edge.sources[0], 0, 0
    else:
        return None
    node = nodes.get(node_id)
    if node is None:
        return None
    text = node.content
    if start == end == 0:
        sentences = sentence_spans(text)
        start, end = sentences[0] if sentences else (0, len(text))
    else:
        start, end = _sentence_around(text, start, end)
    exact = node.span[1] - node.span[0] == len(text)
    return Citation(
        node.node_id,
        start,
        end,
        text[start:end],
        node.span[0] + start if exact else None,
        node.span[0] + end if exact else None,
        doc_id=node.doc_id,
        title=node.title,
    )


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    for s, e in sentence_spans(text):
        if s <= start and end <= e:
            return s, e
    return start, end
