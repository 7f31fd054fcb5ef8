"""What goes wrong between a PostgreSQL store and its server is a typed error that says
what to fix, and a write cut off by a dropped connection leaves no half document."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import psycopg
import pytest

from groundgraph.errors import (
    InputError,
    NoStoreError,
    SchemaVersionError,
    StoreBusyError,
    StoreError,
)
from groundgraph.model import Document, Edge, Node
from groundgraph.store import open_store
from groundgraph.store.postgres import PostgresStore
from postgres_server import admin_connection, fresh_schema_url, postgres_url

pytestmark = pytest.mark.postgres


def doc(doc_id: str, n: int = 2, entities: tuple[str, ...] = ()):
    """A document root, ``n`` sections, their edges, and entities its first section names."""
    nodes = [Node(doc_id, doc_id, "document", doc_id.title(), "")]
    nodes += [
        Node(f"{doc_id}#{i}", doc_id, "section", f"S{i}", f"text {i}", 2, doc_id)
        for i in range(1, n + 1)
    ]
    edges = [Edge(doc_id, f"{doc_id}#{i}", "parent-child", 0.8) for i in range(1, n + 1)]
    edges += [Edge(f"{doc_id}#1", e, "mentions", 0.5) for e in entities]
    found = [Node(e, "", "entity", e.title(), "") for e in entities]
    return Document(doc_id, doc_id.title()), nodes, edges, found


def everything(store) -> tuple[object, ...]:
    """All the graph a store holds, to compare two states."""
    reads = store.reads
    nodes = {d.doc_id: reads.document_nodes(d.doc_id) for d in reads.documents()}
    return (
        reads.documents(),
        nodes,
        reads.entity_nodes(),
        list(reads.iter_edges()),
        reads.counts(),
        store.changes.generation(),
    )


@pytest.mark.parametrize(
    "url",
    ["postgresql://[::1", "postgresql://u@h/db?sslmode=sometimes&x=1", "mysql://h/db"],
)
def test_a_url_that_is_not_one_says_how_to_write_it(url):
    with pytest.raises(InputError, match="postgresql://"):
        PostgresStore(url)


def test_a_schema_name_that_is_not_plain_is_refused():
    with pytest.raises(InputError, match="plain schema name"):
        PostgresStore(f"{postgres_url()}&schema=Robert'); DROP TABLE x")


def test_a_refused_connection_says_to_check_the_server():
    with pytest.raises(StoreError, match="check that the server is running") as caught:
        PostgresStore("postgresql://someone:secret@127.0.0.1:1/nothing", timeout=2)
    assert "secret" not in str(caught.value)  # the password is never shown


def test_a_missing_store_is_not_made_when_only_opening():
    url = fresh_schema_url("absent")
    with pytest.raises(NoStoreError, match="no store at"):
        open_store(url, create=False)
    with admin_connection() as conn:
        schema = url.rsplit("schema=", 1)[1]
        found = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,))
        assert found.fetchone() is None


def test_a_schema_of_other_tables_is_left_as_it_was():
    url = fresh_schema_url("foreign")
    schema = url.rsplit("schema=", 1)[1]
    with admin_connection() as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
        conn.execute(f"CREATE TABLE {schema}.invoices (id int)")
    with pytest.raises(StoreError, match=r"not a groundgraph store .*invoices"):
        PostgresStore(url)


def test_a_store_of_a_newer_version_is_refused():
    url = fresh_schema_url("newer")
    PostgresStore(url).close()
    schema = url.rsplit("schema=", 1)[1]
    with admin_connection() as conn:
        conn.execute(f"UPDATE {schema}.groundgraph_schema SET version = 99")
    with pytest.raises(SchemaVersionError, match="upgrade groundgraph"):
        PostgresStore(url)
    with pytest.raises(SchemaVersionError, match="version 99"):
        PostgresStore(url, read_only=True)


def test_a_database_without_pgvector_says_how_to_get_it():
    # A user who may not create the extension, in a database of its own that lacks it.
    name = f"novector{os.getpid()}"
    with admin_connection() as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"DROP ROLE IF EXISTS {name}")
        conn.execute(f"CREATE ROLE {name} LOGIN")
        conn.execute(f"CREATE DATABASE {name} OWNER {name}")
    base = postgres_url(name)
    url = base.replace("postgres:@", f"{name}:@", 1)
    with pytest.raises(StoreError, match="pgvector"):
        PostgresStore(url)


def _backends(state: str) -> list[int]:
    with admin_connection() as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'groundgraph'"
            " AND state = %s",
            (state,),
        ).fetchall()
    return [int(r[0]) for r in rows]


def _terminate(pids: list[int]) -> None:
    with admin_connection() as conn:
        for pid in pids:
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_connection_dropped_mid_batch_leaves_no_half_document():
    store = PostgresStore(fresh_schema_url("dropped"), pool_size=2)
    try:
        document, nodes, edges, entities = doc("kept", 2)
        store.writes.replace_document(document, nodes, edges, entities=entities)
        before = everything(store)
        with (
            pytest.raises(StoreError, match="lost the connection") as caught,
            store.writes.batch(),
        ):
            document, nodes, edges, entities = doc("cut", 3, entities=("entity:valve",))
            store.writes.replace_document(document, nodes, edges, entities=entities)
            # Written but not committed: the server drops the connection now.
            _terminate(_backends("idle in transaction"))
            time.sleep(0.2)
        assert "rolled back whole" in str(caught.value)
        assert everything(store) == before  # the pool gives a new connection
        store.writes.replace_document(*doc("after")[:3])
        assert store.reads.get_document("after") is not None
    finally:
        store.close()


def test_a_connection_dropped_while_a_write_waits_leaves_the_store_as_it_was():
    store = PostgresStore(fresh_schema_url("waiting"), pool_size=2)
    try:
        before = everything(store)
        failures: list[BaseException] = []
        with admin_connection() as holder:
            holder.execute("BEGIN")
            holder.execute("SELECT pg_advisory_xact_lock(%s)", (store._db.lock_key,))

            def write() -> None:
                try:
                    store.writes.replace_document(*doc("blocked", 2)[:3])
                except BaseException as exc:
                    failures.append(exc)

            thread = threading.Thread(target=write)
            thread.start()
            for _ in range(100):  # until the write waits on the lock, inside its transaction
                waiting = _backends("active")
                if waiting:
                    break
                time.sleep(0.05)
            _terminate(waiting)
            thread.join(10)
            holder.execute("ROLLBACK")
        assert len(failures) == 1 and isinstance(failures[0], StoreError)
        assert everything(store) == before
    finally:
        store.close()


def test_a_full_pool_is_a_busy_store():
    store = PostgresStore(fresh_schema_url("full"), pool_size=1, timeout=1)
    try:
        for i in range(3):
            store.writes.replace_document(*doc(f"d{i}", 2)[:3])
        pages = store.reads.iter_nodes(batch=1)
        next(pages)  # holds the only connection in its snapshot
        with pytest.raises(StoreBusyError, match="pool_size"):
            store.reads.documents()
        pages.close()
        assert len(store.reads.documents()) == 3
    finally:
        store.close()


def test_the_cli_says_what_to_fix_without_a_traceback():
    env = {**os.environ, "GROUNDGRAPH_DB": "postgresql://nobody@127.0.0.1:1/none"}
    done = subprocess.run(
        [sys.executable, "-m", "groundgraph", "stats"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode != 0
    assert "check that the server is running" in done.stderr
    assert "Traceback" not in done.stderr


def test_nul_characters_round_trip():
    store = PostgresStore(fresh_schema_url("nul"), pool_size=1)
    try:
        store.settings.set_setting("a\x00b", "x\x01\x00\x01\x02y")
        assert store.settings.get_setting("a\x00b") == "x\x01\x00\x01\x02y"
        assert store.settings.get_setting("a") is None
    finally:
        store.close()


def test_psycopg_is_what_the_store_runs_on():
    assert psycopg.__version__ >= "3.2"
