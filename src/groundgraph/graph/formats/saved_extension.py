"""What a saved graph carries beyond the v2 format, so that memory survives a round trip.

The v2 format knows documents, their nodes and four edge types; on load the evidence layer
is rebuilt from the text. That loses what text alone cannot give back: the scopes of
documents and facts, when a fact was retired (``invalidAt``), the causal and
``supersedes`` edges of agent memory, and the fact history and contradiction ledger. So
``to_json`` also writes, under the key ``"groundgraph"`` (readers that do not know it
ignore it):

``{"version": 1, "entities": [{"nodeId", "title", "createdAt"}], "edges": [{"from", "to", "type",
"weight", "label", "sources", "spans", "createdAt", "invalidAt"}], "factEvents": [...],
"conflicts": [...]}``

Every edge outside the four v2 types is there with its provenance, so a graph loaded
from it has the edges it was saved with, not ones rebuilt in another order. A file
without the key loads as plain v2.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from groundgraph.errors import FormatError
from groundgraph.ingest.parsed import ParsedDocument
from groundgraph.model import EDGE_TYPES, Edge, Node
from groundgraph.model.ids import is_entity_id
from groundgraph.store.base import (
    ConflictRecord,
    FactEvent,
    FactSnapshot,
    FactUpdate,
    Store,
)

KEY = "groundgraph"
VERSION = 1
V2_EDGE_TYPES = ("parent-child", "next", "reference", "semantic")
EXTENSION_EDGE_TYPES = tuple(t for t in EDGE_TYPES if t not in V2_EDGE_TYPES)


@dataclass(frozen=True)
class SavedExtension:
    """The extension of one saved graph, read and checked."""

    entities: dict[str, Node]
    edges: dict[str, list[Edge]]  # by the document that asserts them
    events: dict[str, list[FactEvent]]  # by fact
    conflicts: list[ConflictRecord]

    def entities_for(self, edges: Sequence[Edge]) -> list[Node]:
        ends = dict.fromkeys(end for e in edges for end in (e.source, e.target))
        return [self.entities[n] for n in ends if n in self.entities]


def extension_edge_json(e: Edge) -> dict[str, Any]:
    """One entry of the extension's ``edges``."""
    return {
        "from": e.source,
        "to": e.target,
        "type": e.type,
        "weight": e.weight,
        "label": e.label,
        "sources": list(e.sources),
        "spans": [[n, a, b] for n, a, b in e.spans],
        "createdAt": e.created_at,
        "invalidAt": e.invalid_at,
    }


def extension_parts(store: Store) -> dict[str, Any]:
    """The ``"groundgraph"`` part of a saved graph, its lists as iterators over the store."""
    return {
        "version": VERSION,
        "entities": (
            {"nodeId": n.node_id, "title": n.title, "createdAt": n.created_at}
            for n in store.reads.entity_nodes()
        ),
        "edges": (extension_edge_json(e) for e in store.reads.iter_edges(EXTENSION_EDGE_TYPES)),
        "factEvents": (
            {"factId": e.fact_id, "kind": e.kind, "at": e.at, "scopes": list(e.scopes)}
            | ({"other": e.other} if e.other is not None else {})
            for e in store.ledger.fact_events()
        ),
        "conflicts": (_conflict_json(c) for c in store.ledger.conflict_records()),
    }


def check_extension_header(raw: Any) -> None:
    if not isinstance(raw, Mapping) or raw.get("version") != VERSION:
        raise FormatError(f"{KEY!r} must be an object with version {VERSION}")


def entity_from_json(item: Any, where: str) -> Node:
    """One entry of the extension's ``entities``."""
    item = _object(item, where)
    node_id, title = _text(item, "nodeId", where), _text(item, "title", where)
    if not is_entity_id(node_id):
        raise FormatError(f"{where}: an entity id starts with 'entity:'")
    created = item.get("createdAt") or ""
    if not isinstance(created, str):
        raise FormatError(f"{where}: createdAt must be a string")
    return entity_node(node_id, title, created)


