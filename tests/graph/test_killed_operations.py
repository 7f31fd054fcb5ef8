"""SIGKILL in the middle of each writing operation: the fast subset of
``benchmarks/reliability.py`` (which runs the same checks a thousand times at random moments).

Each case copies one store, starts a child process that does one operation on it and prints
the id of each write once it is committed, kills it with SIGKILL right after an
acknowledgement (so the next write is under way), and checks that SQLite's integrity check
passes, that every stored document is whole (its nodes exactly those of the version before
or after the operation), that every acknowledged write is there, and that running the
operation again to the end gives the same store as a run that was never killed.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHILD = r"""
import json, sys
from pathlib import Path
from groundgraph import DocumentGraph
from groundgraph.ingest import plan_folder
op, db, folder, extra = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4]
def ack(x):
    print(x, flush=True)
with DocumentGraph(db) as graph:
    print("ready", flush=True)  # imports done and the store open: the operation starts
    if op in ("index", "reindex"):
        for planned, result in graph.index_files(plan_folder([folder]).files, workers=0):
            if isinstance(result, list):
                for doc in result:
                    ack(doc.doc_id)
    elif op == "memory":
        for line in Path(extra).read_text().splitlines():
            ack(graph.add_text(line, scopes="ops").fact_id)
    elif op == "supersede":
        for i, name in enumerate(Path(extra).read_text().split()):
            old = f"The {name} was checked in week 1."
            ack(graph.supersede(old, f"The {name} was checked in week {i + 2}.").fact_id)
    elif op == "delete":
        for doc in graph.documents():
            graph.delete(doc.doc_id)
            ack(doc.doc_id)
    elif op == "import":
        for doc in graph.load_json(json.loads(Path(extra).read_text())):
            ack(doc.doc_id)
