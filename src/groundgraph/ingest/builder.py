"""Turning spans of a source text into nodes: ids, chunk parts and their structure edges."""

from __future__ import annotations

from groundgraph.ingest.chunks import chunk_spans, strip_span
from groundgraph.ingest.edges import EdgeSet
from groundgraph.model import NEXT, PARENT_CHILD, Node


class NodeBuilder:
    """Makes the nodes of one document in creation order, chunking long bodies.

    Node ids are ``f"{doc_id}#{n}"``, n counting from 1; a node's chunk parts take the ids
    right after its own. The root's id is the ``doc_id`` itself.
    """

    def __init__(self, source: str, doc_id: str, max_chunk_chars: int) -> None:
        self.source = source
        self.doc_id = doc_id
        self.max_chunk_chars = max_chunk_chars
        self.nodes: list[Node] = []
        self.edges = EdgeSet()
        self._count = 0

    def _next_id(self) -> str:
        self._count += 1
        return f"{self.doc_id}#{self._count}"

    def add_root(self, title: str, start: int, end: int, description: str = "") -> str:
        """Add the root for ``source[start:end]``, or for ``description`` when that is blank."""
        start, end = strip_span(self.source, start, end)
        if start == end and description:
            node = Node(
                self.doc_id, self.doc_id, "document", title, description, 0, None, (start, end)
            )
            self.nodes.append(node)
            return self.doc_id
        return self._add(self.doc_id, "document", title, 0, None, start, end)

    def add_section(self, title: str, level: int, parent_id: str, start: int, end: int) -> str:
        """Add a section whose body is ``source[start:end]``, under ``parent_id``."""
        return self._add(self._next_id(), "section", title, level, parent_id, start, end)

    def _add(
        self,
        node_id: str,
        kind: str,
        title: str,
        level: int,
        parent_id: str | None,
        start: int,
        end: int,
    ) -> str:
        spans = chunk_spans(self.source, start, end, self.max_chunk_chars)
        self._append(node_id, kind, title, level, parent_id, spans[0])
        previous = node_id
        total = len(spans)
        for part, span in enumerate(spans[1:], start=2):
            chunk_id = self._next_id()
            chunk_title = f"{title} (part {part}/{total})"
            self._append(chunk_id, "chunk", chunk_title, level + 1, node_id, span)
            self.edges.link(previous, chunk_id, NEXT)
            previous = chunk_id
        return node_id

    def _append(
        self,
        node_id: str,
        kind: str,
        title: str,
        level: int,
        parent_id: str | None,
        span: tuple[int, int],
    ) -> None:
        content = self.source[span[0] : span[1]]
        self.nodes.append(Node(node_id, self.doc_id, kind, title, content, level, parent_id, span))
        if parent_id is not None:
            self.edges.link(parent_id, node_id, PARENT_CHILD)
