"""The Store protocol: the one place documents, nodes and edges live.

Every store keeps whole documents: a document is written or removed in one transaction,
so a crash never leaves half of one. Each write bumps a store-wide ``generation`` and logs
the document id it touched, so a process can tell that its derived indexes are stale and
refresh only what changed. Derived data (index snapshots) is kept as named blobs tagged
with the generation they were made at.

``Store`` is the union of the small protocols a backend implements and is tested against
one at a time (``tests/store/conformance``)::

    Store
    ├── DocumentWrites   replace_document, add_edges, remove_document    (store.writes)
    ├── GraphReads       documents, nodes, edges, walk_arcs, counts      (store.reads)
    ├── ChangeLog        generation, changed_documents                   (store.changes)
    ├── Settings         get_setting, set_setting                        (store.blobs)
    ├── Blobs            load_blob, save_blob                            (store.blobs)
    ├── FactLedger       update_facts, fact events, conflicts, access    (store.ledger)
    ├── NodeVectors      save_vectors, load_vectors, vector_count        (store.vectors)
    └── close
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
    "StoredVectors",
    "WalkArc",
]


@runtime_checkable
class Store(
    DocumentWrites, GraphReads, ChangeLog, Settings, Blobs, FactLedger, NodeVectors, Protocol
):
    """Persistent home of the graph. Implementations: SQLite (default), PostgreSQL."""

    def close(self) -> None:
        """Release the store; any later call raises :class:`~groundgraph.errors.StoreError`.
        Closing twice is harmless."""
        ...
