"""What a read as some scopes may see of the documents: which documents, nodes and edges.

The rule is the memory's (``memory.scopes``): a document is readable from a query scope
when one of the document's scopes is that scope or one of its ancestors; a document with
no scopes is read only by a read that names no scopes. Under it:

- a section, chunk or root node is seen when its document is readable;
- an edge is seen when both its ends, every section that asserts it and every section a
  span of it cites are seen (an entity end counts as seen here: it has no text);
- an entity node (``entity:…``) is seen when one of its edges is: an entity named only in
  documents the read may not see does not exist for it;
- of the scopes a record names, only those the read may read are shown
  (``ScopeReader.shown``): a document shared with another tenant never names its scope.

The views (``node``, ``show``, ``outline``, ``bridge``, ``ground``, ``why_not``) answer
an id the read may not see exactly as they answer an id no store holds.

    scope = document_scope(store, ["acme/alice"])    # None for a read of everything
    scope.node("handbook#2"), scope.edge(edge)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from groundgraph.memory.scopes import ScopeReader, check_scopes, query_scopes
from groundgraph.model import Document, Edge
from groundgraph.model.ids import doc_id_of, is_entity_id
from groundgraph.model.valid_text import has_surrogates
from groundgraph.store import Store

if TYPE_CHECKING:  # a read never parses: the parsed record's module loads with the writer
    from groundgraph.ingest import ParsedDocument


class DocumentScope:
    """The documents, nodes and edges a read as ``scopes`` may see (module docstring).

    A document's scopes are read from the store when first asked about (a view touches a
    few documents); ``documents``, when given, are every document the store holds, read
    once for a read that asks about many."""

    def __init__(
        self, store: Store, scopes: str | Iterable[str], documents: Iterable[Document] | None = None
    ) -> None:
        self.store = store
        self.reader = ScopeReader(query_scopes(scopes))
        self._complete = documents is not None
        self._documents = {d.doc_id: self.reader.reads(d.scopes) for d in documents or ()}
        self._entities: dict[str, bool] = {}

    def document(self, doc_id: str) -> bool:
        """Whether the read may see the document ``doc_id``."""
        seen = self._documents.get(doc_id)
        if seen is None:
            held = None
            if not self._complete and not has_surrogates(doc_id):
                held = self.store.reads.get_document(doc_id)
            seen = self._documents[doc_id] = held is not None and self.reader.reads(held.scopes)
        return seen

    def shown(self, scopes: tuple[str, ...]) -> tuple[str, ...]:
        """The scope names of a record the read may be shown."""
        return self.reader.shown(scopes)

    def _walkable(self, node_id: str) -> bool:
        # Entity nodes carry no text of their own: an edge's entity end is no reason to hide it.
        return is_entity_id(node_id) or self.document(doc_id_of(node_id))

    def edge(self, edge: Edge) -> bool:
        """Whether the read may see ``edge``: its ends and every section behind it."""
        ends = (edge.source, edge.target, *edge.sources, *(span[0] for span in edge.spans))
        return all(self._walkable(n) for n in ends)

    def node(self, node_id: str) -> bool:
        """Whether the read may see the node ``node_id`` (an entity: one of its edges)."""
        if not is_entity_id(node_id):
            return self.document(doc_id_of(node_id))
        seen = self._entities.get(node_id)
        if seen is None:
            edges = self.store.reads.edges_touching([node_id])
            seen = self._entities[node_id] = any(self.edge(e) for e in edges)
        return seen


def document_scope(store: Store, scopes: str | Iterable[str] | None) -> DocumentScope | None:
    """The scope of a read as ``scopes``; None for a read of everything (no scopes)."""
    return None if scopes is None else DocumentScope(store, scopes)


def with_scopes(parsed: ParsedDocument, scopes: str | Iterable[str] | None) -> ParsedDocument:
    """``parsed`` readable by ``scopes`` (checked): its document and every node carry them."""
    readers = check_scopes(scopes)
    if not readers:
        return parsed
    return replace(
        parsed,
        document=replace(parsed.document, scopes=readers),
        nodes=[replace(node, scopes=readers) for node in parsed.nodes],
    )
