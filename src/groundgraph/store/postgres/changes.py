"""The generation counter and change log of a PostgreSQL store (a ``ChangeLog``).

As in SQLite: the generation is the ``generation`` setting, the log the ``changes``
table. Every writer holds the store's write lock (``connection.py``) when it bumps, so
generations are given in commit order and a process reading the log after generation
``g`` misses nothing committed after it, whichever process or machine wrote it.
"""

from __future__ import annotations

from groundgraph.errors import StoreError
from groundgraph.store.postgres.blobs import PostgresSettings
from groundgraph.store.postgres.connection import Connection, Database
from groundgraph.store.postgres.faults import server_errors_are_store_errors
from groundgraph.store.postgres.rows import int_of

__all__ = ["PostgresChangeLog"]


@server_errors_are_store_errors
class PostgresChangeLog:
    """Bumps and reads the generation; keeps at least the last ``kept`` generations in the
    log, trimming it once every ``trim_every`` generations."""

    def __init__(
        self, db: Database, settings: PostgresSettings, kept: int, trim_every: int
    ) -> None:
        self._db = db
        self._settings = settings
        self._kept = kept
        self._trim_every = trim_every

    def generation(self) -> int:
        return self._db.watch.generation(self._read_generation)

    def _read_generation(self) -> int:
        value = self._settings.get_setting("generation")
        return int(value) if value else 0

    def bump(self, conn: Connection, doc_id: str) -> int:
        """The next generation, logged as a change of ``doc_id``, inside ``conn``'s
        transaction (which holds the write lock)."""
        # One round trip: the new generation, its line in the log, and the notification
        # every listening process receives when the write commits (notify.py).
        self._db.watch.forget()
        row = conn.execute(
            "WITH bumped AS (INSERT INTO settings(key, value) VALUES ('generation', '1')"
            " ON CONFLICT(key) DO UPDATE SET value = (settings.value::bigint + 1)::text"
            " RETURNING value::bigint AS generation),"
            " logged AS (INSERT INTO changes(generation, doc_id) SELECT generation, %s"
            " FROM bumped RETURNING generation)"
            " SELECT generation, pg_notify(%s, generation::text) FROM logged",
            (doc_id, self._db.channel),
        ).fetchone()
        assert row is not None
        generation = int_of(row[0])
        if generation % self._trim_every == 0:
            conn.execute("DELETE FROM changes WHERE generation <= %s", (generation - self._kept,))
        return generation

    def changed_documents(self, since: int) -> list[str]:
        rows = self._db.query(
            "SELECT (SELECT MIN(generation) FROM changes),"
            " (SELECT value FROM settings WHERE key = 'generation')"
        )
        oldest, current = rows[0]
        if since < int(current or 0) and (oldest is None or int_of(oldest) > since + 1):
            raise StoreError("the change log no longer reaches that generation; rebuild")
        rows = self._db.query(
            "SELECT doc_id FROM changes WHERE generation > %s ORDER BY generation", (since,)
        )
        return list(dict.fromkeys(str(r[0]) for r in rows))