def entity_node(node_id: str, title: str, created: str) -> Node:
    """The entity node of a checked entry."""
    return Node(node_id, "", "entity", title, "", created_at=created)


def asserting_node(sources: Sequence[str], source: str) -> str:
    """The section whose document an extension edge belongs to: its first source."""
    return sources[0] if sources else source


def check_edge_ends(
    source: str,
    target: str,
    asserting: str,
    where: str,
    owner: Mapping[str, str],
    entities: Container[str],
    rank: Mapping[str, int],
) -> str:
    """The document an extension edge belongs to, once its ends and its asserting node
    (:func:`asserting_node`) are known nodes, each end stored before the edge is: an
    entity with it, a node with its document, which must load no later (``rank``: each
    document's place in the file) than the asserting one."""
    if asserting not in owner:
        raise FormatError(f"{where}: its first source {asserting!r} is not a section")
    loads = rank.get(owner[asserting], -1)
    for end in (source, target):
        if end not in owner and end not in entities:
            raise FormatError(f"{where}: {end!r} is not a node of this graph")
        if end in owner and rank.get(owner[end], -1) > loads:
            raise FormatError(
                f"{where}: {end!r} belongs to a document listed after {owner[asserting]!r},"
                " whose node asserts the edge; list that document first"
            )
    return owner[asserting]


def fact_event_from_json(item: Any, where: str) -> FactEvent:
    """One entry of ``factEvents`` (whether its fact is in the graph is the caller's check)."""
    item = _object(item, where)
    fact = _text(item, "factId", where)
    other = item.get("other")
    if other is not None and not isinstance(other, str):
        raise FormatError(f"{where}: other must be a string or null")
    scopes = _strings(item, "scopes", where)
    return FactEvent(fact, _text(item, "kind", where), _text(item, "at", where), scopes, other)


def not_a_fact(where: str, fact: str) -> FormatError:
    return FormatError(f"{where}: {fact!r} is not a fact of this graph")


def extension_from_json(
    data: Mapping[str, Any], owner: Mapping[str, str], rank: Mapping[str, int]
) -> SavedExtension | None:
    """The extension of ``data`` (None when it has none); ``owner`` maps node id → doc id,
    ``rank`` each document's place in the file."""
    raw = data.get(KEY)
    if raw is None:
        return None
    check_extension_header(raw)
    entities: dict[str, Node] = {}
    for i, item in enumerate(_list(raw, "entities")):
        node = entity_from_json(item, f"{KEY}.entities[{i}]")
        entities[node.node_id] = node
    edges: dict[str, list[Edge]] = defaultdict(list)
    for i, item in enumerate(_list(raw, "edges")):
        where = f"{KEY}.edges[{i}]"
        edge = extension_edge_from_json(item, where)
        asserting = asserting_node(edge.sources, edge.source)
        ends = (edge.source, edge.target, asserting, where, owner, entities, rank)
        edges[check_edge_ends(*ends)].append(edge)
    events: dict[str, list[FactEvent]] = defaultdict(list)
    for i, item in enumerate(_list(raw, "factEvents")):
        where = f"{KEY}.factEvents[{i}]"
        event = fact_event_from_json(item, where)
        if event.fact_id not in owner:
            raise not_a_fact(where, event.fact_id)
        events[event.fact_id].append(event)
    conflicts = [
        conflict_from_json(item, f"{KEY}.conflicts[{i}]")
        for i, item in enumerate(_list(raw, "conflicts"))
    ]
    return SavedExtension(entities, dict(edges), dict(events), conflicts)


def fact_updates(extension: SavedExtension, parsed: Sequence[ParsedDocument]) -> list[FactUpdate]:
    """The history of each loaded fact, to hand to ``Store.update_facts``."""
    facts = {
        p.document.doc_id: p for p in parsed if p.nodes and p.root.node_id == p.document.doc_id
    }
    return [
        FactUpdate(fact, facts[fact].document.scopes, facts[fact].root.invalid_at, tuple(events))
        for fact, events in extension.events.items()
        if fact in facts
    ]


