"""Packing a SQLite store (``StorePacking``): ``VACUUM``, then a checkpoint that truncates.

``VACUUM`` copies every table and index into a temporary database in key order and back,
so each b-tree page is full and the free pages are gone. Rows keep their rowids where
anything names them (every such table has an ``INTEGER PRIMARY KEY``) and their rowid
order everywhere (``doc_links`` is read in it). In WAL mode the copy back goes through
the WAL, which the checkpoint then writes into the file and truncates, so the file has its
packed size when this returns. It needs free disk of about twice the store (the
temporary copy and the WAL) and takes about a second per 200 MB; a store with less room
beside it, or that another process is writing, is left as it is.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path

from groundgraph.errors import StoreError
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.damage import damage_is_store_error
from groundgraph.store.sqlite.rows import int_of

__all__ = ["SQLitePacking"]

# Room kept free beside what a pack needs, so that packing never fills a disk.
_SPARE_BYTES = 64 * 1024 * 1024
# What SQLite says when the pack cannot be done now (not a damaged store).
_NOT_NOW = ("full", "locked", "busy")


@damage_is_store_error
class SQLitePacking:
    """``VACUUM`` of the shared connection's database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def stored_bytes(self) -> int:
        rows = self._db.query(
            "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"
        )
        return int_of(rows[0][0])

    def pack(self) -> bool:
        with self._db.outside_transaction() as conn:
            if not _room_for(self._db.path, self.stored_bytes()):
                return False
            # Read through the page cache, not the memory map: every page would otherwise
            # stay mapped into this process (its resident size) afterwards.
            self._db.unmap()
            try:
                conn.execute("VACUUM")
            except sqlite3.OperationalError as exc:
                if any(word in str(exc) for word in _NOT_NOW):
                    return False
                raise StoreError(f"cannot pack the store {self._db.path}: {exc}") from exc
            if self._db.path != ":memory:":
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return True


def _room_for(path: str, size: int) -> bool:
    """Whether the disks hold a temporary copy of ``size`` bytes and a WAL as large."""
    if path == ":memory:":
        return True
    folder = Path(path).expanduser().resolve().parent
    temp = Path(tempfile.gettempdir())
    try:
        beside, spare = shutil.disk_usage(folder).free, shutil.disk_usage(temp).free
        same = folder.stat().st_dev == temp.stat().st_dev
    except OSError:
        return False
    if same:
        return beside >= 2 * size + _SPARE_BYTES
    return beside >= size + _SPARE_BYTES and spare >= size + _SPARE_BYTES
