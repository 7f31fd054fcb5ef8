"""Crash safety and concurrency on one SQLite store, with real processes.

    .venv/bin/python benchmarks/reliability.py                    # 200 kills, 30 s of 8 + 4
    .venv/bin/python benchmarks/reliability.py --kills 1000 --seconds 60

**Kills.** Each run copies a store holding half of a generated folder (40 documents that
name each other, plus memory facts), starts a child process that does one operation on it
(index the rest, re-index changed files, add facts one by one, supersede, delete, import a
saved graph) and prints the id of each write as soon as it is committed, then kills it
with SIGKILL at a random moment. After each kill: SQLite's integrity check passes, the
store opens, every document stored is whole (its nodes are exactly those of the version
before or after the operation), and every acknowledged write is there. Then the operation
runs again to the end, and the store is compared with the same operation run without a
kill: the same documents, nodes and edges.

**Concurrency.** 8 writer processes (each replaces documents of its own and adds facts) and
4 reader processes (each opens the store, searches, reads stats and memory, closes, over
and over) share one store for ``--seconds``: writes, reads, errors and failed opens.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from speed import THREADS_ENV

ENV = {**os.environ, **THREADS_ENV}

OPS = ("index", "reindex", "memory", "supersede", "delete", "import")
TOPICS = ["boiler", "pump", "fuse", "radiator", "thermostat", "valve", "meter", "heater"]

CHILD = r"""
import json, sys
from pathlib import Path
from groundgraph import DocumentGraph
from groundgraph.ingest import plan_folder
op, db, folder, extra = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4]
def ack(x):
    print(x, flush=True)
with DocumentGraph(db) as graph:
    if op in ("index", "reindex"):
        files = plan_folder([folder]).files
        for planned, result in graph.index_files(files, workers=0):
            if isinstance(result, list):
                for doc in result:
                    ack(doc.doc_id)
    elif op == "memory":
        for line in Path(extra).read_text().splitlines():
            ack(graph.add_text(line, scopes="ops").fact_id)
    elif op == "supersede":
        for i, line in enumerate(Path(extra).read_text().splitlines()):
            old = f"The {line} was checked in week 1."
            ack(graph.supersede(old, f"The {line} was checked in week {i + 2}.").fact_id)
    elif op == "delete":
        for doc in graph.documents():
            graph.delete(doc.doc_id)
            ack(doc.doc_id)
    elif op == "import":
        for doc in graph.load_json(json.loads(Path(extra).read_text())):
            ack(doc.doc_id)
"""


def write_folder(folder: Path, count: int, version: int, rng: random.Random) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        a, b = rng.sample(TOPICS, 2)
        sections = "\n\n".join(
            f"## {a.title()} step {s}\n\nThe {a} feeds the {b} (version {version}). "
            f"See [Doc {(i + 1) % count}](doc{(i + 1) % count}.md). Ann Lee checks the {b}."
            for s in range(1, 6)
        )
        (folder / f"doc{i}.md").write_text(f"# Doc {i}\n\n{sections}\n", encoding="utf-8")


def snapshot(db: Path) -> dict[str, object]:
    conn = sqlite3.connect(db)
    try:
        nodes = conn.execute(
            "SELECT n.node_id, n.title, n.content, COALESCE(d.doc_id, '') FROM nodes n"
            " LEFT JOIN documents d ON d.seq = n.doc ORDER BY n.node_id"
        ).fetchall()
        edges = conn.execute(
            "SELECT s.node_id, t.node_id, k.name, round(COALESCE(e.weight, k.weight), 9)"
            " FROM edges e JOIN nodes s ON s.key = e.src JOIN nodes t ON t.key = e.dst"
            " JOIN edge_types k ON k.code = e.type ORDER BY 1, 2, 3, 4"
        ).fetchall()
        docs = conn.execute("SELECT doc_id FROM documents ORDER BY doc_id").fetchall()
    finally:
        conn.close()
    return {"docs": docs, "nodes": nodes, "edges": edges}


def doc_nodes(state: dict[str, object]) -> dict[str, set[tuple[object, ...]]]:
    by_doc: dict[str, set[tuple[object, ...]]] = {}
    for node_id, title, content, doc in state["nodes"]:  # type: ignore[attr-defined]
        if doc:
            by_doc.setdefault(doc, set()).add((node_id, title, content))
    return by_doc


def run_child(op: str, db: Path, folder: Path, extra: Path, kill_after: float | None) -> list[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, op, str(db), str(folder), str(extra)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    if kill_after is not None:
        time.sleep(kill_after)
        child.kill()
    out, err = child.communicate()
    if kill_after is None and child.returncode != 0:
        raise RuntimeError(f"{op} failed: {err[-500:]}")
    return out.split()


def kills(count: int, work: Path, rng: random.Random) -> dict[str, int]:
    before, after = work / "v1", work / "v2"
    write_folder(before, 40, 1, random.Random(1))
    write_folder(after, 40, 2, random.Random(1))
    half = work / "half"
    half.mkdir()
    for i in range(20):
        shutil.copy(before / f"doc{i}.md", half / f"doc{i}.md")
    facts = work / "facts.txt"
    facts.write_text("\n".join(f"The {t} was checked in week 1." for t in TOPICS) + "\n")
    names = work / "names.txt"
    names.write_text("\n".join(TOPICS) + "\n")
    base = work / "base.db"
    run_child("index", base, half, facts, None)
    run_child("memory", base, half, facts, None)
    saved = work / "saved.json"
    subprocess.run(
        [sys.executable, "-m", "groundgraph", "--db", str(base), "export", "-o", str(saved)],
        check=True,
        env=ENV,
    )
    plans = {
        "index": (before, facts),
        "reindex": (after, facts),
        "memory": (half, facts),
        "supersede": (half, names),
        "delete": (half, facts),
        "import": (half, saved),
    }
    clean: dict[str, dict[str, object]] = {}
    for op, (folder, extra) in plans.items():
        db = work / f"clean-{op}.db"
        shutil.copy(base, db)
        run_child(op, db, folder, extra, None)
        clean[op] = snapshot(db)
    start = snapshot(base)
    tally = dict.fromkeys(("runs", "corrupt", "half documents", "lost acks", "differs"), 0)
    for run in range(count):
        op = OPS[run % len(OPS)]
        folder, extra = plans[op]
        db = work / "run.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        shutil.copy(base, db)
        acked = run_child(op, db, folder, extra, rng.uniform(0.3, 2.0))
        tally["runs"] += 1
        conn = sqlite3.connect(db)
        ok = conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
        if not ok:
            tally["corrupt"] += 1
            continue
        state = snapshot(db)
        whole = [doc_nodes(start), doc_nodes(clean[op])]
        for doc, nodes in doc_nodes(state).items():
            if not any(w.get(doc) == nodes for w in whole) and not doc.startswith("fact:"):
                tally["half documents"] += 1
        stored = {n for n, *_ in state["nodes"]} | {d for (d,) in state["docs"]}  # type: ignore[attr-defined]
        gone = {d for (d,) in start["docs"]} - {d for (d,) in state["docs"]}  # type: ignore[attr-defined]
        lost = [a for a in acked if (a not in gone) if (op != "delete" and a not in stored)]
        tally["lost acks"] += len(lost)
        run_child(op, db, folder, extra, None)
        again = snapshot(db)
        if again != clean[op]:
            tally["differs"] += 1
            parts = [k for k in again if again[k] != clean[op][k]]
            types = sorted({e[2] for e in set(again["edges"]) ^ set(clean[op]["edges"])})  # type: ignore[call-overload]
            print(
                f"run {run} ({op}): re-run differs in {parts} (edge types {types})", file=sys.stderr
            )
    return tally


WRITER = r"""
import sys, time
from groundgraph import DocumentGraph
db, me, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
end, n, errors = time.time() + seconds, 0, 0
while time.time() < end:
    try:
        with DocumentGraph(db) as g:
            text = f"# W{me}\n\n## Part\n\nWriter {me} wrote version {n} of the boiler notes."
            g.add_document(text, f"W{me}", f"w{me}-{n % 5}")
            g.add_text(f"Writer {me} checked valve {n}.", scopes=f"w{me}")
        n += 1
    except Exception as exc:
        errors += 1
        print("ERROR", type(exc).__name__, exc, file=sys.stderr)
