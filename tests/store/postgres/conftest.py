"""The PostgreSQL store's own tests: collected only when the [postgres] extra is installed,
unless GROUNDGRAPH_REQUIRE_POSTGRES=1 (then a missing extra fails their collection)."""

from __future__ import annotations

import importlib
import os


def _installed(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


_MISSING = [m for m in ("psycopg", "psycopg_pool", "pgvector") if not _installed(m)]

collect_ignore_glob = (
    ["test_*.py"] if _MISSING and os.environ.get("GROUNDGRAPH_REQUIRE_POSTGRES") != "1" else []
)
