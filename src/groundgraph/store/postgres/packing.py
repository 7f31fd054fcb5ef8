"""Packing a PostgreSQL store (``StorePacking``): left to the server.

PostgreSQL reclaims the room of deleted and updated rows itself (autovacuum), and an
index run leaves its b-tree pages about as full as SQLite's packed ones; a ``VACUUM
FULL`` or ``REINDEX`` would lock every table of a store many processes share for as long
as it runs. So ``pack`` does nothing here and says so; ``stored_bytes`` is what the
store's tables, their indexes and TOAST take in its schema.
"""

from __future__ import annotations

from groundgraph.store.postgres.connection import Database
from groundgraph.store.postgres.faults import server_errors_are_store_errors

__all__ = ["PostgresPacking"]


@server_errors_are_store_errors
class PostgresPacking:
    """The bytes of the store's schema; packing left to autovacuum."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def stored_bytes(self) -> int:
        rows = self._db.query(
            "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
            " WHERE c.relnamespace = to_regnamespace(current_schema()) AND c.relkind = 'r'"
        )
        return int(rows[0][0])

    def pack(self) -> bool:
        self._db.check_unbatched()
        return False
