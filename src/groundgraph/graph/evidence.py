"""The evidence layer of a document: entity nodes, mentions, co-occurrence and relations.

Entities belong to no document: a section ``mentions`` an entity; two entities named in
one sentence ``co-occur`` (the edge lists the sections and sentence spans behind it); an
explicit statement ("Bo is the father of Ann") gives a ``relation`` edge from subject to
object carrying the relation's name. Every edge made here belongs to the document whose
text asserts it, and its spans are (node id, start, end) offsets into that node's content.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from groundgraph.ingest.entities import Mention, extract_entities, normalise_entity
from groundgraph.ingest.relations import RelationMention, extract_relations
from groundgraph.model import Edge, Node
from groundgraph.model.ids import ENTITY_PREFIX, spelling_order
from groundgraph.text import sentence_spans

MENTION_WEIGHT = 0.7
CO_OCCURS_WEIGHT = 0.5
RELATION_WEIGHT = 0.7
MAX_ENTITIES_PER_SENTENCE = 10
MAX_SPANS_PER_EDGE = 5

EntityExtractor = Callable[[str], Sequence[Mention]]
RelationExtractor = Callable[[str], Sequence[RelationMention]]


def entity_id(name: str) -> str:
    """The node id of the entity a surface form names."""
    return ENTITY_PREFIX + normalise_entity(name)


def has_prose(node: Node) -> bool:
    """Whether entities and relations are looked for in this node's text."""
    return node.kind != "entity" and bool(node.content.strip())


def entity_node(node_id: str, display: str) -> Node:
    return Node(node_id, "", "entity", display, "")


@dataclass
class _Pending:
    """Edges of one document, merged per (source, target, type, label) as they are found."""

    edges: dict[tuple[str, str, str, str | None], tuple[list[str], list[tuple[str, int, int]]]]
    names: dict[str, str]

    def add(
        self,
        source: str,
        target: str,
        kind: str,
        node_id: str,
        span: tuple[int, int],
        label: str | None = None,
    ) -> None:
        key = (source, target, kind, label)
        found = self.edges.get(key)
        if found is None:  # most edges are asserted once: make their lists in one go
            self.edges[key] = ([node_id], [(node_id, span[0], span[1])])
            return
        sources, spans = found
        if node_id not in sources:
            sources.append(node_id)
        if len(spans) < MAX_SPANS_PER_EDGE:
            spans.append((node_id, span[0], span[1]))

    def name(self, node_id: str, display: str) -> None:
        # The shortest spelling, then the first in sort order (as the store keeps across
        # documents): a function of the spellings, which a scoped read can recompute.
        held = self.names.get(node_id)
        if held is None or spelling_order(display) < spelling_order(held):
            self.names[node_id] = display


def evidence_for(
    nodes: Sequence[Node],
    entities: EntityExtractor | None = extract_entities,
    relations: RelationExtractor | None = extract_relations,
    *,
    mentions: Sequence[Sequence[Mention]] | None = None,
    stated: Sequence[Sequence[RelationMention]] | None = None,
    sentences: Sequence[Sequence[tuple[int, int]] | None] | None = None,
) -> tuple[list[Node], list[Edge]]:
    """Entity nodes and evidence edges for the nodes of one document.

    ``mentions`` and ``stated``, when given, are what the extractors found in each node
    (in node order, found elsewhere beforehand); they take the extractors' place.
    ``sentences`` are each node's ``sentence_spans``, where known (else None).
    """
    pending = _Pending({}, {})
    weights = {"mentions": MENTION_WEIGHT, "co-occurs": CO_OCCURS_WEIGHT}
    for i, node in enumerate(nodes):
        text = node.content
        if not has_prose(node):
            continue
        spans = sentences[i] if sentences is not None else None
        if mentions is not None:
            _add_mentions(node.node_id, text, mentions[i], pending, spans)
        elif entities is not None:
            _add_mentions(node.node_id, text, entities(text), pending, spans)
        facts = stated[i] if stated is not None else None
        if facts is None and relations is not None:
            facts = relations(text)
        if facts:
            for fact in facts:
                subject, obj = entity_id(fact.subject), entity_id(fact.object)
                if subject in (obj, ENTITY_PREFIX) or obj == ENTITY_PREFIX:
                    continue
                pending.name(subject, fact.subject)
                pending.name(obj, fact.object)
                span = (fact.start, fact.end)
                pending.add(subject, obj, "relation", node.node_id, span, fact.relation)
    edges = [
        Edge(
            source,
            target,
            kind,
            RELATION_WEIGHT if kind == "relation" else weights[kind],
            tuple(sources),
            label,
            spans=tuple(spans),
        )
        for (source, target, kind, label), (sources, spans) in pending.edges.items()
    ]
    nodes_out = [entity_node(node_id, display) for node_id, display in pending.names.items()]
    return nodes_out, edges


def _add_mentions(
    node_id: str,
    text: str,
    extracted: Sequence[Mention],
    pending: _Pending,
    spans: Sequence[tuple[int, int]] | None = None,
) -> None:
    found = [m for m in extracted if m.key]
    for mention in found:
        target = ENTITY_PREFIX + mention.key
        pending.name(target, mention.text)
        pending.add(node_id, target, "mentions", node_id, (mention.start, mention.end))
    if len(found) < 2:
        return
    for start, end in sentence_spans(text) if spans is None else spans:
        inside = [m for m in found if start <= m.start and m.end <= end]
        keys = list(dict.fromkeys(ENTITY_PREFIX + m.key for m in inside))
        for a, b in itertools.combinations(sorted(keys[:MAX_ENTITIES_PER_SENTENCE]), 2):
            pending.add(a, b, "co-occurs", node_id, (start, end))
