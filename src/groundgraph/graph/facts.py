"""Relation facts in the graph, and the verifier built over them.

A fact "object is the relation of subject" is a ``relation`` edge from the subject's
entity node to the object's, carrying the relation's name and the section that asserts
it. ``build_reasoner`` turns every such edge into a fact of a GroundedReasoner, so each
hop of a proof cites its section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.graph.evidence import RELATION_WEIGHT, entity_id, entity_node
from groundgraph.model import Edge, Node
from groundgraph.model.ids import ENTITY_PREFIX
from groundgraph.model.valid_text import valid_text
from groundgraph.store.base import Store

if TYPE_CHECKING:
    from groundgraph.reason.relations import GroundedReasoner

FACTS_DOC_ID = "facts"
MAX_FACT_CHARS = 1000


def fact_records(
    subject: str, relation: str, obj: str, source: str | None
) -> tuple[Edge, list[Node]]:
    """The relation edge and the two entity nodes of one fact."""
    values = {"subject": subject, "relation": relation, "object": obj}
    for name, value in values.items():
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"a fact's {name} must be non-empty text")
        if len(value) > MAX_FACT_CHARS:
            raise InputTooLargeError(f"the fact's {name}", len(value), MAX_FACT_CHARS)
    # Names and the relation are text: made valid like any text coming in.
    subject, relation, obj = (valid_text(v).text for v in (subject, relation, obj))
    start, end = entity_id(subject.strip()), entity_id(obj.strip())
    if start == ENTITY_PREFIX or end == ENTITY_PREFIX:
        raise InputError("a fact's subject and object must contain letters or digits")
    edge = Edge(
        start,
        end,
        "relation",
        RELATION_WEIGHT,
        (source,) if source else (),
        relation.strip(),
    )
    return edge, [entity_node(start, subject.strip()), entity_node(end, obj.strip())]


def build_reasoner(store: Store, **options: Any) -> GroundedReasoner:
    """A GroundedReasoner over every valid relation edge; proofs name entities as first
    spelled and each hop carries the sections that assert it."""
    from groundgraph.reason.relations import GroundedReasoner  # scipy: load on use

    reasoner = GroundedReasoner(**options)
    names = {n.node_id: n.title for n in store.reads.entity_nodes()}
    for edge in store.reads.iter_edges(["relation"]):
        if edge.invalid_at is not None or not edge.label:
            continue
        subject = names.get(edge.source, edge.source.removeprefix(ENTITY_PREFIX))
        obj = names.get(edge.target, edge.target.removeprefix(ENTITY_PREFIX))
        for source in edge.sources or (None,):
            reasoner.add_fact(subject, edge.label, obj, source=source)
    return reasoner
