"""Where the schema used to live: it is now :mod:`groundgraph.store.sqlite.schema`."""

from __future__ import annotations

from groundgraph.store.sqlite.schema import MIGRATIONS, SCHEMA_VERSION

__all__ = ["MIGRATIONS", "SCHEMA_VERSION"]
