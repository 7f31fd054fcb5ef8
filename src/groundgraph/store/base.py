"""The Store protocol: the one place documents, nodes and edges live.

Every store keeps whole documents: a document is written or removed in one transaction,
so a crash never leaves half of one. Each write bumps a store-wide ``generation`` and logs
the document id it touched, so a process can tell that its derived indexes are stale and
refresh only what changed. Derived data (index snapshots) is kept as named blobs tagged
with the generation they were made at.

``Store`` holds one part per small protocol; a backend implements the parts and is
tested against them one at a time (``tests/store/conformance``)::

    Store
    ├── writes     DocumentWrites   replace_document, add_edges, remove_document, batch
    ├── reads      GraphReads       documents, nodes, edges, walk_arcs, counts
    ├── changes    ChangeLog        generation, changed_documents
    ├── settings   Settings         get_setting, set_setting
    ├── blobs      Blobs            load_blob, save_blob
    ├── ledger     FactLedger       update_facts, fact events, conflicts, access times
    ├── vectors    NodeVectors      save_vectors, load_vectors, vector_count
    ├── packing    StorePacking     stored_bytes, pack
    ├── read_only  whether every write is refused (an open only to read)
    └── close()
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from groundgraph.model.store_records import (
    ConflictRecord,
    FactEvent,
    FactSnapshot,
    FactUpdate,
    PendingLink,
    Removal,
    StoreCounts,
)
from groundgraph.store.blobs import Blobs, Settings
from groundgraph.store.changes import ChangeLog
from groundgraph.store.ledger import FactLedger
from groundgraph.store.packing import StorePacking
from groundgraph.store.reads import GraphReads, WalkArc
from groundgraph.store.vectors import NodeVectors, StoredVectors
from groundgraph.store.writes import DocumentWrites

__all__ = [
    "Blobs",
    "ChangeLog",
    "ConflictRecord",
    "DocumentWrites",
    "FactEvent",
    "FactLedger",
    "FactSnapshot",
    "FactUpdate",
    "GraphReads",
    "NodeVectors",
    "PendingLink",
    "Removal",
    "Settings",
    "Store",
    "StoreCounts",
    "StorePacking",
    "StoredVectors",
    "WalkArc",
]


@runtime_checkable
class Store(Protocol):
    """Persistent home of the graph. Implementations: SQLite (default), PostgreSQL."""

    @property
    def writes(self) -> DocumentWrites: ...

    @property
    def reads(self) -> GraphReads: ...

    @property
    def changes(self) -> ChangeLog: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def blobs(self) -> Blobs: ...

    @property
    def ledger(self) -> FactLedger: ...

    @property
    def vectors(self) -> NodeVectors: ...

    @property
    def packing(self) -> StorePacking: ...

    @property
    def read_only(self) -> bool:
        """True when the store was opened only to read: every write raises StoreError."""
        ...

    def close(self) -> None:
        """Release the store; any later call raises :class:`~groundgraph.errors.StoreError`.
        Closing twice is harmless."""
        ...
