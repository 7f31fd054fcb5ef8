"""The generation counter and change log of a SQLite store (a ``ChangeLog``).

The generation is the ``generation`` setting; the log is the ``changes`` table, one row
per write. Writers call :meth:`SQLiteChangeLog.bump` inside their own transaction.
"""

from __future__ import annotations

import sqlite3

from groundgraph.errors import StoreError
from groundgraph.store.sqlite.blobs import SQLiteSettings
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.damage import damage_is_store_error
from groundgraph.store.sqlite.rows import int_of

__all__ = ["SQLiteChangeLog"]


@damage_is_store_error
class SQLiteChangeLog:
    """Bumps and reads the generation; keeps at least the last ``kept`` generations in
    the log, trimming it once every ``trim_every`` generations rather than on every
    write."""

    def __init__(self, db: Database, settings: SQLiteSettings, kept: int, trim_every: int) -> None:
        self._db = db
        self._settings = settings
        self._kept = kept
        self._trim_every = trim_every

    def generation(self) -> int:
        value = self._settings.get_setting("generation")
        return int(value) if value else 0

    def bump(self, conn: sqlite3.Connection, doc_id: str) -> int:
        """The next generation, logged as a change of ``doc_id``, inside ``conn``'s
        transaction."""
        row = conn.execute(
            "UPDATE settings SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'"
            " RETURNING value"
        ).fetchone()
        if row is None:
            generation = 1
            conn.execute("INSERT INTO settings(key, value) VALUES ('generation', '1')")
        else:
            generation = int_of(row[0])
        conn.execute("INSERT INTO changes(generation, doc_id) VALUES (?, ?)", (generation, doc_id))
        if generation % self._trim_every == 0:
            conn.execute("DELETE FROM changes WHERE generation <= ?", (generation - self._kept,))
        return generation

    def changed_documents(self, since: int) -> list[str]:
        rows = self._db.query(
            "SELECT MIN(generation) FROM changes",
        )
        oldest = rows[0][0]
        if since < self.generation() and (oldest is None or int_of(oldest) > since + 1):
            raise StoreError("the change log no longer reaches that generation; rebuild")
        rows = self._db.query(
            "SELECT doc_id FROM changes WHERE generation > ? ORDER BY generation", (since,)
        )
        return list(dict.fromkeys(str(r[0]) for r in rows))
