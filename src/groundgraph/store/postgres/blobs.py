"""Settings and derived blobs of a PostgreSQL store (``Settings`` and ``Blobs``): the
``settings`` and ``blobs`` tables (a blob as ``bytea``)."""

from __future__ import annotations

from groundgraph.store.postgres.connection import Database
from groundgraph.store.postgres.faults import server_errors_are_store_errors

__all__ = ["PostgresBlobs", "PostgresSettings"]


@server_errors_are_store_errors
class PostgresSettings:
    """String settings by key, one row each."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def get_setting(self, key: str) -> str | None:
        rows = self._db.query("SELECT value FROM settings WHERE key = %s", (key,))
        return str(rows[0][0]) if rows else None

    def setting_items(self) -> list[tuple[str, str]]:
        """Every setting, by key (what ``groundgraph copy`` reads)."""
        rows = self._db.query("SELECT key, value FROM settings ORDER BY key")
        return [(str(k), str(v)) for k, v in rows]

    def set_setting(self, key: str, value: str) -> None:
        self._db.transact(
            lambda conn: conn.execute(
                "INSERT INTO settings(key, value) VALUES (%s, %s)"
                " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
        )


@server_errors_are_store_errors
class PostgresBlobs:
    """Named blobs with the generation they were made at."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def load_blob(self, name: str) -> tuple[int, bytes] | None:
        # In binary: the index snapshot is tens of MB (hex text would double it).
        rows = self._db.query(
            "SELECT generation, data FROM blobs WHERE name = %s", (name,), binary=True
        )
        if not rows:
            return None
        return int(rows[0][0]), bytes(rows[0][1])

    def save_blob(self, name: str, generation: int, data: bytes) -> None:
        self._db.transact(
            lambda conn: conn.execute(
                "INSERT INTO blobs(name, generation, data) VALUES (%s, %s, %s)"
                " ON CONFLICT(name) DO UPDATE SET generation = excluded.generation,"
                " data = excluded.data",
                (name, generation, data),
            )
        )
