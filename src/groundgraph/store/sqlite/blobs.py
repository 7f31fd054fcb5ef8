"""Settings and derived blobs of a SQLite store (``Settings`` and ``Blobs``): the
``settings`` and ``blobs`` tables."""

from __future__ import annotations

from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.damage import damage_is_store_error
from groundgraph.store.sqlite.rows import int_of

__all__ = ["SQLiteBlobs", "SQLiteSettings"]


@damage_is_store_error
class SQLiteSettings:
    """String settings by key, one row each."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def get_setting(self, key: str) -> str | None:
        rows = self._db.query("SELECT value FROM settings WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def setting_items(self) -> list[tuple[str, str]]:
        """Every setting, by key (what ``groundgraph copy`` reads)."""
        rows = self._db.query("SELECT key, value FROM settings ORDER BY key")
        return [(str(k), str(v)) for k, v in rows]

    def set_setting(self, key: str, value: str) -> None:
        with self._db.write() as conn:
            conn.execute(
                "INSERT INTO settings(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


@damage_is_store_error
class SQLiteBlobs:
    """Named blobs with the generation they were made at."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def load_blob(self, name: str) -> tuple[int, bytes] | None:
        with self._db.reading() as conn:  # the generation and the bytes of one state
            row = conn.execute("SELECT rowid, generation FROM blobs WHERE name = ?", (name,))
            found = row.fetchone()
            if found is None:
                return None
            # Read straight into the bytes returned: selecting the value copies it twice
            # (SQLite gathers it from its overflow pages, then Python copies that), which
            # for the lexical index's snapshot (16 MiB at 100k sections) costs a cold
            # search about 15 ms and as many MiB of memory (issue 12, cold start).
            with conn.blobopen("blobs", "data", int_of(found[0]), readonly=True) as blob:
                return int_of(found[1]), blob.read()

    def save_blob(self, name: str, generation: int, data: bytes) -> None:
        with self._db.write() as conn:
            conn.execute(
                "INSERT INTO blobs(name, generation, data) VALUES (?, ?, ?) ON CONFLICT(name) "
                "DO UPDATE SET generation = excluded.generation, data = excluded.data",
                (name, generation, data),
            )
