"""Where a ``groundgraph index`` run spends its time: the writing process's phases.

    .venv/bin/python benchmarks/index_phases.py FOLDER            # into a new store
    .venv/bin/python benchmarks/index_phases.py FOLDER --db X.db  # a store of your choice

Runs the CLI's ``index`` in this process (its worker processes as usual) with timers
around the steps of the writing process: the files it prepares itself instead of waiting
for a worker, the wait for and unpickling of the workers' answers, the document writes,
and the end-of-run relink (title links settled, semantic links scored and written).
Prints a markdown table with the run's wall time and this process's CPU. The timers wrap
the functions by name (a renamed one stops this script) and only steps that ran are listed.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TIMES: dict[str, float] = {}
CALLS: dict[str, int] = {}


def timed(owner: Any, name: str, label: str) -> None:
    """Replace ``owner.name`` with a copy that adds its wall time to ``TIMES[label]``."""
    inner: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            TIMES[label] = TIMES.get(label, 0.0) + time.perf_counter() - start
            CALLS[label] = CALLS.get(label, 0) + 1

    setattr(owner, name, wrapper)


def instrument() -> None:
    import groundgraph.graph.indexes as indexes
    import groundgraph.graph.pool as pool
    import groundgraph.graph.prepare as prepare
    import groundgraph.index.semantic as semantic
    import groundgraph.store.sqlite.writes as sqlite_writes

    timed(prepare.Preparer, "prepare_file", "files prepared here")
    timed(pool.Worker, "answer", "workers' answers: wait and unpickle")
    timed(sqlite_writes.SQLiteDocumentWrites, "replace_document", "document writes (SQLite)")
    timed(indexes.DerivedIndexes, "relink", "relink, all of it")
    timed(indexes.DerivedIndexes, "_share_links", "relink: start the links worker")
    timed(indexes, "settle_title_links", "relink: settle title links")
    timed(semantic, "semantic_edges", "relink: score semantic links")
    timed(sqlite_writes.SQLiteDocumentWrites, "replace_derived_edges", "relink: write them")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--db", type=Path, help="the store (default: a new one, removed after)")
    args = parser.parse_args()
    instrument()
    from groundgraph.cli.app import main as cli

    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "phases.db"
        start, cpu = time.perf_counter(), time.process_time()
        cli(["--db", str(db), "index", str(args.folder)], standalone_mode=False)
        wall, used = time.perf_counter() - start, time.process_time() - cpu
    print(f"\n`groundgraph index {args.folder}`: {wall:.1f} s wall, {used:.1f} s CPU here\n")
    print("| step of the writing process | seconds | calls |")
    print("|---|---:|---:|")
    for label, seconds in TIMES.items():
        print(f"| {label} | {seconds:.2f} | {CALLS[label]:,} |")


if __name__ == "__main__":
    main()