# ----------------------------------------------------------------------------- fields
def _list(raw: Mapping[str, Any], key: str) -> list[Any]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(x, Mapping) for x in value):
        raise FormatError(f"{KEY}.{key} must be a list of objects")
    return value


def _object(item: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(item, Mapping):
        raise FormatError(f"{where} must be an object")
    return item


def _text(item: Mapping[str, Any], key: str, where: str) -> str:
    value = item.get(key)
    if not isinstance(value, str):
        raise FormatError(f"{where}: field {key!r} is missing or not a string")
    return value


def _strings(item: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = item.get(key, [])
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise FormatError(f"{where}: {key!r} must be a list of strings")
    return tuple(value)


def extension_edge_from_json(item: Any, where: str) -> Edge:
    """One entry of the extension's ``edges``, its fields checked."""
    return checked_extension_edge(check_extension_edge(item, where))


def check_extension_edge(entry: Any, where: str) -> Mapping[str, Any]:
    """The entry, once every field of an extension edge in it is checked."""
    item = _object(entry, where)
    kind = _text(item, "type", where)
    if kind not in EDGE_TYPES or kind in V2_EDGE_TYPES:
        raise FormatError(f"{where}: edge type {kind!r} does not belong here")
    weight = item.get("weight")
    checked_weight(weight, where)
    label, invalid = item.get("label"), item.get("invalidAt")
    if not (label is None or isinstance(label, str)) or not (
        invalid is None or isinstance(invalid, str)
    ):
        raise FormatError(f"{where}: label and invalidAt must be strings or null")
    spans = item.get("spans", [])
    if not isinstance(spans, list) or not all(
        isinstance(s, list)
        and len(s) == 3
        and isinstance(s[0], str)
        and all(isinstance(x, int) and not isinstance(x, bool) for x in s[1:])
        for s in spans
    ):
        raise FormatError(f"{where}: spans must be [node id, start, end] triples")
    for key in ("from", "to"):
        _text(item, key, where)
    _strings(item, "sources", where)
    return item


def checked_extension_edge(item: Mapping[str, Any]) -> Edge:
    """The edge of an entry that :func:`extension_edge_from_json` has checked."""
    return Edge(
        item["from"],
        item["to"],
        item["type"],
        float(item["weight"]),
        tuple(item.get("sources", ())),
        item.get("label"),
        str(item.get("createdAt") or ""),
        item.get("invalidAt"),
        tuple((n, a, b) for n, a, b in item.get("spans", ())),
    )


def _conflict_json(record: ConflictRecord) -> dict[str, Any]:
    return {
        "at": record.at,
        "new": record.new.to_dict(),
        "old": record.old.to_dict(),
        "rule": record.rule,
        "detail": record.detail,
        "resolver": record.resolver,
    }


def _snapshot(item: Any, where: str) -> FactSnapshot:
    if not isinstance(item, Mapping):
        raise FormatError(f"{where} must be an object")
    return FactSnapshot(
        _text(item, "factId", where),
        _text(item, "text", where),
        _strings(item, "scopes", where),
        _text(item, "createdAt", where),
        _text(item, "source", where),
    )


def conflict_from_json(item: Any, where: str) -> ConflictRecord:
    """One entry of ``conflicts``."""
    item = _object(item, where)
    return ConflictRecord(
        _text(item, "at", where),
        _snapshot(item.get("new"), f"{where}.new"),
        _snapshot(item.get("old"), f"{where}.old"),
        _text(item, "rule", where),
        _text(item, "detail", where),
        _text(item, "resolver", where),
    )


def checked_weight(weight: Any, where: str) -> float:
    """An edge weight from a file: a number in [0, 1] (the walk's bound and order need
    that no step strengthens a path)."""
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 <= weight <= 1:
        raise FormatError(f"{where}: weight must be a number from 0 to 1, not {weight!r}")
    return float(weight)
