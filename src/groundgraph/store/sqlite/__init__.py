"""The embedded default store: one SQLite file (or ``:memory:``).

``SQLiteStore`` is composed of one part per protocol of :mod:`groundgraph.store.base`,
all over one shared :class:`~groundgraph.store.sqlite.connection.Database`, and
delegates each method in one line::

    connection.py  Database: open, WAL, migrations, BEGIN IMMEDIATE, the lock
    schema.py      numbered migrations (PRAGMA user_version)
    rows.py        column lists, row decoders, the edge writer, hand-written JSON
    changes.py     SQLiteChangeLog      (ChangeLog)
    blobs.py       SQLiteSettings, SQLiteBlobs   (Settings, Blobs)
    writes.py      SQLiteDocumentWrites (DocumentWrites)
    reads.py       SQLiteGraphReads     (GraphReads)
    ledger.py      SQLiteFactLedger     (FactLedger)
    vectors.py     SQLiteNodeVectors    (NodeVectors)

All SQLite-specific SQL lives in this package.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

import numpy as np
import numpy.typing as npt

from groundgraph.model import Document, Edge, Node
from groundgraph.model.ids import ENTITY_PREFIX
from groundgraph.model.store_records import (
    ConflictRecord,
    FactEvent,
    FactUpdate,
    PendingLink,
    Removal,
    StoreCounts,
)
from groundgraph.store.blobs import Blobs, Settings
from groundgraph.store.ledger import FactLedger
from groundgraph.store.reads import GraphReads, WalkArc
from groundgraph.store.sqlite.blobs import SQLiteBlobs, SQLiteSettings
from groundgraph.store.sqlite.changes import SQLiteChangeLog
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.ledger import SQLiteFactLedger
from groundgraph.store.sqlite.reads import SQLiteGraphReads
from groundgraph.store.sqlite.vectors import SQLiteNodeVectors
from groundgraph.store.sqlite.writes import SQLiteDocumentWrites
from groundgraph.store.vectors import NodeVectors, StoredVectors
from groundgraph.store.writes import DocumentWrites

__all__ = ["SQLiteStore"]

# The change log keeps at least the last _CHANGES_KEPT generations; it is trimmed once
# every _TRIM_EVERY generations rather than on every write. Read when a store opens.
_CHANGES_KEPT = 50_000
_TRIM_EVERY = 1_000


class SQLiteStore:
    """A :class:`~groundgraph.store.base.Store` in a SQLite file."""

    def __init__(self, path: str | Path = ":memory:", timeout: float = 10.0) -> None:
        self._db = Database(path, timeout)
        self.path = self._db.path
        # Typed by protocol, so mypy checks that each part implements its own.
        settings = SQLiteSettings(self._db)
        self._settings: Settings = settings
        self._blobs: Blobs = SQLiteBlobs(self._db)
        self._changes = SQLiteChangeLog(self._db, settings, _CHANGES_KEPT, _TRIM_EVERY)
        self._writes: DocumentWrites = SQLiteDocumentWrites(self._db, self._changes)
        self._reads: GraphReads = SQLiteGraphReads(self._db)
        self._ledger: FactLedger = SQLiteFactLedger(self._db, self._changes)
        self._vectors: NodeVectors = SQLiteNodeVectors(self._db)

    @property
    def _conn(self) -> sqlite3.Connection:
        """The shared connection (tests wrap it to fail a write halfway)."""
        return self._db.conn

    @_conn.setter
    def _conn(self, conn: sqlite3.Connection) -> None:
        self._db.conn = conn

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        return self._db.query(sql, params)

    def close(self) -> None:
        self._db.close()

    def schema_version(self) -> int:
        return self._db.schema_version()

    # Settings, Blobs
    def get_setting(self, key: str) -> str | None:
        return self._settings.get_setting(key)

    def set_setting(self, key: str, value: str) -> None:
        self._settings.set_setting(key, value)

    def load_blob(self, name: str) -> tuple[int, bytes] | None:
        return self._blobs.load_blob(name)

    def save_blob(self, name: str, generation: int, data: bytes) -> None:
        self._blobs.save_blob(name, generation, data)

    # ChangeLog
    def generation(self) -> int:
        return self._changes.generation()

    def changed_documents(self, since: int) -> list[str]:
        return self._changes.changed_documents(since)

    # DocumentWrites
    def replace_document(
        self,
        document: Document,
        nodes: Sequence[Node],
        edges: Sequence[Edge],
        pending: Sequence[PendingLink] = (),
        entities: Sequence[Node] = (),
    ) -> tuple[int, Removal | None]:
        return self._writes.replace_document(document, nodes, edges, pending, entities)

    def add_edges(self, doc_id: str, edges: Sequence[Edge], entities: Sequence[Node] = ()) -> int:
        return self._writes.add_edges(doc_id, edges, entities)

    def batch(self) -> AbstractContextManager[None]:
        return self._writes.batch()

    def remove_document(self, doc_id: str) -> Removal | None:
        return self._writes.remove_document(doc_id)

    # GraphReads
    def get_document(self, doc_id: str) -> Document | None:
        return self._reads.get_document(doc_id)

    def documents(self) -> list[Document]:
        return self._reads.documents()

    def node_counts(self) -> dict[str, int]:
        return self._reads.node_counts()

    def get_nodes(self, node_ids: Sequence[str]) -> dict[str, Node]:
        return self._reads.get_nodes(node_ids)

    def entity_nodes(self) -> list[Node]:
        return self._reads.entity_nodes()

    def document_nodes(self, doc_id: str) -> list[Node]:
        return self._reads.document_nodes(doc_id)

    def iter_nodes(self, batch: int = 5000) -> Iterator[Node]:
        return self._reads.iter_nodes(batch)

    def edges_touching(self, node_ids: Sequence[str]) -> list[Edge]:
        return self._reads.edges_touching(node_ids)

    def walk_arcs(
        self,
        node_ids: Sequence[str],
        max_fanout: int,
        hub_prefix: str = ENTITY_PREFIX,
        weakest: float = 0.0,
        max_fan_in: int | None = None,
    ) -> list[WalkArc]:
        return self._reads.walk_arcs(node_ids, max_fanout, hub_prefix, weakest, max_fan_in)

    def iter_edges(self, types: Sequence[str] | None = None) -> Iterator[Edge]:
        return self._reads.iter_edges(types)

    def pending_links_to(self, targets: Sequence[str]) -> list[PendingLink]:
        return self._reads.pending_links_to(targets)

    def counts(self) -> StoreCounts:
        return self._reads.counts()

    # FactLedger
    def update_facts(
        self,
        updates: Sequence[FactUpdate],
        edges: Sequence[tuple[str, Edge]] = (),
        conflicts: Sequence[ConflictRecord] = (),
    ) -> int:
        return self._ledger.update_facts(updates, edges, conflicts)

    def fact_events(self, fact_ids: Sequence[str] | None = None) -> list[FactEvent]:
        return self._ledger.fact_events(fact_ids)

    def conflict_records(self, fact_id: str | None = None) -> list[ConflictRecord]:
        return self._ledger.conflict_records(fact_id)

    def forget_fact_records(self, fact_ids: Sequence[str], ledger: bool = False) -> int:
        return self._ledger.forget_fact_records(fact_ids, ledger)

    def touch(self, node_ids: Sequence[str], at: str) -> None:
        self._ledger.touch(node_ids, at)

    def access_times(self, node_ids: Sequence[str] | None = None) -> dict[str, str]:
        return self._ledger.access_times(node_ids)

    # NodeVectors
    def save_vectors(self, node_ids: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        self._vectors.save_vectors(node_ids, vectors)

    def load_vectors(self, doc_ids: Sequence[str] | None = None) -> StoredVectors:
        return self._vectors.load_vectors(doc_ids)

    def vector_count(self) -> int:
        return self._vectors.vector_count()
