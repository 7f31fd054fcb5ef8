"""The pool of connections every part of a ``PostgresStore`` shares.

Opening connects once to make or check the schema (``setup.py``), then keeps a bounded
``psycopg_pool`` pool. Writes go through :meth:`Database.transact`: one transaction each
that first takes the store's write lock (an advisory transaction lock on the store's
schema), so writers of one store, in any process on any machine, are serialised as
SQLite's ``BEGIN IMMEDIATE`` serialises them, and a generation is never skipped or seen
out of order; a serialization failure or deadlock (a server whose default isolation is
``serializable``, or another client's locks) is retried with backoff. Inside
:meth:`Database.batch` a write is a savepoint of the batch's transaction. Reads take any
pooled connection, or the thread's own transaction when it holds one, so a batch reads
what it wrote.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg
from psycopg.pq import TransactionStatus
from psycopg.types.string import TextLoader
from psycopg_pool import ConnectionPool, PoolTimeout

from groundgraph.errors import StoreError
from groundgraph.store.postgres.faults import server_error
from groundgraph.store.postgres.location import PostgresLocation
from groundgraph.store.postgres.notify import GenerationWatch, channel_of
from groundgraph.store.postgres.setup import prepare_schema, register_types

__all__ = ["Connection", "Database", "Query"]

Connection = psycopg.Connection[tuple[Any, ...]]
#: One read statement and its parameters to all its rows.
Query = Callable[[str, Sequence[object]], list[tuple[Any, ...]]]
T = TypeVar("T")

#: ANALYZE runs after this many writes by this process, then after twice as many, ...:
#: the planner then knows the tables grew (autovacuum would tell it later), so the walk's
#: lookups stay index lookups right after bulk indexing, at a cost that adds up to a
#: few ANALYZE runs per doubling of the store.
_FIRST_ANALYZE = 64
_ANALYZED = "documents, nodes, edges, doc_links, node_vectors"

#: Attempts of a write that meets a serialization failure or a deadlock, and the first
#: wait between them (doubled each time, with jitter).
_ATTEMPTS = 6
_FIRST_WAIT = 0.02


class Database:
    """A store's schema on a PostgreSQL server, made or checked, and a pool over it."""

    def __init__(
        self,
        location: PostgresLocation,
        *,
        create: bool = True,
        read_only: bool = False,
        pool_size: int = 8,
        timeout: float = 10.0,
    ) -> None:
        self.location = location
        self.where = location.shown
        self.path = location.shown
        self.read_only = read_only
        self._local = threading.local()
        self._closed = False
        self._writes = 0
        self._batch_writes = 0
        self._next_analyze = _FIRST_ANALYZE
        digest = hashlib.blake2b(f"groundgraph:{location.schema}".encode(), digest_size=8)
        self.lock_key = int.from_bytes(digest.digest(), "big", signed=True)
        search_path = prepare_schema(
            location, self.lock_key, create=create, read_only=read_only, timeout=timeout
        )
        seconds = max(1, round(timeout))
        options = f"-c search_path={search_path} -c lock_timeout={seconds}s"
        self.channel = channel_of(self.lock_key)
        self.watch = GenerationWatch(
            location.conninfo,
            {
                "application_name": "groundgraph listener",
                "connect_timeout": seconds,
                "options": options,
            },
            self.channel,
        )
        self._pool: ConnectionPool[Connection] = ConnectionPool(
            location.conninfo,
            min_size=1,
            max_size=max(1, pool_size),
            kwargs={
                "autocommit": True,
                "application_name": "groundgraph",
                "connect_timeout": seconds,
                "options": options,
            },
            configure=register_types,
            timeout=timeout,
            open=False,
            name=f"groundgraph {location.shown}",
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except Exception as exc:
            self._pool.close()
            raise server_error(exc, self.where) from exc

    # ------------------------------------------------------------------ writes
    def transact(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one write transaction holding the store's write lock (a
        savepoint, when this thread is inside :meth:`batch`); retried whole, with
        backoff, after a serialization failure or a deadlock."""
        self._check_writable()
        held: Connection | None = getattr(self._local, "conn", None)
        if held is not None:
            held.execute("SAVEPOINT write")
            try:
                result = work(held)
            except BaseException:
                self.watch.forget()  # refused, maybe for what another process wrote
                _quietly(held, "ROLLBACK TO SAVEPOINT write")
                _quietly(held, "RELEASE SAVEPOINT write")
                raise
            held.execute("RELEASE SAVEPOINT write")
            self._batch_writes += 1
            return result
        wait = _FIRST_WAIT
        for attempt in range(_ATTEMPTS):
            try:
                with self._pool.connection() as conn:
                    with conn.transaction():
                        self._take_write_lock(conn)
                        self._local.conn = conn
                        try:
                            result = work(conn)
                        except BaseException:
                            # Refused, maybe for what another process committed, whose
                            # notification may not have arrived yet: the caller that
                            # asks whether it is behind must get the generation read.
                            self.watch.forget()
                            raise
                        finally:
                            self._local.conn = None
                    self._wrote(conn, 1)
                    return result
            except (pg.SerializationFailure, pg.DeadlockDetected) as exc:
                if attempt == _ATTEMPTS - 1:
                    raise server_error(exc, self.where) from exc
                time.sleep(wait * (1 + random.random()))
                wait *= 2
        raise AssertionError("unreachable")  # pragma: no cover

    @contextmanager
    def batch(self) -> Iterator[None]:
        """The writes in the block share one transaction; each is a savepoint of it, so
        still whole, and the block commits the ones that finished also when it raises.
        Nested, it joins the outer one."""
        self._check_writable()
        if getattr(self._local, "conn", None) is not None:
            yield
            return
        try:
            with self._pool.connection() as conn:
                conn.execute("BEGIN")
                self._batch_writes = 0
                self._take_write_lock(conn)
                self._local.conn = conn
                try:
                    yield
                finally:
                    self._local.conn = None
                    if conn.info.transaction_status == TransactionStatus.INERROR:
                        conn.execute("ROLLBACK")
                    elif conn.info.transaction_status != TransactionStatus.IDLE:
                        conn.execute("COMMIT")
                        self._wrote(conn, self._batch_writes)
        except (psycopg.Error, PoolTimeout) as exc:
            raise server_error(exc, self.where) from exc

    def _wrote(self, conn: Connection, writes: int) -> None:
        """Count committed writes; ANALYZE the graph's tables at each doubling."""
        self._writes += writes
        if self._writes >= self._next_analyze:
            self._next_analyze = 2 * self._writes
            conn.execute(f"ANALYZE {_ANALYZED}")

    def check_unbatched(self) -> None:
        """StoreError unless a write outside any batch could start now (open, writable)."""
        self._check_writable()
        if getattr(self._local, "conn", None) is not None:
            raise StoreError(f"the store {self.where} is inside a batch: do this after it")

    def _take_write_lock(self, conn: Connection) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (self.lock_key,))

    # ------------------------------------------------------------------- reads
    def query(
        self,
        sql: str,
        params: Sequence[object] | Mapping[str, object] = (),
        *,
        prepare: bool | None = None,
        binary: bool = False,
    ) -> list[tuple[Any, ...]]:
        """Every row of one read statement (on this thread's transaction, if any). A
        read that finds its pooled connection dropped is tried once more on another.
        ``prepare=True``, for a statement of every search: prepared on its first run on
        a connection rather than its fifth. ``binary=True`` has the rows sent in binary
        (a large ``bytea`` comes 3-5x faster than as hex text)."""
        self._check_open()
        held: Connection | None = getattr(self._local, "conn", None)
        if held is not None:
            return held.execute(sql, params, prepare=prepare, binary=binary).fetchall()
        for attempt in (1, 2):
            try:
                with self._pool.connection() as conn:
                    return conn.execute(sql, params, prepare=prepare, binary=binary).fetchall()
            except psycopg.OperationalError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def query_plain(self, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """As :meth:`query`, for a statement run on every search: prepared on its first
        run on a connection (no planning afterwards), and its text columns read by
        psycopg's own loader, still NUL-escaped (the caller applies
        :func:`~groundgraph.store.postgres.text.unescape_nul` to what it keeps), which
        spares a Python call per value."""
        self._check_open()

        def run(conn: Connection) -> list[tuple[Any, ...]]:
            with conn.cursor() as cursor:
                cursor.adapters.register_loader("text", TextLoader)
                return cursor.execute(sql, params, prepare=True).fetchall()

        held: Connection | None = getattr(self._local, "conn", None)
        if held is not None:
            return run(held)
        for attempt in (1, 2):
            try:
                with self._pool.connection() as conn:
                    return run(conn)
            except psycopg.OperationalError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    @contextmanager
    def snapshot(self) -> Iterator[Query]:
        """Reads that all see one state of the store: one ``REPEATABLE READ`` read-only
        transaction on a pooled connection of its own (this thread's own transaction,
        when it holds one, already is one state)."""
        self._check_open()
        if getattr(self._local, "conn", None) is not None:
            yield self.query
            return
        with self._pool.connection() as conn:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:

                def query(sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
                    return conn.execute(sql, params).fetchall()

                yield query
            finally:
                if not conn.closed:
                    _quietly(conn, "ROLLBACK")

    # -------------------------------------------------------------------- life
    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    def _check_writable(self) -> None:
        self._check_open()
        if self.read_only:
            raise StoreError(f"the store {self.where} is open read-only: open it to write")

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.watch.close()
            self._pool.close()


def _quietly(conn: Connection, statement: str) -> None:
    """Run ``statement`` if the connection still can; a dropped one rolled back anyway."""
    with suppress(psycopg.Error):
        conn.execute(statement)
