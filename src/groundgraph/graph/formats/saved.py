"""Saved graphs in the graph-of-thought v2 JSON format.

``{"format": "graph-of-thought", "version": 2, "documents": [...], "nodes": [...],
"edges": [...]}``; see docs/saved-graphs.md. Our additions, which readers that do not
know them ignore: a node's ``span``, ``createdAt``, ``invalidAt`` and ``scopes``; a
document's ``source``, ``contentHash`` and ``scopes``; the ``"groundgraph"`` key
(``graph.formats.saved_extension``). Anything else is refused with a FormatError, and the
shape of the whole value (JSON types, depth, sizes: ``saved_limits``) is checked before any
field is read, so nothing is built from a value that is not a saved graph.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from itertools import groupby
from typing import Any

from groundgraph.errors import FormatError, InputError
from groundgraph.graph.formats.saved_extension import (
    KEY,
    V2_EDGE_TYPES,
    SavedExtension,
    checked_weight,
    extension_from_json,
    extension_parts,
)
from groundgraph.graph.formats.saved_limits import MAX_ITEMS, check_json_value
from groundgraph.ingest import ParsedDocument
from groundgraph.model import EDGE_TYPES, NODE_KINDS, Document, Edge, Node
from groundgraph.model.ids import check_doc_id
from groundgraph.store.base import Store

FORMAT = "graph-of-thought"
VERSION = 2


def document_json(document: Document, node_ids: Sequence[str]) -> dict[str, Any]:
    """One entry of ``documents``."""
    return (
        {
            "docId": document.doc_id,
            "title": document.title,
            "description": document.description,
            "rootId": document.doc_id,
            "nodeIds": list(node_ids),
            "addedAt": document.added_at,
        }
        | {"source": document.source, "contentHash": document.content_hash}
        | ({"scopes": list(document.scopes)} if document.scopes else {})
        | ({"metadata": [list(p) for p in document.metadata]} if document.metadata else {})
        | ({"ingest": document.ingest} if document.ingest else {})
    )


def node_json(n: Node) -> dict[str, Any]:
    """One entry of ``nodes``."""
    return {
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
    } | ({"scopes": list(n.scopes)} if n.scopes else {})


def edge_json(e: Edge) -> dict[str, Any]:
    """One entry of ``edges``."""
    return {"from": e.source, "to": e.target, "weight": e.weight, "type": e.type}


def saved_parts(store: Store) -> Iterator[tuple[str, Any]]:
    """The members of a saved graph in file order, each list as an iterator over the
    store (read a batch at a time), so a writer can stream them."""
    yield "format", FORMAT
    yield "version", VERSION
    yield "documents", (document_json(d, ids) for d, ids in _documents_with_node_ids(store))
    yield "nodes", (node_json(n) for n in store.reads.iter_nodes())
    # The v2 format knows document nodes and their four edge types; the rest goes in the
    # extension (a plain v2 file gets its evidence layer rebuilt from the text on load).
    yield "edges", (edge_json(e) for e in store.reads.iter_edges(V2_EDGE_TYPES))
    yield KEY, extension_parts(store)


def _documents_with_node_ids(store: Store) -> Iterator[tuple[Document, list[str]]]:
    """Each document with its node ids in order. The ids come from one pass of
    ``iter_nodes`` (pages of its own read, in document order, as ``documents`` lists them)
    rather than a ``document_nodes`` read per document, which pulls every node's text
    through the shared connection (and its memory map: the whole nodes table resident at
    100k sections). A document the pass does not give in its place is read alone."""
    groups = groupby(store.reads.iter_nodes(), key=lambda n: n.doc_id)
    ahead = next(groups, None)
    for document in store.reads.documents():
        if ahead is not None and ahead[0] == document.doc_id:
            yield document, [n.node_id for n in ahead[1]]
            ahead = next(groups, None)
        else:
            yield document, [n.node_id for n in store.reads.document_nodes(document.doc_id)]


def graph_to_json(store: Store) -> dict[str, Any]:
    """The whole graph as a plain dictionary."""

    def whole(value: Any) -> Any:  # the lists, at the top and in the extension
        if isinstance(value, Iterator):
            return list(value)
        if isinstance(value, dict):
            return {k: whole(v) for k, v in value.items()}
        return value

    return {key: whole(value) for key, value in saved_parts(store)}


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


def check_header(data: Mapping[str, Any]) -> None:
    """Refuse anything but the graph-of-thought v2 format."""
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise FormatError(
            f"not a graph-of-thought v2 file (format={data.get('format')!r}, "
            f"version={data.get('version')!r}); export it again with groundgraph export"
        )


def node_from_json(item: Any, where: str) -> Node:
    """One entry of ``nodes``, every field checked."""
    if not isinstance(item, Mapping):
        raise FormatError(f"{where} must be an object")
    kind = _need(item, "type", str, where)
    if kind not in NODE_KINDS:
        raise FormatError(f"{where}: unknown node type {kind!r}")
    parent = item.get("parentId")
    if parent is not None and not isinstance(parent, str):
        raise FormatError(f"{where}: parentId must be a string or null")
    span = item.get("span", [0, 0])
    if not (isinstance(span, list) and len(span) == 2 and all(isinstance(x, int) for x in span)):
        raise FormatError(f"{where}: span must be two integers")
    level = item.get("level", 0)
    if not isinstance(level, int):
        raise FormatError(f"{where}: level must be an integer")
    created, invalid = item.get("createdAt") or "", item.get("invalidAt")
    if not isinstance(created, str) or not (invalid is None or isinstance(invalid, str)):
        raise FormatError(f"{where}: createdAt and invalidAt must be strings")
    node_id, doc_id = _need(item, "nodeId", str, where), _need(item, "docId", str, where)
    # The id scheme (model.ids): a node's id is its document's, or "{doc_id}#{n}"; so are
    # its parent's. A node can then never collide with another document's.
    for name, value in (("nodeId", node_id), ("parentId", parent)):
        if value is not None and value != doc_id and not value.startswith(doc_id + "#"):
            raise FormatError(
                f"{where}: {name} {value[:80]!r} is not {doc_id[:80]!r} or {doc_id[:80]!r}#n"
            )
    return Node(
        node_id=node_id,
        doc_id=doc_id,
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


def check_parent(parent: str | None, owner: Mapping[str, str], where: str) -> None:
    """A node's parent, if it has one, must be a node of the file (of its own document,
    which ``node_from_json`` checks)."""
    if parent is not None and parent not in owner:
        raise FormatError(f"{where}: parentId {parent[:80]!r} is not a node of this graph")


def unknown_end(where: str) -> FormatError:
    return FormatError(f"{where}: unknown edge type or an end that is not a node")


def edge_from_json(item: Any, where: str) -> Edge:
    """One entry of ``edges``, its fields checked (its ends are checked against the nodes
    by the caller, which knows them)."""
    if not isinstance(item, Mapping):
        raise FormatError(f"{where} must be an object")
    source = _need(item, "from", str, where)
    target = _need(item, "to", str, where)
    kind = _need(item, "type", str, where)
    weight = _need(item, "weight", (int, float), where)
    if kind not in EDGE_TYPES:
        raise unknown_end(where)
    return Edge(source, target, kind, checked_weight(weight, where), (source,))


def document_from_json(item: Any, where: str) -> tuple[Document, list[str]]:
    """One entry of ``documents``, and the order of its nodes (``nodeIds``)."""
    if not isinstance(item, Mapping):
        raise FormatError(f"{where} must be an object")
    doc_id = _need(item, "docId", str, where)
    try:
        check_doc_id(doc_id)
    except InputError as exc:
        raise FormatError(f"{where}: {exc}") from None
    description = item.get("description") or ""
    added = item.get("addedAt") or ""
    source, digest = item.get("source") or "", item.get("contentHash") or ""
    if not all(isinstance(x, str) for x in (description, added, source, digest)):
        raise FormatError(f"{where}: description, addedAt, source and contentHash must be strings")
    title = _need(item, "title", str, where)
    document = Document(
        doc_id,
        title,
        description,
        source,
        digest,
        _scopes(item, where),
        added,
        _metadata(item, where),
        _optional(item, "ingest", where),
    )
    order = item.get("nodeIds") or []
    if not isinstance(order, list) or not all(isinstance(n, str) for n in order):
        raise FormatError(f"{where}: nodeIds must be a list of node id strings")
    if len(order) > MAX_ITEMS:
        raise FormatError(f"{where}: {len(order):,} nodeIds, over the limit of {MAX_ITEMS:,}")
    return document, order


def check_listed_once(doc_id: str, listed: set[str], where: str) -> None:
    """A document is listed once: it loads at its place, with the edges that need it."""
    if doc_id in listed:
        raise FormatError(f"{where}: document {doc_id[:80]!r} is listed twice")
    listed.add(doc_id)


def document_ranks(documents: Iterable[Any]) -> dict[str, int]:
    """Each listed document id's place in the file (the order documents load in)."""
    ids = (item.get("docId") for item in documents if isinstance(item, Mapping))
    return {doc_id: i for i, doc_id in enumerate(ids) if isinstance(doc_id, str)}


