"""Making or checking a store's schema before its pool opens, and each connection's types.

:func:`prepare_schema` runs on one connection of its own, under a session advisory lock
on the store, so two processes opening a new store at once make it once. It refuses what
is not a groundgraph store (a schema holding other tables), a store of a newer schema
version (``SchemaVersionError``), and a database without the pgvector extension, each
saying what to do; it leaves a store of an older version migrated.
"""

from __future__ import annotations

from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

from groundgraph.errors import NoStoreError, SchemaVersionError, StoreError
from groundgraph.store.postgres.faults import server_error
from groundgraph.store.postgres.location import PostgresLocation
from groundgraph.store.postgres.schema import MIGRATIONS, SCHEMA_VERSION, VERSION_TABLE
from groundgraph.store.postgres.text import register_nul_safe_text

__all__ = ["prepare_schema", "register_types"]

_PGVECTOR = (
    "needs the pgvector extension: install it on the server (it is packaged as "
    "postgresql-NN-pgvector; managed services list it as 'vector') and run CREATE EXTENSION "
    "vector as a user allowed to, or connect as such a user"
)


def register_types(conn: psycopg.Connection[Any]) -> None:
    """Set up a pooled connection: NUL-safe text and pgvector's ``vector``."""
    register_nul_safe_text(conn.adapters)
    register_vector(conn)


def prepare_schema(
    location: PostgresLocation, lock_key: int, *, create: bool, read_only: bool, timeout: float
) -> str:
    """Make or check the store's schema; the ``search_path`` its connections use."""
    where = location.shown
    try:
        conn = psycopg.connect(
            location.conninfo,
            autocommit=True,
            connect_timeout=max(1, round(timeout)),
            application_name="groundgraph",
        )
    except psycopg.Error as exc:
        raise StoreError(
            f"cannot connect to PostgreSQL at {where} ({_reason(exc)}): check that the server "
            "is running and the URL's host, port, user, password and database name"
        ) from exc
    try:
        with conn:
            if read_only:
                return _check(conn, location)
            conn.execute("SELECT pg_advisory_lock(%s)", (lock_key,))
            try:
                return _make_or_migrate(conn, location, create)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key,))
    except (StoreError, NoStoreError):
        raise
    except psycopg.Error as exc:
        raise server_error(exc, where) from exc


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[-1].strip() if text else type(exc).__name__


def _tables(conn: psycopg.Connection[Any], schema: str) -> list[str]:
    rows = conn.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = %s ORDER BY tablename", (schema,)
    ).fetchall()
    return [str(r[0]) for r in rows]


def _version(conn: psycopg.Connection[Any], location: PostgresLocation) -> int | None:
    """The store's schema version; None for an empty (or missing) schema; StoreError for
    a schema that holds tables of something else."""
    tables = _tables(conn, location.schema)
    if VERSION_TABLE in tables:
        query = sql.SQL("SELECT version FROM {}.{}").format(
            sql.Identifier(location.schema), sql.Identifier(VERSION_TABLE)
        )
        row = conn.execute(query).fetchone()
        return int(row[0]) if row else 0
    if tables:
        shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
        raise StoreError(
            f"schema {location.schema!r} of {location.shown} is not a groundgraph store (it "
            f"holds the tables {shown}) and was left as it was; name another schema with "
            "?schema=NAME in the URL, or another database"
        )
    return None


def _vector_schema(conn: psycopg.Connection[Any], where: str, create: bool) -> str:
    row = conn.execute(
        "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace"
        " WHERE e.extname = 'vector'"
    ).fetchone()
    if row is not None:
        return str(row[0])
    if not create:
        raise StoreError(f"the database of {where} {_PGVECTOR}")
    try:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
    except psycopg.Error as exc:
        raise StoreError(f"the database of {where} {_PGVECTOR} ({_reason(exc)})") from exc
    return "public"


def _search_path(location: PostgresLocation, vector_schema: str) -> str:
    names = dict.fromkeys([location.schema, vector_schema])
    return ",".join(names)


def _check(conn: psycopg.Connection[Any], location: PostgresLocation) -> str:
    version = _version(conn, location)
    if version is None:
        raise NoStoreError(
            f"no store at {location.shown}: a read-only open needs an existing store"
        )
    if version != SCHEMA_VERSION:
        raise SchemaVersionError(
            f"{location.shown} has schema version {version} and this groundgraph reads "
            f"{SCHEMA_VERSION}: open it read-write once to migrate it, or use a groundgraph "
            "of its version"
        )
    return _search_path(location, _vector_schema(conn, location.shown, create=False))


def _make_or_migrate(
    conn: psycopg.Connection[Any], location: PostgresLocation, create: bool
) -> str:
    version = _version(conn, location)
    if version is None and not create:
        raise NoStoreError(f"no store at {location.shown}: index documents into it first")
    if version is not None and version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"{location.shown} has schema version {version}, newer than this groundgraph "
            f"understands ({SCHEMA_VERSION}): upgrade groundgraph"
        )
    vector_schema = _vector_schema(conn, location.shown, create=True)
    path = _search_path(location, vector_schema)
    if version == SCHEMA_VERSION:
        return path
    schema = sql.Identifier(location.schema)
    with conn.transaction():
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(schema))
        conn.execute(sql.SQL("SET LOCAL search_path = {}").format(sql.SQL(path)))
        if version is None:
            conn.execute(sql.SQL(f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)"))
            conn.execute(sql.SQL(f"INSERT INTO {VERSION_TABLE} VALUES (0)"))
            version = 0
        for target in sorted(MIGRATIONS):
            if target <= version:
                continue
            for statement in MIGRATIONS[target]:
                conn.execute(sql.SQL(statement))
            conn.execute(sql.SQL(f"UPDATE {VERSION_TABLE} SET version = {target}"))
    return path
