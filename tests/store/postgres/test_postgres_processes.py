"""Many processes on one PostgreSQL store: writers of the same document ids serialised,
no half document seen, every write one generation, and a process sees another's commit
on its next call."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from pg_workers import SHARED, whole

from groundgraph import DocumentGraph
from groundgraph.errors import StoreBusyError
from groundgraph.store.postgres import PostgresStore
from postgres_server import fresh_schema_url

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

WORKERS = Path(__file__).with_name("pg_workers.py")


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKERS), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_four_writers_and_two_readers_leave_whole_documents(tmp_path):
    url = fresh_schema_url("procs")
    PostgresStore(url).close()  # made once, before the processes race to open it
    rounds = 6
    writers = [_start("write", url, str(w), str(rounds)) for w in range(4)]
    readers = [_start("read", url, "6") for _ in range(2)]
    results = []
    for proc in writers + readers:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err[-2000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert sum(int(r["writes"]) for r in results[:4]) == 4 * rounds * 2
    assert all(int(r["checks"]) > 0 and r["half"] == 0 for r in results[4:]), results
    with DocumentGraph(url) as graph:
        # Each write bumped the one store-wide generation once, none lost to a race
        # (the graph's own writes: entity and link refreshes may add more).
        assert graph.store.changes.generation() >= 4 * rounds * 2
        ids = {d.doc_id for d in graph.store.reads.documents()}
        assert {f"shared-{i}" for i in range(SHARED)} <= ids
        assert {f"own-{w}-{r}" for w in range(4) for r in range(rounds)} <= ids
        assert all(whole(graph, doc_id) for doc_id in ids)


def test_a_process_sees_another_process_commit_on_its_next_call():
    url = fresh_schema_url("seen")
    with DocumentGraph(url) as reader:
        assert reader.search("quillwort") == []
        before = reader.store.changes.generation()
        script = (
            "import sys\nfrom groundgraph import DocumentGraph\n"
            "with DocumentGraph(sys.argv[1]) as g:\n"
            "    g.add_document('# Marsh\\n\\nQuillwort grows by the pond.', 'Marsh', 'marsh')\n"
        )
        subprocess.run([sys.executable, "-c", script, url], check=True, timeout=120)
        assert reader.store.changes.generation() > before
        assert [h.doc_id for h in reader.search("quillwort")][:1] == ["marsh"]


def test_a_write_that_meets_a_serialization_failure_is_retried():
    store = PostgresStore(fresh_schema_url("retry"), pool_size=2)
    tries = []

    def work(conn):
        tries.append(1)
        conn.execute("INSERT INTO settings(key, value) VALUES ('k', %s)", (str(len(tries)),))
        if len(tries) < 3:
            raise psycopg.errors.SerializationFailure("could not serialize access")
        return len(tries)

    try:
        assert store._db.transact(work) == 3
        assert store.settings.get_setting("k") == "3"  # the failed tries left nothing

        def always(conn):
            raise psycopg.errors.DeadlockDetected("deadlock detected")

        with pytest.raises(StoreBusyError, match="try again"):
            store._db.transact(always)
    finally:
        store.close()


def test_a_writer_killed_mid_document_leaves_no_half_document():
    import random
    import signal
    import time

    url = fresh_schema_url("killed")
    PostgresStore(url).close()
    rng = random.Random(5)
    for run in range(8):
        proc = _start("write", url, str(run), "40")
        time.sleep(2.0 + rng.random() * 2.0)  # past the imports, in the middle of writing
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
    with DocumentGraph(url) as graph:
        ids = [d.doc_id for d in graph.store.reads.documents()]
        assert ids  # the writers got somewhere before they were killed
        assert all(whole(graph, doc_id) for doc_id in ids)


def test_a_notification_tells_a_process_of_another_process_write():
    url = fresh_schema_url("notified")
    with DocumentGraph(url) as reader:
        watch = reader.store._db.watch
        reader.search("quillwort")
        first = reader.store.changes.generation()
        asked = watch.reads
        for _ in range(5):  # nothing written meanwhile: no round trip for the generation
            reader.search("quillwort")
            assert reader.store.changes.generation() == first
        assert watch.reads == asked
        script = (
            "import sys\nfrom groundgraph import DocumentGraph\n"
            "with DocumentGraph(sys.argv[1]) as g:\n"
            "    g.add_document('# Marsh\\n\\nQuillwort grows by the pond.', 'Marsh', 'marsh')\n"
        )
        subprocess.run([sys.executable, "-c", script, url], check=True, timeout=120)
        assert reader.store.changes.generation() > first
        assert watch.reads > asked
        assert [h.doc_id for h in reader.search("quillwort")][:1] == ["marsh"]


def test_a_dropped_listening_connection_falls_back_to_reading_the_generation():
    url = fresh_schema_url("unheard")
    with DocumentGraph(url) as reader:
        reader.search("heron")
        watch = reader.store._db.watch
        assert watch._conn is not None
        watch._conn.close()  # as if the server dropped it
        PostgresStore(url).close()
        with DocumentGraph(url) as writer:
            writer.add_document("# Pond\n\nA heron waits.", "Pond", "pond")
        assert [h.doc_id for h in reader.search("heron")][:1] == ["pond"]


def test_a_refused_write_makes_the_next_call_read_the_generation():
    from groundgraph.errors import InputError
    from groundgraph.model import Edge

    url = fresh_schema_url("refused")
    store = PostgresStore(url)
    try:
        first = store.changes.generation()
        # Another client moves the generation without a notification (one not yet
        # arrived): the remembered generation stands...
        with psycopg.connect(store._db.location.conninfo, autocommit=True) as other:
            other.execute(
                f"UPDATE {store.schema}.settings SET value = '41' WHERE key = 'generation'"
            )
            other.execute(
                f"INSERT INTO {store.schema}.settings(key, value) SELECT 'generation', '41'"
                f" WHERE NOT EXISTS (SELECT 1 FROM {store.schema}.settings"
                " WHERE key = 'generation')"
            )
        assert store.changes.generation() == first
        # ... until a write of this process is refused, perhaps for what was committed.
        with pytest.raises(InputError):
            store.writes.replace_derived_edges(
                "semantic", [Edge("gone#1", "gone#2", "semantic", 0.5)]
            )
        assert store.changes.generation() == 41
    finally:
        store.close()
