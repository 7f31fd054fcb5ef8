"""Export and import at a given size, next to the index run: wall time and peak RSS of
each CLI command, and whether the imported store answers as the source does.

    .venv/bin/python benchmarks/saved_io.py --folder data/cpp-docs --files all --queries 300

The first ``--files`` markdown files of ``--folder`` (a sample spread over the sorted
tree, as ``realtext.py`` draws it) are indexed with ``groundgraph index``, the store is
exported with ``groundgraph export`` and imported into a new store with ``groundgraph
import``; each runs in a process of its own, its wall time and peak RSS (``ru_maxrss``,
as ``/usr/bin/time -f %M`` gives it) measured. ``--db`` takes an existing store instead of
indexing. Then ``--queries`` text queries (``realtext.make_queries``) are searched in
both stores: the top-10 node ids and scores of each must be the same.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Any

from realtext import extract, list_files, make_queries, sample, store_bytes
from speed import THREADS_ENV, load_average, wall_and_rss


def run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    wall, rss, _ = wall_and_rss([sys.executable, "-m", "groundgraph", *command], env)
    print(f"groundgraph {command[2]}: {wall:.1f} s, {rss:,.0f} MiB", file=sys.stderr)
    return wall, rss


def same_answers(source: Path, copy: Path, queries: list[str]) -> tuple[int, int]:
    """How many of ``queries`` get the same top 10 (ids and scores) from both stores."""
    from groundgraph import DocumentGraph

    one, other = DocumentGraph(source), DocumentGraph(copy)
    same = 0
    for query in queries:
        ours = [(h.node_id, round(h.score, 9)) for h in one.search(query, top_k=10)]
        theirs = [(h.node_id, round(h.score, 9)) for h in other.search(query, top_k=10)]
        same += ours == theirs
    one.close()
    other.close()
    return same, len(queries)


def measure(args: argparse.Namespace, tmp: Path, env: dict[str, str]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    db = args.db
    if db is None:
        names = list_files(args)
        names = names if args.files == "all" else sample(names, int(args.files))
        folder, db = tmp / "docs", tmp / "source.db"
        folder.mkdir()
        result["input_bytes"] = extract(args, names, folder)
        result["files"] = len(names)
        result["index_s"], result["index_rss_mb"] = run(
            ["--db", str(db), "index", str(folder)], env
        )
    saved, copy = tmp / "graph.json", tmp / "imported.db"
    result["export_s"], result["export_rss_mb"] = run(
        ["--db", str(db), "export", "-o", str(saved)], env
    )
    result["file_bytes"] = saved.stat().st_size
    result["import_s"], result["import_rss_mb"] = run(
        ["--db", str(copy), "import", str(saved)], env
    )
    result["store_bytes"], result["copy_bytes"] = store_bytes(db), store_bytes(copy)
    queries = make_queries(db, args.queries, args.seed)["text"]
    result["same_top10"], result["queries"] = same_answers(db, copy, queries)
    return result


def table(r: dict[str, Any], command: str, load: tuple[str, str]) -> str:
    mib = 1 << 20
    rows = [
        ("`groundgraph index`: wall (s), peak RSS (MiB)", "index_s", "index_rss_mb"),
        ("`groundgraph export`: wall (s), peak RSS (MiB)", "export_s", "export_rss_mb"),
        ("`groundgraph import`: wall (s), peak RSS (MiB)", "import_s", "import_rss_mb"),
    ]
    lines = [
        f"```bash\n{command}\n```\n",
        f"- load average (1, 5, 15 min): {load[0]} before, {load[1]} after\n",
        "| measure | value |",
        "|---|---:|",
    ]
    if "files" in r:
        lines.append(f"| input: files / MiB | {r['files']:,} / {r['input_bytes'] / mib:.1f} |")
    for name, wall, rss in rows:
        if wall in r:
            lines.append(f"| {name} | {r[wall]:.1f}, {r[rss]:,.0f} |")
    lines += [
        f"| saved graph file / source store / imported store (MiB) | {r['file_bytes'] / mib:.1f}"
        f" / {r['store_bytes'] / mib:.1f} / {r['copy_bytes'] / mib:.1f} |",
        f"| same top 10 (ids and scores), source vs imported | {r['same_top10']}/{r['queries']} |",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, help="a folder of markdown files")
    parser.add_argument("--tar", type=Path, help="or a tar of them")
    parser.add_argument("--files", default="all", help="how many files, or `all`")
    parser.add_argument("--db", type=Path, help="export this store instead of indexing")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tmp", type=Path, help="where the stores and the file go")
    args = parser.parse_args()
    if args.db is None and args.folder is None and args.tar is None:
        parser.error("give --folder, --tar or --db")
    env = {**os.environ, **THREADS_ENV}
    command = shlex.join([".venv/bin/python", "benchmarks/saved_io.py", *sys.argv[1:]])
    before = load_average()
    with tempfile.TemporaryDirectory(prefix="groundgraph-saved-io-", dir=args.tmp) as tmp:
        result = measure(args, Path(tmp), env)
    print(table(result, command, (before, load_average())))
    print(json.dumps(result), file=sys.stderr)


if __name__ == "__main__":
    main()
