"""Stores: where documents, nodes and edges live. SQLite is the default.

A store holds one part per small protocol (``store.writes``: ``DocumentWrites``,
``store.reads``: ``GraphReads``, ``store.changes``, ``store.settings``, ``store.blobs``,
``store.ledger``); see :mod:`groundgraph.store.base`.
"""

from __future__ import annotations

from groundgraph.store.base import (
    Blobs,
    ChangeLog,
    DocumentWrites,
    FactLedger,
    GraphReads,
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
    "PendingLink",
    "Removal",
    "SQLiteStore",
    "Settings",
    "Store",
    "StoreCounts",
    "now_iso",
    "open_store",
]


def open_store(location: str) -> Store:
    """A store for a location: a SQLite file path or ``:memory:``."""
    if location.startswith(("postgres://", "postgresql://")):
        from groundgraph.errors import InputError

        raise InputError(
            "PostgreSQL stores are not available in this version; use a SQLite file path"
        )
    return SQLiteStore(location)
