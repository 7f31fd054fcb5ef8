"""Search on a store two ways apart: the walk reading its arcs from the store, and from
the adjacency held in memory (``search.walk_source``), each in a fresh process.

    .venv/bin/python benchmarks/search_arcs.py --db all.db             # 300 queries
    PYTHONPATH=OLD/src .venv/bin/python benchmarks/search_arcs.py --db old.db  # other code
    .venv/bin/python benchmarks/search_arcs.py --db 'postgresql://...'          # PostgreSQL

A process that searches often switches from the first to the second by itself, after
its walks through the store have cost a quarter of the adjacency's build; this script
forces one or the other (``walks.build_share``: infinite, or 0 with the adjacency built
before timing) so the two are measured apart. Queries are drawn as
``benchmarks/realtext.py`` draws them (seed 7): 2-4 words of random sections and section
titles. Each of the default walk, one hop and the lexical stage alone is timed after
20 warm-up queries; the in-memory run also times the search that builds the adjacency
(wall, CPU and peak RSS). A store made by code without ``walk_source`` is timed through the
store only (run this script with that code's ``PYTHONPATH``). Prints a markdown table;
raw figures go to stderr as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from realtext import WARMUP, make_queries
from speed import THREADS_ENV, load_average, peak_rss_mb, percentiles, timed_each

MODES = {"walk": 2, "one_hop": 1, "lexical": 0}


def run_worker(db: str, queries_file: Path, arcs: str) -> dict[str, Any]:
    """Open ``db`` in this process and time the searches with the arcs from ``arcs``."""
    from groundgraph import DocumentGraph

    queries = json.loads(queries_file.read_text(encoding="utf-8"))
    graph = DocumentGraph(db)
    walks = getattr(graph.reader, "walks", None)
    out: dict[str, Any] = {"db": db, "arcs": arcs, "walk_source": walks is not None}
    if arcs == "default":  # as a process that opens the store and searches gets it
        return out | run_default(graph, queries)
    if walks is not None:
        walks.build_share = math.inf
    elif arcs == "memory":
        return out | {"skipped": "this code has no in-memory adjacency"}
    graph.search(queries["text"][0])  # opens the lexical index through the store
    before = peak_rss_mb()
    start, cpu = time.perf_counter(), time.process_time()
    if walks is not None and arcs == "memory":
        walks.build_share = 0.0
        graph.search(queries["text"][1])  # with build_share 0, this search builds it
        out["build_s"] = time.perf_counter() - start
        out["build_cpu_s"] = time.process_time() - cpu
        out["build_peak_mib"] = (before, peak_rss_mb())
    for name, hops in MODES.items():
        for q in queries["text"][:WARMUP]:
            graph.search(q, max_hops=hops)
        for kind in ("text", "titles"):
            times, _ = timed_each(queries[kind], lambda q, h=hops: graph.search(q, max_hops=h))
            out[f"{name}_{kind}_ms"] = percentiles(times)
    out["adjacency_built"] = walks is not None and walks.adjacency() is not None
    graph.close()
    return out


def run_default(graph: Any, queries: dict[str, list[str]]) -> dict[str, Any]:
    """The default walk with the graph's own settings: the same warm-up, then the text
    queries and titles in turn; the search after which the adjacency was in memory."""
    walks = getattr(graph.reader, "walks", None)
    built_after = None
    for q in queries["text"][:WARMUP]:
        graph.search(q)
    out: dict[str, Any] = {}
    count = WARMUP
    for kind in ("text", "titles"):
        times = []
        for q in queries[kind]:
            start = time.perf_counter()
            graph.search(q)
            times.append((time.perf_counter() - start) * 1000.0)
            count += 1
            if built_after is None and walks is not None and walks.adjacency() is not None:
                built_after = count
        out[f"walk_{kind}_ms"] = percentiles(times)
    graph.close()
    return out | {"adjacency_built_after": built_after}


def shown(db: str) -> str:
    """A store as the table names it: a file by its name, a URL as given."""
    return db if "://" in db else Path(db).name


def cell(result: dict[str, Any], key: str) -> str:
    if key not in result:
        return "–"
    return f"{result[key]['p50']:.2f} / {result[key]['p95']:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--db", action="append", required=True, help="a SQLite file or a postgresql:// URL"
    )
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--worker", choices=["store", "memory", "default"], help=argparse.SUPPRESS)
    parser.add_argument("--queries-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(run_worker(args.db[0], args.queries_file, args.worker)))
        return
    env = {**os.environ, **THREADS_ENV}
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        queries_file = Path(tmp) / "queries.json"
        queries = make_queries(args.db[0], args.queries, args.seed)
        queries_file.write_text(json.dumps(queries), encoding="utf-8")
        for db in args.db:
            for arcs in ("store", "memory", "default"):
                command = [sys.executable, __file__, "--db", db, "--worker", arcs]
                command += ["--queries-file", str(queries_file)]
                done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
                results.append(
                    json.loads(done.stdout.strip().splitlines()[-1]) | {"load": load_average()}
                )
    print(json.dumps(results, indent=1), file=sys.stderr)
    print(f"{args.queries} text queries and {args.queries // 3} titles, p50 / p95 (ms)\n")
    print("| store | arcs | walk, text | walk, titles | one hop, text | lexical, text |")
    print("|---|---|---:|---:|---:|---:|")
    for r in results:
        keys = ("walk_text_ms", "walk_titles_ms", "one_hop_text_ms", "lexical_text_ms")
        arcs = r["arcs"]
        if r.get("adjacency_built_after"):
            arcs += f" (in memory after search {r['adjacency_built_after']})"
        print(f"| {shown(r['db'])} | {arcs} | " + " | ".join(cell(r, k) for k in keys) + " |")
    for r in results:
        if "build_s" in r:
            low, high = r["build_peak_mib"]
            print(
                f"\n{shown(r['db'])}: the first search, which builds the adjacency,"
                f" took {r['build_s']:.2f} s"
                f" ({r['build_cpu_s']:.2f} s CPU), peak RSS {low:.0f} -> {high:.0f} MiB"
            )


if __name__ == "__main__":
    main()
