"""The one SQLite connection every part of a ``SQLiteStore`` shares.

Opening sets the journal up (WAL, ``synchronous=NORMAL``, large checkpoints) and runs the
migrations. Writes go through :meth:`Database.write`, one ``BEGIN IMMEDIATE`` transaction
each, so readers never wait for writers and a crash leaves the store as it was before
the transaction; reads go through :meth:`Database.query`. One lock serialises the
threads that share the connection.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from groundgraph.errors import NoStoreError, SchemaVersionError, StoreBusyError, StoreError
from groundgraph.store.sqlite.rows import int_of
from groundgraph.store.sqlite.schema import EDGE_LOOKUPS, MIGRATIONS, SCHEMA_VERSION

__all__ = ["Database", "Query"]

#: One read statement and its parameters to all its rows.
Query = Callable[[str, Sequence[object]], list[tuple[object, ...]]]

# WAL pages written before a commit checkpoints them into the database (SQLite's default
# is 1,000). Each checkpoint syncs both files; fewer, larger ones copy a page that many
# documents rewrote once, which about halves the time bulk indexing spends checkpointing.
_WAL_PAGES = 10_000
# Page cache of a writing connection, in KiB (SQLite's default is 2 MiB). Bulk indexing
# inserts edges into three indexes in key orders unrelated to the insertion order; with the
# default cache each insert reads its index pages back from the file again.
_CACHE_KIB = 65_536

# Bytes of the file read through a memory map instead of read() calls: a new process reads
# the saved lexical index (a blob of some MiB) without copying it page by page, about a
# quarter of a cold search's open at 100k sections. Writes still go through the journal.
# A connection's first write ends its map (``Database.unmap``): every page a writer reads
# stays mapped, so indexing 100k sections kept the whole file (190 MB) in the writing
# process's resident size beside its page cache, for no gain in speed.
MMAP_BYTES = 256 * 1024 * 1024

#: SQLite's ``application_id`` of a groundgraph store ("ggph"), set when the store is made,
#: so a database of another application is recognised before anything writes to it.
APPLICATION_ID = 0x67677068
#: The tables every groundgraph store has had since version 1: a store made before the
#: mark existed is recognised by them (and marked when it is next opened to write).
_OWN_TABLES = frozenset({"settings", "documents", "nodes", "edges"})


def _json_hint(path: str) -> str:
    """What to say of a file of JSON text named as the store: another tool's index, most
    likely (GraphRack writes ``index.json`` as JSON), which is left as it is."""
    try:
        with open(path, "rb") as file:
            start = file.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return ""
    if not start.startswith((b"{", b"[")):
        return ""
    return (
        ": it holds JSON text, such as another tool's index (GraphRack's is JSON), and was "
        "left as it was; a groundgraph store is a SQLite file"
    )


class Database:
    """A SQLite file (or ``:memory:``) opened, migrated and shared between threads."""

    def __init__(
        self, path: str | Path = ":memory:", timeout: float = 10.0, *, read_only: bool = False
    ) -> None:
        self.path = str(path)
        self.read_only = read_only
        self._timeout = timeout
        if read_only:
            self.conn = self._open_read_only(timeout)
            self._lock = threading.RLock()
            self._closed = False
            self._batched = False
            self._mapped = True
            return
        if self.path != ":memory:":
            parent = Path(self.path).expanduser().resolve().parent
            if not parent.is_dir():
                raise StoreError(f"cannot create the store {self.path}: folder {parent} is missing")
        try:
            self.conn = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store {self.path}: {exc}") from exc
        self._lock = threading.RLock()
        self._closed = False
        self._batched = False
        self._mapped = False
        try:
            self._recognise()  # before anything writes to the file
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute(f"PRAGMA wal_autocheckpoint={_WAL_PAGES}")
            self.conn.execute(f"PRAGMA cache_size=-{_CACHE_KIB}")
            self.conn.execute("PRAGMA foreign_keys=OFF")
            self._migrate()
            self.conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
            self._mapped = True
        except (sqlite3.DatabaseError, ValueError) as exc:  # ValueError: undecodable text
            self.conn.close()
            raise StoreError(
                f"{self.path} is not a groundgraph store ({exc}){_json_hint(self.path)}; "
                "name another file with --db (or --out, --index)"
            ) from exc
        except StoreError:
            self.conn.close()
            raise

    def _recognise(self) -> None:
        """Refuse, untouched, a database that is neither new nor a groundgraph store."""
        conn = self.conn
        if int(conn.execute("PRAGMA application_id").fetchone()[0]) == APPLICATION_ID:
            return
        tables = sorted(
            str(r[0])
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        )
        if not tables:
            return  # a new, empty database becomes a store
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version >= 1 and set(tables) >= _OWN_TABLES:
            return  # a store made before the application_id mark
        shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
        raise StoreError(
            f"{self.path} is not a groundgraph store (it holds the tables {shown}) and was "
            "left as it was; name another file with --db"
        )

    def _open_read_only(self, timeout: float) -> sqlite3.Connection:
        # mode=ro: SQLite refuses every write, creates no file and runs no migration, so a
        # store is read as it is (its schema must be this version's) and nothing else is
        # touched. A missing file is an error, not a new empty store.
        file = Path(self.path).expanduser()
        if self.path == ":memory:" or not file.is_file():
            raise NoStoreError(f"no store at {self.path}: a read-only open needs an existing store")
        try:
            conn = sqlite3.connect(
                f"{file.resolve().as_uri()}?mode=ro",
                uri=True,
                timeout=timeout,
                isolation_level=None,
                check_same_thread=False,
            )
            conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            marked = int(conn.execute("PRAGMA application_id").fetchone()[0]) == APPLICATION_ID
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        except (sqlite3.DatabaseError, ValueError) as exc:  # ValueError: undecodable text
            raise StoreError(f"{self.path} is not a groundgraph store ({exc})") from exc
        if not (marked or tables >= _OWN_TABLES) or version == 0:
            conn.close()
            raise StoreError(f"{self.path} is not a groundgraph store (no groundgraph tables)")
        if version != SCHEMA_VERSION:
            conn.close()
            raise SchemaVersionError(
                f"{self.path} has schema version {version} and this groundgraph reads "
                f"{SCHEMA_VERSION}: open it read-write once to migrate it, or use a "
                "groundgraph of its version"
            )
        return conn

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction: committed when the block ends, rolled back
        when it raises. Inside ``batch``, a savepoint of the batch's transaction instead:
        released when the block ends, rolled back (alone) when it raises."""
        with self._lock:
            self._check_writable()
            if self._batched:
                self.conn.execute("SAVEPOINT write")
                try:
                    yield self.conn
                except BaseException:
                    self.conn.execute("ROLLBACK TO write")
                    self.conn.execute("RELEASE write")
                    raise
                self.conn.execute("RELEASE write")
                return
            self._begin()
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """The writes in the block share one ``BEGIN IMMEDIATE`` transaction (fewer commits
        write each page the documents share once); each is still whole, and the block
        commits the ones that finished also when it raises. Nested, it joins the outer."""
        with self._lock:
            self._check_writable()
            if self._batched:
                yield
                return
            self._begin()
            self._batched = True
            try:
                yield
            finally:
                self._batched = False
                try:
                    self.conn.execute("COMMIT")
                except BaseException:
                    if self.conn.in_transaction:
                        self.conn.execute("ROLLBACK")
                    raise

    def unmap(self) -> None:
        """Read the file through the page cache from now on (``MMAP_BYTES``)."""
        with self._lock:
            if self._mapped and not self.conn.in_transaction:
                self.conn.execute("PRAGMA mmap_size=0")
                self._mapped = False

    def _begin(self) -> None:
        self.unmap()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreBusyError(
                f"the store {self.path} is locked by another writer ({exc}); try again"
            ) from exc

    @contextmanager
    def outside_transaction(self) -> Iterator[sqlite3.Connection]:
        """The shared connection, held, for a statement that cannot run inside a
        transaction (``VACUUM``); StoreError inside a batch or on a read-only store."""
        with self._lock:
            self._check_writable()
            if self.conn.in_transaction:
                raise StoreError(f"the store {self.path} is inside a batch: do this after it")
            yield self.conn

    @contextmanager
    def snapshot(self) -> Iterator[Query]:
        """Reads that all see one state of the store, whatever is written meanwhile: one
        read transaction on a connection of its own, so a long read (every node, page by
        page) neither holds the shared connection nor sees a document twice. Inside this
        connection's own transaction (or for ``:memory:``, which no other connection can
        write) the shared connection already is one state, and is used."""
        self._check_open()
        if self.path == ":memory:" or self.conn.in_transaction:
            yield self.query
            return
        uri = f"{Path(self.path).expanduser().resolve().as_uri()}?mode=ro"
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=self._timeout, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the store {self.path}: {exc}") from exc
        try:
            conn.isolation_level = None
            conn.execute("BEGIN")

            def query(sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
                return conn.execute(sql, params).fetchall()

            yield query
        finally:
            conn.close()  # ends the read transaction

    @contextmanager
    def low_memory(self) -> Iterator[None]:
        """In the block, reads go through ``read()`` calls, not the memory map, and the page
        cache is SQLite's default (2 MiB), not ``_CACHE_KIB``: for a pass over the whole
        store (an export, an import), whose pages are met about once each. A scan touches
        pages spread over the file and the kernel maps the cached pages around each one it
        faults in, all counted in the process's resident memory (120 MiB of a 190 MB store
        at 100k sections); a 64 MiB cache adds its 64 MiB."""
        with self._lock:
            self._check_open()
            self.conn.execute("PRAGMA mmap_size=0")
            self.conn.execute("PRAGMA cache_size=-2000")
        try:
            yield
        finally:
            with self._lock:
                if not self._closed:
                    self.conn.execute(f"PRAGMA cache_size=-{_CACHE_KIB}")
                    if self._mapped:  # a connection that has written maps no file (unmap)
                        self.conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The shared connection inside one read transaction (or the transaction it is in):
        the statements of the block, blob reads included, see one state of the store."""
        with self._lock:
            self._check_open()
            if self.conn.in_transaction:
                yield self.conn
                return
            self.conn.execute("BEGIN")
            try:
                yield self.conn
            finally:
                self.conn.execute("COMMIT")  # a read: ends the transaction, writes nothing

    def query(
        self, sql: str, params: Sequence[object] | Mapping[str, object] = ()
    ) -> list[tuple[object, ...]]:
        """Every row of one read statement (``?`` or ``:name`` parameters)."""
        with self._lock:
            self._check_open()
            return self.conn.execute(sql, params).fetchall()

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    def _check_writable(self) -> None:
        self._check_open()
        if self.read_only:
            raise StoreError(f"the store {self.path} is open read-only: open it to write")

    def _migrate(self) -> None:
        with self.write() as conn:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise SchemaVersionError(
                    f"{self.path} has schema version {version}, newer than this groundgraph "
                    f"understands ({SCHEMA_VERSION}): upgrade groundgraph"
                )
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[target]:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {target}")
            # The lookups a run killed while filling left out (a store without its edge
            # table is damaged: the reads that need it say so).
            if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'edges'").fetchone():
                for statement in EDGE_LOOKUPS:
                    conn.execute(statement)
            if int(conn.execute("PRAGMA application_id").fetchone()[0]) != APPLICATION_ID:
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    def schema_version(self) -> int:
        return int_of(self.query("PRAGMA user_version")[0][0])

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self.conn.close()