print(n, errors)
"""

READER = r"""
import sys, time
from groundgraph import DocumentGraph
db, seconds = sys.argv[1], float(sys.argv[2])
end, n, errors, failed_opens = time.time() + seconds, 0, 0, 0
while time.time() < end:
    try:
        g = DocumentGraph(db)
    except Exception as exc:
        failed_opens += 1
        print("OPEN", type(exc).__name__, exc, file=sys.stderr)
        continue
    try:
        g.search("boiler notes version")
        g.stats()
        g.query("which valve was checked")
        n += 1
    except Exception as exc:
        errors += 1
        print("ERROR", type(exc).__name__, exc, file=sys.stderr)
    finally:
        g.close()
print(n, errors, failed_opens)
"""


def concurrency(seconds: float, work: Path) -> dict[str, int]:
    db = work / "shared.db"
    subprocess.run(
        [sys.executable, "-c", WRITER, str(db), "0", "0.5"],
        check=True,
        env=ENV,
        capture_output=True,
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), str(i), str(seconds)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
        )
        for i in range(1, 9)
    ] + [
        subprocess.Popen(
            [sys.executable, "-c", READER, str(db), str(seconds)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
        )
        for _ in range(4)
    ]  # fmt: skip
    tally = dict.fromkeys(("writes", "reads", "errors", "failed opens"), 0)
    for i, proc in enumerate(procs):
        out, err = proc.communicate(timeout=seconds + 120)
        figures = [int(x) for x in out.split()]
        if err.strip():
            print(err.strip()[-400:], file=sys.stderr)
        if i < 8:
            tally["writes"] += figures[0]
            tally["errors"] += figures[1]
        else:
            tally["reads"] += figures[0]
            tally["errors"] += figures[1]
            tally["failed opens"] += figures[2]
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        killed = kills(args.kills, work, random.Random(args.seed)) if args.kills else {}
        shared = concurrency(args.seconds, work) if args.seconds else {}
    print(json.dumps({"kills": killed, "concurrency": shared}, indent=2))
    print("\n| kill runs | corrupt | half documents | lost acknowledged writes | re-run differs |")
    print("|---:|---:|---:|---:|---:|")
    if killed:
        print(f"| {killed['runs']} | {killed['corrupt']} | {killed['half documents']} "
              f"| {killed['lost acks']} | {killed['differs']} |")  # fmt: skip
    if shared:
        print(f"\n8 writers + 4 readers, {args.seconds:.0f} s: {shared['writes']} writes, "
              f"{shared['reads']} reads, {shared['errors']} errors, "
              f"{shared['failed opens']} failed opens")  # fmt: skip


if __name__ == "__main__":
    main()
