"""Settings and derived blobs of a SQLite store (``Settings`` and ``Blobs``): the
``settings`` and ``blobs`` tables."""

from __future__ import annotations

from typing import cast

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
        rows = self._db.query("SELECT generation, data FROM blobs WHERE name = ?", (name,))
        if not rows:
            return None
        return int_of(rows[0][0]), bytes(cast(bytes, rows[0][1]))

    def save_blob(self, name: str, generation: int, data: bytes) -> None:
        with self._db.write() as conn:
            conn.execute(
                "INSERT INTO blobs(name, generation, data) VALUES (?, ?, ?) ON CONFLICT(name) "
                "DO UPDATE SET generation = excluded.generation, data = excluded.data",
                (name, generation, data),
            )
