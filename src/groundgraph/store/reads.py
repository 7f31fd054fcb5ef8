"""The GraphReads protocol: documents, nodes and edges read back out of a store.

Reads see whole documents only (a write is one transaction). Orders are part of the
contract, because rankings break ties by them: documents in order of their last write,
a document's nodes in the order they were written, entities in the order they were
first added, edges in the order they were added.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from groundgraph.model import Document, Edge, Node
from groundgraph.model.ids import ENTITY_PREFIX
from groundgraph.model.store_records import DocumentPage, DocumentQuery, PendingLink, StoreCounts

if TYPE_CHECKING:  # numpy arrays: loaded by the stores when they read them
    from groundgraph.store.edge_columns import EdgeColumns

__all__ = ["GraphReads", "WalkArc"]

# (node, other end, edge type, weight, against the edge's direction, node's degree)
WalkArc = tuple[str, str, str, float, bool, int]


@runtime_checkable
class GraphReads(Protocol):
    """The read side of the graph: what the indexes, the walk and the facade read."""

    def get_document(self, doc_id: str) -> Document | None:
        """The document with this id, or None."""
        ...

    def documents(self) -> list[Document]:
        """Every document, in order of its last write."""
        ...

    def node_counts(self, doc_ids: Sequence[str] | None = None) -> dict[str, int]:
        """Node count of every document (entities under the empty id ``""``); with
        ``doc_ids``, of those documents only (unknown ids left out)."""
        ...

    def get_nodes(self, node_ids: Sequence[str]) -> dict[str, Node]:
        """The nodes of these ids that exist, by id; unknown ids are left out."""
        ...

    def entity_nodes(self) -> list[Node]:
        """Every entity node, in the order they were first added."""
        ...

    def document_nodes(self, doc_id: str) -> list[Node]:
        """A document's nodes, root first, in creation order; [] for an unknown id."""
        ...

    def iter_nodes(self, batch: int = 5000) -> Iterator[Node]:
        """Every document's nodes, document by document in :meth:`documents` order, in
        creation order, read ``batch`` at a time. Entities are not documents' nodes. The
        pages are of one state of the store: what is written meanwhile is not seen."""
        ...

    def edges_touching(
        self, node_ids: Sequence[str], types: Sequence[str] | None = None, *, leaving: bool = False
    ) -> list[Edge]:
        """Every edge (of ``types``, if given) with an end in ``node_ids`` (with
        ``leaving``, its source), each once, in the order added."""
        ...

    def owned_edges(self, doc_ids: Sequence[str]) -> list[Edge]:
        """Every edge stored with one of these documents (written with it, by
        ``add_edges`` or ``replace_typed_edges`` on it, or with its fact updates), in the
        order added; unknown ids give none. A reader that keeps edges can re-read, after a
        change of these documents, only the nodes their edges touch."""
        ...

    def walk_arcs(
        self,
        node_ids: Sequence[str],
        max_fanout: int,
        hub_prefix: str = ENTITY_PREFIX,
        weakest: float = 0.0,
        max_fan_in: int | None = None,
    ) -> list[WalkArc]:
        """The steps out of ``node_ids`` over valid edges (``invalid_at`` unset, no
        self-loops), in the light form the walk reads: (node, other end, type, weight,
        against the edge's direction, number of steps out of the node).

        A node whose id starts with ``hub_prefix`` and that has more than ``max_fanout``
        edges (valid or not) is a hub too common to say anything: it gives no steps.
        Other nodes give only their steps of weight ``weakest`` or more (the walk cannot
        use lighter ones), and their count is of the steps given; a node with the hub
        prefix gives all its steps, so that its count is its degree. With ``max_fan_in``,
        a node without the hub prefix that more than ``max_fan_in`` edges (valid or not)
        point to gives no steps back along them (a page a thousand pages name says
        nothing about any one of them); its steps along its own edges still come.
        """
        ...

    def iter_edges(self, types: Sequence[str] | None = None) -> Iterator[Edge]:
        """Every edge, or every edge of these types, in the order they were added; of one
        state of the store, as :meth:`iter_nodes`."""
        ...

    def edge_columns(self) -> EdgeColumns:
        """Every edge and every node id, of one state of the store, as columns (in no
        promised order): what :meth:`walk_arcs` reads, all at once, for a process that
        walks often enough to keep it in memory."""
        ...

    def pending_links_to(self, targets: Sequence[str]) -> list[PendingLink]:
        """The pending links waiting for any of ``targets``, in the order written."""
        ...

    def document_page(
        self,
        query: DocumentQuery,
        after: tuple[str, str] | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> DocumentPage:
        """Up to ``limit`` documents matching ``query``, ordered by (``added_at``,
        ``doc_id``), from the first after the key ``after`` (else the first), ``offset``
        matches skipped: the store filters and counts, so a page costs what its matches
        cost, not what the whole store holds."""
        ...

    def scope_names(
        self, query: DocumentQuery, after: str | None = None, limit: int | None = None
    ) -> list[str]:
        """The distinct scope names of the documents matching ``query`` that match its
        ``names`` and ``prefixes`` themselves (every name when ``names`` is None), sorted
        by code point, those after ``after`` only, at most ``limit``."""
        ...

    def counts(self) -> StoreCounts:
        """How many documents, nodes (entities included) and edges, edges by type."""
        ...
