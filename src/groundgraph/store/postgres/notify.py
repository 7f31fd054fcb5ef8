"""Learning of other processes' writes by ``LISTEN``/``NOTIFY`` instead of asking.

Every write's generation bump also runs ``pg_notify`` on the store's channel (in the
same statement, so no extra round trip); PostgreSQL delivers it to every listening
session when the write commits. :class:`GenerationWatch` keeps one connection of its own
listening on that channel and remembers the last generation it read: while no
notification has arrived since, the generation is what it was, and asking for it costs
no round trip (the socket is only drained, without waiting). A notification, this
process's own write (or one of its writes refused, perhaps for what another process
committed), or a listening connection that dropped makes the next call read
the generation from the server again (after listening anew, so nothing committed in
between is missed).

A commit by another process is seen once its notification has reached this process's
socket, normally well under a millisecond after the commit returns.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import psycopg
from psycopg import sql

__all__ = ["GenerationWatch", "channel_of"]


def channel_of(lock_key: int) -> str:
    """The store's notification channel (named after its write lock, so per schema)."""
    return f"groundgraph_{lock_key & 0xFFFFFFFFFFFFFFFF:016x}"


class GenerationWatch:
    """The store's generation, re-read only when a notification says it changed."""

    def __init__(self, conninfo: str, options: dict[str, Any], channel: str) -> None:
        self._conninfo = conninfo
        self._options = options
        self._channel = channel
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None
        self._known: int | None = None
        self._lock = threading.Lock()
        self.reads = 0  # how often the generation was read from the server (tests)

    def generation(self, read: Callable[[], int]) -> int:
        """The generation: the remembered one, unless a notification (or a lost
        listening connection) says to ``read`` it again."""
        with self._lock:
            if not self._listening() or self._notified():
                self._known = None
            if self._known is None:
                self.reads += 1
                value = read()
                if self._conn is None:  # not listening: every call reads
                    return value
                self._known = value
            return self._known

    def forget(self) -> None:
        """This process wrote: read the generation again next time."""
        with self._lock:
            self._known = None

    def _listening(self) -> bool:
        if self._conn is not None and not self._conn.closed:
            return True
        self._conn = None
        with suppress(psycopg.Error):
            conn: psycopg.Connection[tuple[object, ...]] = psycopg.connect(
                self._conninfo, autocommit=True, **self._options
            )
            conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._channel)))
            self._conn = conn
            self._known = None
        return self._conn is not None

    def _notified(self) -> bool:
        """Drain the notifications waiting on the socket, without waiting for more."""
        assert self._conn is not None
        pgconn = self._conn.pgconn
        try:
            pgconn.consume_input()
        except psycopg.Error:
            self._drop()
            return True
        got = False
        while pgconn.notifies() is not None:
            got = True
        if self._conn.closed or pgconn.status != psycopg.pq.ConnStatus.OK:
            self._drop()
            return True
        return got

    def _drop(self) -> None:
        if self._conn is not None:
            with suppress(psycopg.Error):
                self._conn.close()
        self._conn = None

    def close(self) -> None:
        with self._lock:
            self._drop()

    def __del__(self) -> None:
        # A store dropped unclosed (as its pool's connections, the listening one goes too).
        conn = getattr(self, "_conn", None)
        if conn is not None:
            with suppress(Exception):
                conn.close()
