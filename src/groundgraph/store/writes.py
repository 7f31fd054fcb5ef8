"""The DocumentWrites protocol: how documents, their nodes and edges get into a store.

A document is the unit of writing: each call below is one transaction (SQLite opens it
with ``BEGIN IMMEDIATE``; inside ``batch``, a savepoint of the batch's transaction), so
a crash or an error leaves the store as it was before the call, never with half a
document. Each call that changes anything bumps the store-wide generation by exactly one
and logs the document id it touched (see :class:`~groundgraph.store.changes.ChangeLog`).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Protocol, runtime_checkable

from groundgraph.model import Document, Edge, Node
from groundgraph.model.store_records import PendingLink, Removal

__all__ = ["DocumentWrites"]


@runtime_checkable
class DocumentWrites(Protocol):
    """Whole-document writes: replace, extend with edges, remove."""

    def replace_document(
        self,
        document: Document,
        nodes: Sequence[Node],
        edges: Sequence[Edge],
        pending: Sequence[PendingLink] = (),
        entities: Sequence[Node] = (),
    ) -> tuple[int, Removal | None]:
        """Write a document, replacing any with the same id, in one transaction.

        ``nodes`` keep the order given (root first); the document goes after every other
        document in :meth:`~groundgraph.store.reads.GraphReads.documents`, also when it
        replaces one. ``entities`` are shared nodes (kind ``entity``) that belong to no
        document: each is added unless it exists already (then it keeps the shortest
        spelling, the one that sorts first of those: ``model.ids.spelling_order``, so the
        order of writes does not show), and
        it goes when the last edge that touches it goes.

        ``edges`` may touch nodes of other documents; they belong to this document and
        go when it goes. ``pending`` are links waiting for a target that does not exist
        yet. Returns the new generation (one bump) and what the replacement removed.
        """
        ...

    def add_edges(self, doc_id: str, edges: Sequence[Edge], entities: Sequence[Node] = ()) -> int:
        """Add edges (and shared entity nodes) owned by an existing document, in one
        transaction; returns the new generation (one bump). An unknown ``doc_id`` raises
        :class:`~groundgraph.errors.NotFoundError` and changes nothing."""
        ...

    def replace_typed_edges(
        self,
        doc_id: str,
        types: Sequence[str],
        edges: Sequence[Edge],
        entities: Sequence[Node] = (),
    ) -> int:
        """Replace the edges of these ``types`` that document ``doc_id`` owns with
        ``edges`` (and the shared ``entities`` they need, as ``replace_document`` adds
        them), in one transaction and one generation bump logged as a change of
        ``doc_id``; an entity no edge touches any more goes. Returns the new generation;
        an unknown ``doc_id`` raises :class:`~groundgraph.errors.NotFoundError`."""
        ...

    def replace_node_edges(self, node_id: str, edge_type: str, edges: Sequence[Edge]) -> int:
        """Replace the edges of ``edge_type`` that leave node ``node_id`` (whichever
        document owns them) with ``edges`` (each from that node, of that type, to a stored
        node), owned by the node's document, in one transaction and one generation bump
        logged as a change of that document; returns the new generation. A node of no
        stored document raises :class:`~groundgraph.errors.NotFoundError`."""
        ...

    def replace_derived_edges(self, edge_type: str, edges: Sequence[Edge]) -> int:
        """Replace every edge of ``edge_type`` with ``edges`` (all of that type, between
        stored nodes), in one transaction and one generation bump logged as a change of no
        document (``""``); returns the new generation. An edge between two nodes that an
        edge of another type joins already is left out: a pair keeps one edge. Such edges
        are derived from the whole graph (semantic links): each belongs to its source
        node's document, and goes when that document goes or touches a node that goes."""
        ...

    def remove_document(self, doc_id: str) -> Removal | None:
        """Remove a document, its nodes, its pending links, every edge it owns or that
        touches its nodes, and every entity no edge touches any more, in one transaction
        and one generation bump. An unknown ``doc_id`` returns None and bumps nothing."""
        ...

    def batch(self) -> AbstractContextManager[None]:
        """A block whose writes share one transaction (bulk indexing: fewer commits). Each
        write in it is still whole, with its own generation bump; the block commits the
        writes that finished, also when it raises, and other processes see them when it
        ends. Nested blocks join the outer one."""
        ...

    def filling(self) -> AbstractContextManager[None]:
        """A block of many writes into a store that holds no edges yet (a first
        ``groundgraph index``): the store may build its lookups of edges by node once, when
        the block ends, instead of an entry at a time. What is read meanwhile is right but
        may be slow; a process killed inside the block leaves them to be built when the
        store is next opened to write. Not nested, and not inside ``batch``."""
        ...
