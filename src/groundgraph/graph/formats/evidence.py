"""The whole graph with provenance, as JSON: what ``groundgraph graph`` writes.

Unlike the saved-graph format, this keeps everything: entity nodes, every edge type,
each edge's owning sections (``sources``), its sentence spans and relation labels.
"""

from __future__ import annotations

from typing import Any

from groundgraph.store.base import Store

FORMAT = "groundgraph-evidence"
VERSION = 1


def evidence_graph(store: Store) -> dict[str, Any]:
    """Nodes (documents' nodes, then entities) and edges with their provenance."""
    nodes: list[dict[str, Any]] = []
    for document in store.reads.documents():
        for n in store.reads.document_nodes(document.doc_id):
            nodes.append(_node(n.node_id, n.doc_id, n.kind, n.title, n.content, n.span))
    for n in store.reads.entity_nodes():
        nodes.append(_node(n.node_id, None, n.kind, n.title, None, None))
    edges = [
        {
            "from": e.source,
            "to": e.target,
            "type": e.type,
            "weight": e.weight,
            "label": e.label,
            "sources": list(e.sources),
            "spans": [{"nodeId": n, "start": s, "end": t} for n, s, t in e.spans],
            "createdAt": e.created_at,
            "invalidAt": e.invalid_at,
        }
        for e in store.reads.iter_edges()
    ]
    return {"format": FORMAT, "version": VERSION, "nodes": nodes, "edges": edges}


def _node(
    node_id: str,
    doc_id: str | None,
    kind: str,
    title: str,
    content: str | None,
    span: tuple[int, int] | None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"nodeId": node_id, "type": kind, "title": title}
    if doc_id is not None:
        out["docId"] = doc_id
    if content is not None:
        out["content"] = content
    if span is not None:
        out["span"] = list(span)
    return out
