"""Stores: where documents, nodes and edges live. SQLite is the default.

A store holds one part per small protocol (``store.writes``: ``DocumentWrites``,
``store.reads``: ``GraphReads``, ``store.changes``, ``store.settings``, ``store.blobs``,
``store.ledger``, ``store.vectors``, ``store.packing``); see :mod:`groundgraph.store.base`.
"""

from __future__ import annotations

import os
from pathlib import Path

from groundgraph.errors import InputError, NoStoreError
from groundgraph.store.base import (
    Blobs,
    ChangeLog,
    DocumentWrites,
    FactLedger,
    GraphReads,
    NodeVectors,
    PendingLink,
    Removal,
    Settings,
    Store,
    StoreCounts,
    StorePacking,
)
from groundgraph.store.sqlite import SQLiteStore
from groundgraph.store.sqlite.rows import now_iso

__all__ = [
    "Blobs",
    "ChangeLog",
    "DocumentWrites",
    "FactLedger",
    "GraphReads",
    "NodeVectors",
    "PendingLink",
    "Removal",
    "SQLiteStore",
    "Settings",
    "Store",
    "StoreCounts",
    "StorePacking",
    "now_iso",
    "open_postgres",
    "open_store",
]


def open_store(location: str, *, create: bool = True) -> Store:
    """The store at a location: a SQLite file path, ``:memory:``, or a
    ``postgresql://`` URL (the ``[postgres]`` extra, docs/postgres.md).

    ``create=False`` opens only a store that exists (a missing file is a StoreError, and no
    empty store is left in its place). A file this process may not write (read-only
    media, a read-only mount) is opened read-only."""
    if location.startswith(("postgres://", "postgresql://")):
        return open_postgres(location, create=create)
    if location == ":memory:":
        return SQLiteStore(location)
    path = Path(location).expanduser()
    if not path.exists() or (not create and path.is_file() and path.stat().st_size == 0):
        if not create:
            what = "an empty file at" if path.exists() else "no store at"
            raise NoStoreError(f"{what} {location}: index documents into it first")
        return SQLiteStore(location)
    writable = os.access(path, os.W_OK) and os.access(path.resolve().parent, os.W_OK)
    return SQLiteStore(location, read_only=not writable)


def open_postgres(url: str, *, create: bool = True, read_only: bool = False) -> Store:
    """The PostgreSQL store at ``url``; InputError saying what to install when the
    ``[postgres]`` extra is missing."""
    try:
        from groundgraph.store.postgres import PostgresStore
    except ImportError as exc:
        raise InputError(
            f"{url.split('://', 1)[0]}:// names a PostgreSQL store, which needs the postgres "
            f"extra: pip install 'groundgraph[postgres]' ({exc})"
        ) from exc
    return PostgresStore(url, create=create, read_only=read_only)
