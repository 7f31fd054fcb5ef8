"""The shared store: a schema in a PostgreSQL database (the ``[postgres]`` extra).

``PostgresStore`` is composed as ``SQLiteStore`` is, one part per protocol of
:mod:`groundgraph.store.base` over one shared
:class:`~groundgraph.store.postgres.connection.Database` (a bounded pool)::

    location.py    the postgresql:// URL and the ?schema= the store lives in
    setup.py       make or check the schema under an advisory lock; pgvector; types
    schema.py      numbered migrations (the groundgraph_schema version table)
    connection.py  Database: the pool, write transactions under the store's write lock,
                   retries with backoff, batches of savepoints, snapshots
    faults.py      psycopg's errors as groundgraph's typed ones
    text.py        NUL-safe text (PostgreSQL text holds no NUL)
    rows.py        the edge writer and key lookups (rows mean what SQLite's do)
    changes.py     PostgresChangeLog      (ChangeLog)
    blobs.py       PostgresSettings, PostgresBlobs   (Settings, Blobs)
    writes.py      PostgresDocumentWrites (DocumentWrites)
    reads.py       PostgresGraphReads     (GraphReads)
    edge_scan.py   every edge packed into integers, for edge_columns
    ledger.py      PostgresFactLedger     (FactLedger)
    vectors.py     PostgresNodeVectors    (NodeVectors)
    packing.py     PostgresPacking        (StorePacking): left to autovacuum

All PostgreSQL-specific SQL lives in this package (docs/postgres.md).
"""

from __future__ import annotations

from groundgraph.store.blobs import Blobs, Settings
from groundgraph.store.changes import ChangeLog
from groundgraph.store.ledger import FactLedger
from groundgraph.store.packing import StorePacking
from groundgraph.store.postgres.blobs import PostgresBlobs, PostgresSettings
from groundgraph.store.postgres.changes import PostgresChangeLog
from groundgraph.store.postgres.connection import Database
from groundgraph.store.postgres.ledger import PostgresFactLedger
from groundgraph.store.postgres.location import PostgresLocation, is_postgres_url
from groundgraph.store.postgres.packing import PostgresPacking
from groundgraph.store.postgres.reads import PostgresGraphReads
from groundgraph.store.postgres.vectors import PostgresNodeVectors
from groundgraph.store.postgres.writes import PostgresDocumentWrites
from groundgraph.store.reads import GraphReads
from groundgraph.store.vectors import NodeVectors
from groundgraph.store.writes import DocumentWrites

__all__ = ["PostgresStore", "is_postgres_url"]

# As SQLite's: the change log keeps at least the last _CHANGES_KEPT generations, trimmed
# once every _TRIM_EVERY.
_CHANGES_KEPT = 50_000
_TRIM_EVERY = 1_000


class PostgresStore:
    """A :class:`~groundgraph.store.base.Store` in a PostgreSQL schema: its parts over one
    bounded pool (``pool_size`` connections; ``timeout`` seconds to connect, to get a
    pooled connection and to wait for the write lock).

    ``create=False`` opens only a store that exists (``NoStoreError`` otherwise);
    ``read_only=True`` opens one without writing to it. ``schema`` overrides the URL's
    ``?schema=``."""

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        create: bool = True,
        read_only: bool = False,
        pool_size: int = 8,
        timeout: float = 10.0,
    ) -> None:
        location = PostgresLocation.parse(url, schema)
        self._db = Database(
            location, create=create, read_only=read_only, pool_size=pool_size, timeout=timeout
        )
        self.path = location.shown
        self.schema = location.schema
        self.read_only = read_only
        settings = PostgresSettings(self._db)
        changes = PostgresChangeLog(self._db, settings, _CHANGES_KEPT, _TRIM_EVERY)
        self.settings: Settings = settings
        self.blobs: Blobs = PostgresBlobs(self._db)
        self.changes: ChangeLog = changes
        self.writes: DocumentWrites = PostgresDocumentWrites(self._db, changes)
        self.reads: GraphReads = PostgresGraphReads(self._db)
        self.ledger: FactLedger = PostgresFactLedger(self._db, changes)
        self.vectors: NodeVectors = PostgresNodeVectors(self._db)
        self.packing: StorePacking = PostgresPacking(self._db)

    def close(self) -> None:
        self._db.close()

    def schema_version(self) -> int:
        return int(self._db.query("SELECT version FROM groundgraph_schema")[0][0])

    def __repr__(self) -> str:
        return f"PostgresStore({self.path!r})"
