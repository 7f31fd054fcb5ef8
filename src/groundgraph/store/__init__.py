"""Stores: where documents, nodes and edges live. SQLite is the default.

A store holds one part per small protocol (``store.writes``: ``DocumentWrites``,
``store.reads``: ``GraphReads``, ``store.changes``, ``store.settings``, ``store.blobs``,
``store.ledger``, ``store.vectors``); see :mod:`groundgraph.store.base`.
"""

from __future__ import annotations

import os
from pathlib import Path

from groundgraph.errors import NoStoreError
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
    "now_iso",
    "open_store",
]


def open_store(location: str, *, create: bool = True) -> Store:
    """The store at a location: a SQLite file path or ``:memory:``.

    ``create=False`` opens only a store that exists (a missing file is a StoreError, and no
    empty store is left in its place). A file this process may not write (read-only
    media, a read-only mount) is opened read-only."""
    if location.startswith(("postgres://", "postgresql://")):
        from groundgraph.errors import InputError

        raise InputError(
            "PostgreSQL stores are not available in this version; use a SQLite file path"
        )
    if location == ":memory:":
        return SQLiteStore(location)
    path = Path(location).expanduser()
    if not path.exists():
        if not create:
            raise NoStoreError(f"no store at {location}: index documents into it first")
        return SQLiteStore(location)
    writable = os.access(path, os.W_OK) and os.access(path.resolve().parent, os.W_OK)
    return SQLiteStore(location, read_only=not writable)
