"""The embedded default store: one SQLite file (or ``:memory:``).

``SQLiteStore`` is composed of one part per protocol of :mod:`groundgraph.store.base`,
all over one shared :class:`~groundgraph.store.sqlite.connection.Database`, each
an attribute named after its protocol (``store.reads.get_nodes(...)``)::

    connection.py  Database: open, WAL, migrations, BEGIN IMMEDIATE, the lock
    schema.py      numbered migrations (PRAGMA user_version)
    rows.py        column lists, row decoders, the edge writer, hand-written JSON
    edge_layout.py edge type codes and usual weights, a document's edge id runs
    changes.py     SQLiteChangeLog      (ChangeLog)
    blobs.py       SQLiteSettings, SQLiteBlobs   (Settings, Blobs)
    writes.py      SQLiteDocumentWrites (DocumentWrites)
    reads.py       SQLiteGraphReads     (GraphReads)
    edge_scan.py   every edge packed into integers, for edge_columns
    ledger.py      SQLiteFactLedger     (FactLedger)
    vectors.py     SQLiteNodeVectors    (NodeVectors)
    packing.py     SQLitePacking        (StorePacking): VACUUM

All SQLite-specific SQL lives in this package.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from groundgraph.store.blobs import Blobs, Settings
from groundgraph.store.changes import ChangeLog
from groundgraph.store.ledger import FactLedger
from groundgraph.store.packing import StorePacking
from groundgraph.store.reads import GraphReads
from groundgraph.store.sqlite.blobs import SQLiteBlobs, SQLiteSettings
from groundgraph.store.sqlite.changes import SQLiteChangeLog
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.ledger import SQLiteFactLedger
from groundgraph.store.sqlite.packing import SQLitePacking
from groundgraph.store.sqlite.reads import SQLiteGraphReads
from groundgraph.store.sqlite.vectors import SQLiteNodeVectors
from groundgraph.store.sqlite.writes import SQLiteDocumentWrites
from groundgraph.store.vectors import NodeVectors
from groundgraph.store.writes import DocumentWrites

__all__ = ["SQLiteStore"]

# The change log keeps at least the last _CHANGES_KEPT generations; it is trimmed once
# every _TRIM_EVERY generations rather than on every write. Read when a store opens.
_CHANGES_KEPT = 50_000
_TRIM_EVERY = 1_000


class SQLiteStore:
    """A :class:`~groundgraph.store.base.Store` in a SQLite file: its parts over one connection.

    ``read_only=True`` opens an existing store without writing to it (every write is a
    StoreError; reads that note access times skip the note); ``DocumentGraph.open_searcher``
    gives such a store its read-only type."""

    def __init__(
        self, path: str | Path = ":memory:", timeout: float = 10.0, *, read_only: bool = False
    ) -> None:
        self._db = Database(path, timeout, read_only=read_only)
        self.path = self._db.path
        self.read_only = read_only
        # Typed by protocol, so mypy checks that each part implements its own.
        settings = SQLiteSettings(self._db)
        changes = SQLiteChangeLog(self._db, settings, _CHANGES_KEPT, _TRIM_EVERY)
        self.settings: Settings = settings
        self.blobs: Blobs = SQLiteBlobs(self._db)
        self.changes: ChangeLog = changes
        self.writes: DocumentWrites = SQLiteDocumentWrites(self._db, changes)
        self.reads: GraphReads = SQLiteGraphReads(self._db)
        self.ledger: FactLedger = SQLiteFactLedger(self._db, changes)
        self.vectors: NodeVectors = SQLiteNodeVectors(self._db)
        self.packing: StorePacking = SQLitePacking(self._db)

    @property
    def _conn(self) -> sqlite3.Connection:
        """The shared connection (tests wrap it to fail a write halfway)."""
        return self._db.conn

    @_conn.setter
    def _conn(self, conn: sqlite3.Connection) -> None:
        self._db.conn = conn

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        return self._db.query(sql, params)

    def low_memory(self) -> AbstractContextManager[None]:
        """A pass over the whole store in the block: no memory map, a small page cache
        (``Database.low_memory``)."""
        return self._db.low_memory()

    def close(self) -> None:
        self._db.close()

    def schema_version(self) -> int:
        return self._db.schema_version()
