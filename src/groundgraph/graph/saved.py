"""Saved graphs in the graph-of-thought v2 JSON format.

``{"format": "graph-of-thought", "version": 2, "documents": [...], "nodes": [...],
"edges": [...]}``; see docs/saved-graphs.md. Nodes also carry ``span`` (our addition,
ignored by readers that do not know it). Anything else is refused with a FormatError.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from groundgraph.errors import FormatError
from groundgraph.ingest import ParsedDocument
from groundgraph.records import EDGE_TYPES, NODE_KINDS, Document, Edge, Node
from groundgraph.store.base import Store

V2_EDGE_TYPES = ("parent-child", "next", "reference", "semantic")
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
            }
            for n in doc_nodes
        )
    # The v2 format knows document nodes and their four edge types; the evidence layer
    # (entities, mentions, co-occurrence, relations) is rebuilt from the text on load.
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
    }


def _need(item: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = item.get(key)
    if not isinstance(value, kind):
        raise FormatError(f"{where}: field {key!r} is missing or has the wrong type")
    return value


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
        node = Node(
            node_id=_need(item, "nodeId", str, where),
            doc_id=_need(item, "docId", str, where),
            kind=kind,
            title=_need(item, "title", str, where),
            content=_need(item, "content", str, where),
            level=level,
            parent_id=parent,
            span=(span[0], span[1]),
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
        if not isinstance(description, str) or not isinstance(added, str):
            raise FormatError(f"{where}: description and addedAt must be strings")
        order = {n: k for k, n in enumerate(item.get("nodeIds") or [])}
        doc_nodes = sorted(
            nodes_by_doc.get(doc_id, []), key=lambda n: order.get(n.node_id, 1 << 30)
        )
        document = Document(doc_id, _need(item, "title", str, where), description, added_at=added)
        parsed.append(ParsedDocument(document, doc_nodes, edges_by_doc.get(doc_id, []), [], ""))
    known = {p.document.doc_id for p in parsed}
    stray = sorted(set(nodes_by_doc) - known)
    if stray:
        raise FormatError(f"nodes name documents that are not listed: {', '.join(stray[:5])}")
    return parsed
