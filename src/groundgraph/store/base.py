"""The Store protocol: the one place documents, nodes and edges live.

Every store keeps whole documents: a document is written or removed in one transaction,
so a crash never leaves half of one. Each write bumps a store-wide ``generation`` and logs
the document id it touched, so a process can tell that its derived indexes are stale and
refresh only what changed. Derived data (index snapshots) is kept as named blobs tagged
with the generation they were made at.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol, runtime_checkable

from groundgraph.model import Document, Edge, Node
from groundgraph.model.store_records import (
    ConflictRecord,
    FactEvent,
    FactSnapshot,
    FactUpdate,
    PendingLink,
    Removal,
    StoreCounts,
)

__all__ = [
    "ConflictRecord",
    "FactEvent",
    "FactSnapshot",
    "FactUpdate",
    "PendingLink",
    "Removal",
    "Store",
    "StoreCounts",
]


@runtime_checkable
class Store(Protocol):
    """Persistent home of the graph. Implementations: SQLite (default), PostgreSQL."""

    def close(self) -> None: ...

    def generation(self) -> int:
        """Counter bumped by every write; equal values mean nothing changed."""
        ...

    def changed_documents(self, since: int) -> list[str]:
        """Ids of documents written or removed after generation ``since``."""
        ...

    def get_setting(self, key: str) -> str | None: ...

    def set_setting(self, key: str, value: str) -> None: ...

    def replace_document(
        self,
        document: Document,
        nodes: Sequence[Node],
        edges: Sequence[Edge],
        pending: Sequence[PendingLink] = (),
        entities: Sequence[Node] = (),
    ) -> tuple[int, Removal | None]:
        """Write a document, replacing any with the same id, in one transaction.

        ``entities`` are shared nodes (kind ``entity``) that belong to no document: each
        is added unless it exists already (its first spelling stays), and it goes when
        the last edge that touches it goes.

        ``edges`` may touch nodes of other documents; they belong to this document and
        go when it goes. Returns the new generation and what the replacement removed.
        """
        ...

    def add_edges(self, doc_id: str, edges: Sequence[Edge], entities: Sequence[Node] = ()) -> int:
        """Add edges (and shared entity nodes) owned by an existing document, in one
        transaction; returns the new generation."""
        ...

    def remove_document(self, doc_id: str) -> Removal | None:
        """Remove a document, its nodes and every edge that touches them."""
        ...

    def get_document(self, doc_id: str) -> Document | None: ...

    def documents(self) -> list[Document]: ...

    def node_counts(self) -> dict[str, int]:
        """Node count of every document."""
        ...

    def get_nodes(self, node_ids: Sequence[str]) -> dict[str, Node]: ...

    def entity_nodes(self) -> list[Node]:
        """Every entity node, in the order they were first added."""
        ...

    def document_nodes(self, doc_id: str) -> list[Node]:
        """A document's nodes, root first, in creation order."""
        ...

    def iter_nodes(self, batch: int = 5000) -> Iterator[Node]:
        """Every node, document by document, in creation order."""
        ...

    def edges_touching(self, node_ids: Sequence[str]) -> list[Edge]:
        """Every edge with an end in ``node_ids``."""
        ...

    def walk_arcs(
        self, node_ids: Sequence[str], max_fanout: int, hub_prefix: str = "entity:"
    ) -> list[tuple[str, str, str, float, bool, int]]:
        """The steps out of ``node_ids`` over valid edges, in the light form the walk reads:
        (node, other end, type, weight, against the edge's direction, node's degree).

        A node whose id starts with ``hub_prefix`` and that has more than ``max_fanout``
        edges is a hub too common to say anything: it gives no steps.
        """
        ...

    def iter_edges(self, types: Sequence[str] | None = None) -> Iterator[Edge]:
        """Every edge, or every edge of these types, in the order they were added."""
        ...

    def pending_links_to(self, targets: Sequence[str]) -> list[PendingLink]: ...

    def counts(self) -> StoreCounts: ...

    def load_blob(self, name: str) -> tuple[int, bytes] | None:
        """A derived blob and the generation it was made at."""
        ...

    def save_blob(self, name: str, generation: int, data: bytes) -> None: ...

    # Memory facts: their history, the contradiction ledger and access times.
    def update_facts(
        self,
        updates: Sequence[FactUpdate],
        edges: Sequence[tuple[str, Edge]] = (),
        conflicts: Sequence[ConflictRecord] = (),
    ) -> int:
        """In one transaction: give each fact document its new scopes (document and nodes)
        and validity (its nodes and the edges it owns), log the updates' events, add
        ``edges`` (each owned by the named document) and append ``conflicts`` to the
        ledger. Returns the new generation."""
        ...

    def fact_events(self, fact_ids: Sequence[str] | None = None) -> list[FactEvent]:
        """The logged events of these facts (all when None), oldest first."""
        ...

    def conflict_records(self, fact_id: str | None = None) -> list[ConflictRecord]:
        """The ledger, oldest first; with ``fact_id`` only the lines that name it."""
        ...

    def forget_fact_records(self, fact_ids: Sequence[str], ledger: bool = False) -> int:
        """Drop the events and access times of these facts, and with ``ledger`` the ledger
        lines that name them; returns how many ledger lines went."""
        ...

    def touch(self, node_ids: Sequence[str], at: str) -> None:
        """Record that these nodes were read at ``at`` (not a graph change: no new
        generation)."""
        ...

    def access_times(self, node_ids: Sequence[str] | None = None) -> dict[str, str]:
        """When each node (of these, or all) was last read, for those ever touched."""
        ...