"""

TOPICS = ["boiler", "pump", "fuse", "radiator", "thermostat", "valve"]
DOCS = 12


def _write_folder(folder: Path, version: int, count: int = DOCS) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        a, b = TOPICS[i % len(TOPICS)], TOPICS[(i * 5 + 1) % len(TOPICS)]
        sections = "\n\n".join(
            f"## {a.title()} step {s}\n\nThe {a} feeds the {b} (version {version}). "
            f"See [Doc {(i + 1) % count}](doc{(i + 1) % count}.md). Ann Lee checks the {b}."
            for s in range(1, 5)
        )
        (folder / f"doc{i}.md").write_text(f"# Doc {i}\n\n{sections}\n", encoding="utf-8")


def _run(
    op: str,
    db: Path,
    folder: Path,
    extra: Path,
    kill_after_acks: int | None,
    kill_after_seconds: float | None = None,
) -> list[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, op, str(db), str(folder), str(extra)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    acked: list[str] = []
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.readline().strip() == "ready", child.stderr.read()[-800:]
    if kill_after_seconds is not None:  # counted from "ready"
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=kill_after_seconds)
        child.send_signal(signal.SIGKILL)
    elif kill_after_acks is not None:
        for line in child.stdout:
            acked.append(line.strip())
            if len(acked) == kill_after_acks:
                child.send_signal(signal.SIGKILL)
                break
    out, err = child.communicate(timeout=120)
    acked += out.split()
    if kill_after_acks is None and kill_after_seconds is None:
        assert child.returncode == 0, err[-800:]
    elif kill_after_seconds is not None:  # a timed kill may come after the end
        assert child.returncode in (0, -signal.SIGKILL), err[-800:]
    else:
        assert child.returncode == -signal.SIGKILL, f"{op} ended before the kill: {err[-800:]}"
    return acked


def _snapshot(db: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
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


def _doc_nodes(state: dict[str, list[tuple[object, ...]]]) -> dict[object, set[tuple[object, ...]]]:
    by_doc: dict[object, set[tuple[object, ...]]] = {}
    for node_id, title, content, doc in state["nodes"]:
        if doc:
            by_doc.setdefault(doc, set()).add((node_id, title, content))
    return by_doc


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    work = tmp_path_factory.mktemp("kills")
    before, after, half = work / "v1", work / "v2", work / "half"
    _write_folder(before, 1)
    _write_folder(after, 2)
    _write_folder(half, 1, count=DOCS // 2)
    facts = work / "facts.txt"
    facts.write_text("\n".join(f"The {t} was checked in week 1." for t in TOPICS) + "\n")
    names = work / "names.txt"
    names.write_text("\n".join(TOPICS) + "\n")
    base = work / "base.db"
    _run("index", base, half, facts, None)
    _run("memory", base, half, facts, None)
    full, saved = work / "full.db", work / "saved.json"
    _run("index", full, before, facts, None)  # a saved graph with documents the base lacks
    subprocess.run(
        [sys.executable, "-m", "groundgraph", "--db", str(full), "export", "-o", str(saved)],
        check=True,
        capture_output=True,
    )
    data = json.loads(saved.read_text())
    assert data, "the export wrote nothing to import"
    plans = {
        "index": (before, facts),
        "reindex": (after, facts),
        "memory": (half, work / "new_facts.txt"),
        "supersede": (half, names),
        "delete": (half, facts),
        "import": (half, saved),
    }
    (work / "new_facts.txt").write_text(
        "\n".join(f"The {t} was replaced by a {u}." for t in TOPICS for u in TOPICS[:2]) + "\n"
    )
    return work, base, plans


@pytest.mark.parametrize("op", ["index", "reindex", "memory", "supersede", "delete"])
def test_a_killed_operation_leaves_whole_documents_and_every_acknowledged_write(world, op):
    work, base, plans = world
    folder, extra = plans[op]
    clean_db, killed_db = work / f"clean-{op}.db", work / f"killed-{op}.db"
    shutil.copy(base, clean_db)
    shutil.copy(base, killed_db)
    _run(op, clean_db, folder, extra, None)
    clean, start = _snapshot(clean_db), _snapshot(base)

    acked = _run(op, killed_db, folder, extra, kill_after_acks=2)
    state = _snapshot(killed_db)
    whole = [_doc_nodes(start), _doc_nodes(clean)]
    half = [
        doc
        for doc, nodes in _doc_nodes(state).items()
        if not any(w.get(doc) == nodes for w in whole)
    ]
    assert not half, f"documents neither before nor after {op}: {half}"
    stored = {n for n, *_ in state["nodes"]} | {d for (d,) in state["docs"]}
    if op == "delete":
        assert not set(acked) & {d for (d,) in state["docs"]}, "an acknowledged delete came back"
    else:
        assert set(acked) <= stored, f"acknowledged writes lost: {set(acked) - stored}"
    assert state != clean, f"the kill came after {op} had finished"

    _run(op, killed_db, folder, extra, None)
    assert _snapshot(killed_db) == clean, f"{op} run again after a kill differs from a clean run"


def test_a_killed_import_leaves_the_store_as_before_or_as_after(world):
    # An import is one transaction (docs/saved-graphs.md): its acknowledgements come after
    # the commit, so this kill is timed from the child's "ready" (its imports done), at
    # fractions of a clean run's duration; the first lands before any work can commit.
    work, base, plans = world
    folder, extra = plans["import"]
    clean_db = work / "clean-import.db"
    shutil.copy(base, clean_db)
    started = time.monotonic()
    _run("import", clean_db, folder, extra, None)
    took = time.monotonic() - started
    clean, start = _snapshot(clean_db), _snapshot(base)
    assert clean != start
    seen = set()
    for fraction in (0.0, 0.3, 0.6, 0.9):
        killed_db = work / f"killed-import-{fraction}.db"
        shutil.copy(base, killed_db)
        acked = _run("import", killed_db, folder, extra, None, kill_after_seconds=took * fraction)
        state = _snapshot(killed_db)
        assert state in (start, clean), f"a killed import at {fraction} left a third state"
        assert not acked or state == clean, "an acknowledged import is not there"
        seen.add(state == clean)
        _run("import", killed_db, folder, extra, None)
        assert _snapshot(killed_db) == clean
    assert False in seen, "no kill landed before the import's commit"


def test_a_killed_export_leaves_no_half_file_and_the_store_as_it_was(world, tmp_path):
    # `export` writes beside its target and renames when complete (saved_export.py).
    work = world[0]
    full = work / "full.db"
    clean_out = tmp_path / "clean.json"
    command = [sys.executable, "-m", "groundgraph", "--db", str(full), "export", "-o"]
    started = time.monotonic()
    subprocess.run([*command, str(clean_out)], check=True, capture_output=True)
    took = time.monotonic() - started
    before = _snapshot(full)
    seen = set()
    for fraction in (0.05, 0.5, 0.8, 0.95):
        out = tmp_path / f"killed-{fraction}.json"
        child = subprocess.Popen([*command, str(out)], stdout=subprocess.PIPE)
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=took * fraction)
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=60)
        assert not out.exists() or out.read_bytes() == clean_out.read_bytes(), fraction
        seen.add(out.exists())
        assert _snapshot(full) == before
    assert False in seen, "no kill landed before the export finished"
