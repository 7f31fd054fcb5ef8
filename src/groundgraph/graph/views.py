"""Views of DocumentGraph's contents: its documents, a document's outline, one node with
its links, and counts.
A mixin over the parts of the graph it reads."""

from __future__ import annotations

from typing import Any, Protocol

from groundgraph.errors import NotFoundError
from groundgraph.index.bm25 import LexicalIndex
from groundgraph.model import PARENT_CHILD, Node
from groundgraph.store import Store, StoreCounts


class _GraphParts(Protocol):
    store: Store
    index: LexicalIndex
    settings: Any
    _generation: int

    def _sync(self) -> None: ...

    def node(self, node_id: str) -> Node: ...


class ViewVerbs:
    """``documents``, ``outline``, ``show`` and ``stats``, mixed into DocumentGraph."""

    def outline(self: _GraphParts, doc_id: str, max_depth: int = 6) -> str:
        """A document's table of contents, one ``- [nodeId] title`` line per node."""
        nodes = self.store.document_nodes(doc_id)
        if not nodes:
            raise NotFoundError(f"unknown document {doc_id!r}: list documents with stats")
        depth: dict[str, int] = {}
        lines = []
        for node in nodes:
            d = 0 if node.parent_id is None else depth.get(node.parent_id, 0) + 1
            depth[node.node_id] = d
            if d <= max_depth:
                lines.append(f"{'  ' * d}- [{node.node_id}] {node.title}")
        return "\n".join(lines)

    def show(self: _GraphParts, node_id: str) -> dict[str, Any]:
        """A node with its parent, children and other links."""
        node = self.node(node_id)
        edges = self.store.edges_touching([node_id])
        others = {e.target if e.source == node_id else e.source for e in edges}
        titles = {n.node_id: n.title for n in self.store.get_nodes(sorted(others)).values()}
        children = [e.target for e in edges if e.type == PARENT_CHILD and e.source == node_id]
        links = [
            {
                "nodeId": e.target if e.source == node_id else e.source,
                "title": titles.get(e.target if e.source == node_id else e.source, ""),
                "type": e.type,
                "direction": "out" if e.source == node_id else "in",
                "weight": e.weight,
            }
            for e in edges
            if e.type != PARENT_CHILD
        ]
        return {
            "nodeId": node.node_id,
            "docId": node.doc_id,
            "title": node.title,
            "type": node.kind,
            "level": node.level,
            "content": node.content,
            "span": list(node.span),
            "parentId": node.parent_id,
            "parentTitle": titles.get(node.parent_id or ""),
            "children": [{"nodeId": c, "title": titles.get(c, "")} for c in children],
            "links": links,
        }

    def documents(self: _GraphParts) -> list[dict[str, Any]]:
        """Every document: id, title, description, source and node count."""
        counts = self.store.node_counts()
        return [
            {
                "docId": d.doc_id,
                "title": d.title,
                "description": d.description,
                "source": d.source,
                "addedAt": d.added_at,
                "nodes": counts.get(d.doc_id, 0),
            }
            for d in self.store.documents()
        ]

    def stats(self: _GraphParts) -> dict[str, Any]:
        counts: StoreCounts = self.store.counts()
        self._sync()
        return {
            "documents": counts.documents,
            "nodes": counts.nodes,
            "edges": counts.edges,
            "edgeTypes": counts.edge_types,
            "terms": sum(1 for t in self.index.terms if self.index.df(t) > 0),
            "language": self.settings.language,
            "generation": self._generation,
        }
