"""Bridges: the shortest explained paths between two entities, nodes or words.

Each hop names the edge it walks and, where the edge was asserted by text, the sentence
that asserts it: the co-occurrence or relation sentence, the sentence of a mention, or
the section a structural edge leaves from. An end that is neither a node nor an entity
may be a plain word of the index (``graph.bridge_words``): its first hop is the node that
holds it, cited by the sentence that does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph.bridge_limits import MAX_BRIDGE_HOPS as MAX_BRIDGE_HOPS
from groundgraph.graph.bridge_limits import MAX_BRIDGES as MAX_BRIDGES
from groundgraph.graph.bridge_words import WordEnd, is_word_end, word_end, word_of
from groundgraph.graph.document_scope import DocumentScope
from groundgraph.graph.entity_spellings import scoped_titles
from groundgraph.index.bm25 import LexicalIndex
from groundgraph.model import Bridge, BridgeHop, Citation, Edge, Node
from groundgraph.model.ids import ENTITY_PREFIX
from groundgraph.model.valid_text import has_surrogates
from groundgraph.store.base import Store
from groundgraph.text import sentence_spans
from groundgraph.walk.dijkstra import HUB_DEGREE, MAX_FANOUT
from groundgraph.walk.paths import Step, shortest_paths


def resolve_end(
    store: Store,
    name: str,
    index: LexicalIndex | None = None,
    scope: DocumentScope | None = None,
) -> str | WordEnd:
    """A node id from a node id, an entity id, or an entity's name; else, given the
    index, a word end for a plain word that some node holds. With ``scope``, only nodes
    it sees count: another's node is unknown, another's word not held."""
    if not isinstance(name, str) or not name.strip():
        raise InputError("a bridge end must be a non-empty node id, entity name or word")
    # Here, not at the top: the verb table reads this module's limits, and a search
    # should not load the entity extractor with them.
    from groundgraph.graph.evidence import entity_id

    for candidate in (name, entity_id(name)):
        if has_surrogates(candidate) or (scope is not None and not scope.node(candidate)):
            continue
        if store.reads.get_nodes([candidate]):
            return candidate
    holds = None if scope is None else scope.node
    found = None if index is None else word_end(store, index, name, holds)
    if found is None:
        raise NotFoundError(
            f"no node, entity or indexed word named {name!r}: use a node id from search, an "
            "entity's name, or one word of the documents"
        )
    return found


def find_bridges(
    store: Store,
    a: str,
    b: str,
    max_hops: int = 3,
    k: int = 3,
    index: LexicalIndex | None = None,
    scope: DocumentScope | None = None,
) -> list[Bridge]:
    """Up to ``k`` shortest paths between ``a`` and ``b``, each hop cited. A word end's
    own hop (word to the node holding it) is not counted in ``max_hops``. With
    ``scope``, the paths step only along edges it sees."""
    if not 1 <= max_hops <= MAX_BRIDGE_HOPS or not 1 <= k <= MAX_BRIDGES:
        raise InputError(
            f"max_hops must be 1..{MAX_BRIDGE_HOPS} and k 1..{MAX_BRIDGES} for a bridge"
        )
    ends = [resolve_end(store, name, index, scope) for name in (a, b)]
    words = {end.node_id: end for end in ends if isinstance(end, WordEnd)}
    start, goal = (end.node_id if isinstance(end, WordEnd) else end for end in ends)

    def neighbours(node_ids: Sequence[str]) -> dict[str, list[Edge]]:
        out: dict[str, list[Edge]] = {n: [] for n in node_ids}
        stored = [n for n in node_ids if n not in words]
        for edge in store.reads.edges_touching(stored):
            if scope is not None and not scope.edge(edge):
                continue
            for end in (edge.source, edge.target):
                if end in out:
                    out[end].append(edge)
        for node, edges in out.items():
            if node.startswith(ENTITY_PREFIX) and len(edges) > HUB_DEGREE:
                edges.sort(key=lambda e: (-e.weight, e.source, e.target))
                out[node] = edges[:MAX_FANOUT]
        for word in words.values():
            for edge in word.edges:
                for end in (edge.source, edge.target):
                    if end in out:
                        out[end].append(edge)
        return out

    paths = shortest_paths(start, goal, neighbours, max_hops + len(words), k)
    ids = {start} | {s.arrive for p in paths for s in p}
    ids |= {n for p in paths for s in p for n in (*s.edge.sources, *(x[0] for x in s.edge.spans))}
    nodes = store.reads.get_nodes(sorted(n for n in ids if not is_word_end(n)))
    if scope is not None:  # an entity under a spelling the read's own documents give it
        on_paths = {start} | {s.arrive for p in paths for s in p}
        titles = scoped_titles(scope, {n: nodes[n] for n in on_paths if n in nodes})
        nodes = {n: replace(node, title=titles.get(n, node.title)) for n, node in nodes.items()}
    return [_bridge(start, path, nodes) for path in paths]


def _bridge(start: str, path: tuple[Step, ...], nodes: dict[str, Node]) -> Bridge:
    order = (start, *(s.arrive for s in path))
    names = tuple(
        nodes[n].title if n in nodes else word_of(n) if is_word_end(n) else n for n in order
    )
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
