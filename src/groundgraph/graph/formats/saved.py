"""Saved graphs in the graph-of-thought v2 JSON format.

``{"format": "graph-of-thought", "version": 2, "documents": [...], "nodes": [...],
"edges": [...]}``; see docs/saved-graphs.md. Our additions, which readers that do not
know them ignore: a node's ``span``, ``createdAt``, ``invalidAt`` and ``scopes``; a
document's ``source``, ``contentHash`` and ``scopes``; the ``"groundgraph"`` key
(``graph.formats.saved_extension``). Anything else is refused with a FormatError.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from groundgraph.errors import FormatError
from groundgraph.graph.formats.saved_extension import (
    KEY,
    V2_EDGE_TYPES,
    SavedExtension,
    extension_from_json,
    extension_to_json,
)
from groundgraph.ingest import ParsedDocument
from groundgraph.model import EDGE_TYPES, NODE_KINDS, Document, Edge, Node
from groundgraph.store.base import Store

FORMAT = "graph-of-thought"
VERSION = 2


def graph_to_json(store: Store) -> dict[str, Any]:
    """The whole graph as a plain dictionary."""
    documents: list[dict[str, Any]] = []
    nodes: list[dict[str, Any]] = []
    for document in store.documents():
        doc_nodes = store.document_nodes(document.doc_id)
        documents.append(
            {
                "docId": document.doc_id,
                "title": document.title,
                "description": document.description,
                "rootId": document.doc_id,
                "nodeIds": [n.node_id for n in doc_nodes],
                "addedAt": document.added_at,
            }
            | {"source": document.source, "contentHash": document.content_hash}
            | ({"scopes": list(document.scopes)} if document.scopes else {})
            | ({"metadata": [list(p) for p in document.metadata]} if document.metadata else {})
            | ({"ingest": document.ingest} if document.ingest else {})
        )
        nodes.extend(
            {
                "nodeId": n.node_id,
                "docId": n.doc_id,
                "title": n.title,
                "content": n.content,
                "type": n.kind,
                "level": n.level,
                "parentId": n.parent_id,
                "span": list(n.span),
                "createdAt": n.created_at,
                "invalidAt": n.invalid_at,
            }
            | ({"scopes": list(n.scopes)} if n.scopes else {})
            for n in doc_nodes
        )
    # The v2 format knows document nodes and their four edge types; the rest goes in the
    # extension (a plain v2 file gets its evidence layer rebuilt from the text on load).
    edges = [
        {"from": e.source, "to": e.target, "weight": e.weight, "type": e.type}
        for e in store.iter_edges(V2_EDGE_TYPES)
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "documents": documents,
        "nodes": nodes,
        "edges": edges,
        KEY: extension_to_json(store),
    }


def _need(item: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = item.get(key)
    if not isinstance(value, kind):
        raise FormatError(f"{where}: field {key!r} is missing or has the wrong type")
    return value


def _scopes(item: Mapping[str, Any], where: str) -> tuple[str, ...]:
    scopes = item.get("scopes", [])
    if not isinstance(scopes, list) or not all(isinstance(x, str) for x in scopes):
        raise FormatError(f"{where}: scopes must be a list of strings")
    return tuple(scopes)


def documents_from_json(data: Any) -> list[ParsedDocument]:
    """Parse a saved graph into documents with their nodes and edges, checking every field."""
    if not isinstance(data, Mapping):
        raise FormatError("a saved graph must be a JSON object")
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise FormatError(
            f"not a graph-of-thought v2 file (format={data.get('format')!r}, "
            f"version={data.get('version')!r}); export it again with groundgraph export"
        )
    for key in ("documents", "nodes", "edges"):
        if not isinstance(data.get(key), list):
            raise FormatError(f"a saved graph needs a list under {key!r}")
    nodes_by_doc: dict[str, list[Node]] = defaultdict(list)
    owner: dict[str, str] = {}
    for i, item in enumerate(data["nodes"]):
        where = f"nodes[{i}]"
        if not isinstance(item, Mapping):
            raise FormatError(f"{where} must be an object")
        kind = _need(item, "type", str, where)
        if kind not in NODE_KINDS:
            raise FormatError(f"{where}: unknown node type {kind!r}")
        parent = item.get("parentId")
        if parent is not None and not isinstance(parent, str):
            raise FormatError(f"{where}: parentId must be a string or null")
        span = item.get("span", [0, 0])
        if not (
            isinstance(span, list) and len(span) == 2 and all(isinstance(x, int) for x in span)
        ):
            raise FormatError(f"{where}: span must be two integers")
        level = item.get("level", 0)
        if not isinstance(level, int):
            raise FormatError(f"{where}: level must be an integer")
        created, invalid = item.get("createdAt") or "", item.get("invalidAt")
        if not isinstance(created, str) or not (invalid is None or isinstance(invalid, str)):
            raise FormatError(f"{where}: createdAt and invalidAt must be strings")
        node = Node(
            node_id=_need(item, "nodeId", str, where),
            doc_id=_need(item, "docId", str, where),
            kind=kind,
            title=_need(item, "title", str, where),
            content=_need(item, "content", str, where),
            level=level,
            parent_id=parent,
            span=(span[0], span[1]),
            scopes=_scopes(item, where),
            created_at=created,
            invalid_at=invalid,
        )
        if node.node_id in owner:
            raise FormatError(f"{where}: node id {node.node_id!r} appears twice")
        owner[node.node_id] = node.doc_id
        nodes_by_doc[node.doc_id].append(node)
    edges_by_doc: dict[str, list[Edge]] = defaultdict(list)
    for i, item in enumerate(data["edges"]):
        where = f"edges[{i}]"
        if not isinstance(item, Mapping):
            raise FormatError(f"{where} must be an object")
        source = _need(item, "from", str, where)
        target = _need(item, "to", str, where)
        kind = _need(item, "type", str, where)
        weight = _need(item, "weight", (int, float), where)
        if kind not in EDGE_TYPES or source not in owner or target not in owner:
            raise FormatError(f"{where}: unknown edge type or an end that is not a node")
        edges_by_doc[owner[source]].append(Edge(source, target, kind, float(weight), (source,)))
    parsed = []
    for i, item in enumerate(data["documents"]):
        where = f"documents[{i}]"
        if not isinstance(item, Mapping):
            raise FormatError(f"{where} must be an object")
        doc_id = _need(item, "docId", str, where)
        description = item.get("description") or ""
        added = item.get("addedAt") or ""
        source, digest = item.get("source") or "", item.get("contentHash") or ""
        if not all(isinstance(x, str) for x in (description, added, source, digest)):
            raise FormatError(
                f"{where}: description, addedAt, source and contentHash must be strings"
            )
        order = {n: k for k, n in enumerate(item.get("nodeIds") or [])}
        doc_nodes = sorted(
            nodes_by_doc.get(doc_id, []), key=lambda n: order.get(n.node_id, 1 << 30)
        )
        title = _need(item, "title", str, where)
        scopes = _scopes(item, where)
        document = Document(doc_id, title, description, source, digest, scopes, added)
        document = replace(
            document, metadata=_metadata(item, where), ingest=_optional(item, "ingest", where)
        )
        parsed.append(ParsedDocument(document, doc_nodes, edges_by_doc.get(doc_id, []), [], ""))
    known = {p.document.doc_id for p in parsed}
    stray = sorted(set(nodes_by_doc) - known)
    if stray:
        raise FormatError(f"nodes name documents that are not listed: {', '.join(stray[:5])}")
    return parsed


def saved_graph(data: Any) -> tuple[list[ParsedDocument], SavedExtension | None]:
    """The documents of a saved graph and what its ``"groundgraph"`` key adds, checked."""
    parsed = documents_from_json(data)
    owner = {n.node_id: p.document.doc_id for p in parsed for n in p.nodes}
    return parsed, extension_from_json(data, owner)


def _metadata(item: Mapping[str, Any], where: str) -> tuple[tuple[str, str], ...]:
    """A saved document's front-matter fields: a list of [key, value] string pairs."""
    raw = item.get("metadata") or []
    ok = isinstance(raw, list) and all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in raw
    )
    if not ok:
        raise FormatError(f"{where}.metadata must be a list of [key, value] string pairs")
    return tuple((str(k), str(v)) for k, v in raw)


def _optional(item: Mapping[str, Any], key: str, where: str) -> str:
    value = item.get(key) or ""
    if not isinstance(value, str):
        raise FormatError(f"{where}.{key} must be a string")
    return value