def later(one: str, other: str, rank: Mapping[str, int]) -> str:
    """Of two documents, the one that loads last: an edge between their nodes loads with
    it, once both ends are stored (the document whose arrival made it, when the graph was
    indexed in the file's order)."""
    return other if rank.get(other, -1) > rank.get(one, -1) else one


def in_saved_order(nodes: Iterable[Node], order: Sequence[str]) -> list[Node]:
    """A document's nodes in the order its ``nodeIds`` give (unlisted ones last, as read)."""
    rank = {n: k for k, n in enumerate(order)}
    return sorted(nodes, key=lambda n: rank.get(n.node_id, 1 << 30))


def stray_documents(named: Iterable[str], known: Collection[str]) -> FormatError | None:
    stray = sorted(set(named) - set(known))
    if not stray:
        return None
    return FormatError(f"nodes name documents that are not listed: {', '.join(stray[:5])}")


def documents_from_json(data: Any) -> list[ParsedDocument]:
    """Parse a saved graph into documents with their nodes and edges, checking its shape
    (``saved_limits``) and then every field."""
    if not isinstance(data, Mapping):
        raise FormatError("a saved graph must be a JSON object")
    check_json_value(data, "the saved graph")
    check_header(data)
    for key in ("documents", "nodes", "edges"):
        if not isinstance(data.get(key), list):
            raise FormatError(f"a saved graph needs a list under {key!r}")
    nodes_by_doc: dict[str, list[Node]] = defaultdict(list)
    owner: dict[str, str] = {}
    for i, item in enumerate(data["nodes"]):
        node = node_from_json(item, f"nodes[{i}]")
        if node.node_id in owner:
            raise FormatError(f"nodes[{i}]: node id {node.node_id!r} appears twice")
        owner[node.node_id] = node.doc_id
        nodes_by_doc[node.doc_id].append(node)
    for i, item in enumerate(data["nodes"]):
        check_parent(item.get("parentId"), owner, f"nodes[{i}]")
    rank = document_ranks(data["documents"])
    edges_by_doc: dict[str, list[Edge]] = defaultdict(list)
    for i, item in enumerate(data["edges"]):
        edge = edge_from_json(item, f"edges[{i}]")
        if edge.source not in owner or edge.target not in owner:
            raise unknown_end(f"edges[{i}]")
        edges_by_doc[later(owner[edge.source], owner[edge.target], rank)].append(edge)
    parsed = []
    listed: set[str] = set()
    for i, item in enumerate(data["documents"]):
        document, order = document_from_json(item, f"documents[{i}]")
        check_listed_once(document.doc_id, listed, f"documents[{i}]")
        doc_nodes = in_saved_order(nodes_by_doc.get(document.doc_id, []), order)
        edges = edges_by_doc.get(document.doc_id, [])
        parsed.append(ParsedDocument(document, doc_nodes, edges, [], ""))
    stray = stray_documents(nodes_by_doc, {p.document.doc_id for p in parsed})
    if stray is not None:
        raise stray
    return parsed


def saved_graph(data: Any) -> tuple[list[ParsedDocument], SavedExtension | None]:
    """The documents of a saved graph and what its ``"groundgraph"`` key adds, checked."""
    parsed = documents_from_json(data)
    owner = {n.node_id: p.document.doc_id for p in parsed for n in p.nodes}
    rank = {p.document.doc_id: i for i, p in enumerate(parsed)}
    return parsed, extension_from_json(data, owner, rank)


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
