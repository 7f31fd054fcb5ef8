"""The embedded default store: one SQLite file (or ``:memory:``).

WAL journal, ``synchronous=NORMAL``, one ``BEGIN IMMEDIATE`` transaction per document
write, so readers never wait for writers and a crash leaves the store as it was before
the document. All SQLite-specific SQL lives in this module.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import cast

from groundgraph.errors import NotFoundError, SchemaVersionError, StoreBusyError, StoreError
from groundgraph.model import Document, Edge, Node
from groundgraph.store.base import (
    PendingLink,
    Removal,
)
from groundgraph.store.schema import MIGRATIONS, SCHEMA_VERSION
from groundgraph.store.sqlite_facts import FactRecords
from groundgraph.store.sqlite_reads import GraphReads
from groundgraph.store.sqlite_rows import NODE_COLUMNS as _NODE_COLUMNS
from groundgraph.store.sqlite_rows import insert_edges, now_iso
from groundgraph.store.sqlite_rows import int_of as _int
from groundgraph.store.sqlite_rows import json_list as _json_list

# The change log keeps at least the last _CHANGES_KEPT generations; it is trimmed once
# every _TRIM_EVERY generations rather than on every write.
_CHANGES_KEPT = 50_000
_TRIM_EVERY = 1_000
# WAL pages written before a commit checkpoints them into the database (SQLite's default
# is 1,000). Each checkpoint syncs both files; fewer, larger ones copy a page that many
# documents rewrote once, which about halves the time bulk indexing spends checkpointing.
_WAL_PAGES = 10_000


class SQLiteStore(GraphReads, FactRecords):
    """A :class:`~groundgraph.store.base.Store` in a SQLite file."""

    def __init__(self, path: str | Path = ":memory:", timeout: float = 10.0) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            parent = Path(self.path).expanduser().resolve().parent
            if not parent.is_dir():
                raise StoreError(f"cannot create the store {self.path}: folder {parent} is missing")
        try:
            self._conn = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store {self.path}: {exc}") from exc
        self._lock = threading.RLock()
        self._closed = False
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute(f"PRAGMA wal_autocheckpoint={_WAL_PAGES}")
            self._conn.execute("PRAGMA foreign_keys=OFF")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StoreError(
                f"{self.path} is not a groundgraph store ({exc}); name another file with --db"
            ) from exc

    # ----------------------------------------------------------------- plumbing
    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._check_open()
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StoreBusyError(
                    f"the store {self.path} is locked by another writer ({exc}); try again"
                ) from exc
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            self._check_open()
            return self._conn.execute(sql, params).fetchall()

    def _migrate(self) -> None:
        with self._write() as conn:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise SchemaVersionError(
                    f"{self.path} has schema version {version}, newer than this groundgraph "
                    f"understands ({SCHEMA_VERSION}): upgrade groundgraph"
                )
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[target]:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {target}")

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()

    def schema_version(self) -> int:
        return _int(self._query("PRAGMA user_version")[0][0])

    # ----------------------------------------------------------------- settings
    def get_setting(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM settings WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_setting(self, key: str, value: str) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO settings(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def generation(self) -> int:
        value = self.get_setting("generation")
        return int(value) if value else 0

    def _bump(self, conn: sqlite3.Connection, doc_id: str) -> int:
        row = conn.execute(
            "UPDATE settings SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'"
            " RETURNING value"
        ).fetchone()
        if row is None:
            generation = 1
            conn.execute("INSERT INTO settings(key, value) VALUES ('generation', '1')")
        else:
            generation = _int(row[0])
        conn.execute("INSERT INTO changes(generation, doc_id) VALUES (?, ?)", (generation, doc_id))
        if generation % _TRIM_EVERY == 0:
            conn.execute("DELETE FROM changes WHERE generation <= ?", (generation - _CHANGES_KEPT,))
        return generation

    def changed_documents(self, since: int) -> list[str]:
        rows = self._query(
            "SELECT MIN(generation) FROM changes",
        )
        oldest = rows[0][0]
        if since < self.generation() and (oldest is None or _int(oldest) > since + 1):
            raise StoreError("the change log no longer reaches that generation; rebuild")
        rows = self._query(
            "SELECT doc_id FROM changes WHERE generation > ? ORDER BY generation", (since,)
        )
        return list(dict.fromkeys(str(r[0]) for r in rows))

    # ----------------------------------------------------------------- writing
    def replace_document(
        self,
        document: Document,
        nodes: Sequence[Node],
        edges: Sequence[Edge],
        pending: Sequence[PendingLink] = (),
        entities: Sequence[Node] = (),
    ) -> tuple[int, Removal | None]:
        stamp = now_iso()
        doc_id = document.doc_id
        with self._write() as conn:
            seq, exists = conn.execute(
                "SELECT (SELECT COALESCE(MAX(seq), 0) + 1 FROM documents),"
                " EXISTS (SELECT 1 FROM documents WHERE doc_id = ?)",
                (doc_id,),
            ).fetchone()
            removed = None
            if exists:
                removed = self._delete_document(conn, doc_id)
                seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM documents").fetchone()[0]
            conn.execute(
                "INSERT INTO documents(doc_id, title, description, source, content_hash, scopes,"
                " added_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    doc_id,
                    document.title,
                    document.description,
                    document.source,
                    document.content_hash,
                    _json_list(document.scopes),
                    document.added_at or stamp,
                    seq,
                ),
            )
            conn.executemany(
                f"INSERT INTO nodes({_NODE_COLUMNS}, seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (
                        n.node_id,
                        n.doc_id,
                        n.kind,
                        n.title,
                        n.content,
                        n.level,
                        n.parent_id,
                        n.span[0],
                        n.span[1],
                        _json_list(n.scopes),
                        n.created_at or stamp,
                        n.invalid_at,
                        i,
                    )
                    for i, n in enumerate(nodes)
                ],
            )
            insert_edges(conn, doc_id, edges, stamp)
            if entities:
                self._insert_entities(conn, entities, stamp)
            if pending:
                conn.executemany(
                    "INSERT INTO doc_links(node_id, doc_id, target) VALUES (?, ?, ?)",
                    [(p.node_id, p.doc_id, p.target) for p in pending],
                )
            generation = self._bump(conn, doc_id)
        return generation, removed

    @staticmethod
    def _insert_entities(conn: sqlite3.Connection, entities: Sequence[Node], stamp: str) -> None:
        conn.executemany(
            f"INSERT OR IGNORE INTO nodes({_NODE_COLUMNS}, seq) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,(SELECT COALESCE(MAX(seq), 0) + 1 FROM nodes"
            " WHERE doc_id = ''))",
            [
                (
                    n.node_id,
                    "",
                    "entity",
                    n.title,
                    n.content,
                    n.level,
                    None,
                    n.span[0],
                    n.span[1],
                    _json_list(n.scopes),
                    n.created_at or stamp,
                    n.invalid_at,
                )
                for n in entities
            ],
        )

    def add_edges(self, doc_id: str, edges: Sequence[Edge], entities: Sequence[Node] = ()) -> int:
        stamp = now_iso()
        with self._write() as conn:
            if (
                conn.execute("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
                is None
            ):
                raise NotFoundError(f"unknown document {doc_id!r}: add it before its edges")
            self._insert_entities(conn, entities, stamp)
            insert_edges(conn, doc_id, edges, stamp)
            return self._bump(conn, doc_id)

    def remove_document(self, doc_id: str) -> Removal | None:
        with self._write() as conn:
            removed = self._delete_document(conn, doc_id)
            if removed is not None:
                self._bump(conn, doc_id)
        return removed

    def _delete_document(self, conn: sqlite3.Connection, doc_id: str) -> Removal | None:
        if conn.execute("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone() is None:
            return None
        node_ids = tuple(
            r[0]
            for r in conn.execute(
                "SELECT node_id FROM nodes WHERE doc_id = ? ORDER BY seq", (doc_id,)
            )
        )
        touching = (
            "doc_id = :doc OR source IN (SELECT node_id FROM nodes WHERE doc_id = :doc) "
            "OR target IN (SELECT node_id FROM nodes WHERE doc_id = :doc)"
        )
        edges = tuple(
            (str(s), str(t), str(k))
            for s, t, k in conn.execute(
                f"SELECT source, target, type FROM edges WHERE {touching} ORDER BY id",
                {"doc": doc_id},
            )
        )
        conn.execute(f"DELETE FROM edges WHERE {touching}", {"doc": doc_id})
        conn.execute("DELETE FROM nodes WHERE doc_id = ?", (doc_id,))
        # Entities belong to no document: one goes when no edge touches it any more.
        ends = sorted({s for s, _, _ in edges} | {t for _, t, _ in edges})
        orphans = [
            str(r[0])
            for r in conn.execute(
                "SELECT node_id FROM nodes WHERE kind = 'entity'"
                " AND node_id IN (SELECT value FROM json_each(?))"
                " AND NOT EXISTS (SELECT 1 FROM edges WHERE source = nodes.node_id)"
                " AND NOT EXISTS (SELECT 1 FROM edges WHERE target = nodes.node_id)"
                " ORDER BY seq",
                (_json_list(ends),),
            )
        ]
        conn.execute(
            "DELETE FROM nodes WHERE node_id IN (SELECT value FROM json_each(?))",
            (_json_list(orphans),),
        )
        node_ids = node_ids + tuple(orphans)
        conn.execute("DELETE FROM doc_links WHERE doc_id = ?", (doc_id,))
        conn.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
        return Removal(doc_id, node_ids, edges)

    # ----------------------------------------------------------------- blobs
    def load_blob(self, name: str) -> tuple[int, bytes] | None:
        rows = self._query("SELECT generation, data FROM blobs WHERE name = ?", (name,))
        if not rows:
            return None
        return _int(rows[0][0]), bytes(cast(bytes, rows[0][1]))

    def save_blob(self, name: str, generation: int, data: bytes) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO blobs(name, generation, data) VALUES (?, ?, ?) ON CONFLICT(name) "
                "DO UPDATE SET generation = excluded.generation, data = excluded.data",
                (name, generation, data),
            )
