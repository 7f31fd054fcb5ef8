"""Search p50/p95 per mode (keyword, embedding, hybrid) on real text, and what embedding
costs at indexing time.

    .venv/bin/python benchmarks/search_modes.py --files 200          # MiniLM on one thread
    .venv/bin/python benchmarks/search_modes.py --keyword-only --db g.db --queries 200

A sample of cpp-docs files (as ``benchmarks/realtext.py`` samples them) is indexed twice
into SQLite: without an embedder and with MiniLM (``--embedder minilm``). Then each mode
answers the same queries (2-4 words drawn from sections, as realtext.py draws them), in a
fresh process per store. ``--keyword-only --db`` times keyword search on an existing store
only: run it from two checkouts in turn for a paired before/after.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from groundgraph import DocumentGraph
from groundgraph.ingest.folder import plan_folder
from realtext import DEFAULT_TAR, extract, list_files, make_queries, sample
from speed import percentiles, timed_each

MODES = ("keyword", "embedding", "hybrid")


def index(folder: Path, db: Path, embed: object | None) -> dict[str, float]:
    files, _ = plan_folder([folder])
    start = time.perf_counter()
    with DocumentGraph(db, embed=embed) as graph:
        for _ in graph.index_files(files, workers=0):
            pass
        graph.save_index()
        nodes = len(graph.index)
    seconds = time.perf_counter() - start
    return {"files": len(files), "nodes": nodes, "seconds": seconds, "nodes_per_s": nodes / seconds}


def time_modes(db: Path, queries: list[str], modes: tuple[str, ...]) -> dict[str, dict[str, float]]:
    out = {}
    with DocumentGraph(db) as graph:
        for mode in modes:
            # Keyword without the option, so a checkout from before it can run this too.
            options = {} if mode == "keyword" else {"search_mode": mode}
            for q in queries[:10]:  # warm: index, vectors, model
                graph.search(q, **options)
            times, _ = timed_each(queries, lambda q, o=options: graph.search(q, **o))
            out[mode] = percentiles(times)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tar", type=Path, default=DEFAULT_TAR)
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--keyword-only", action="store_true")
    parser.add_argument("--db", type=Path, help="an existing store (with --keyword-only)")
    args = parser.parse_args()
    if args.keyword_only and args.db:
        queries = make_queries(args.db, args.queries, args.seed)["text"]
        print(json.dumps(time_modes(args.db, queries, ("keyword",))))
        return
    import torch

    torch.set_num_threads(args.torch_threads)
    from groundgraph.index.embedders import embedder_named

    with tempfile.TemporaryDirectory(prefix="groundgraph-modes-") as tmp:
        folder = Path(tmp) / "docs"
        folder.mkdir()
        extract(args, sample(list_files(args), args.files), folder)
        plain, embedded = Path(tmp) / "plain.db", Path(tmp) / "minilm.db"
        report = {
            "index_plain": index(folder, plain, None),
            "index_minilm": index(folder, embedded, embedder_named("minilm")),
        }
        queries = make_queries(plain, args.queries, args.seed)["text"]
        report["search_plain"] = time_modes(plain, queries, ("keyword",))
        report["search_minilm"] = time_modes(embedded, queries, MODES)
        report["store_mb"] = {
            name: sum(p.stat().st_size for p in Path(tmp).glob(f"{name}.db*")) / 1e6
            for name in ("plain", "minilm")
        }
    print(json.dumps(report, indent=1))
    threads = os.environ.get("OMP_NUM_THREADS")
    print(f"torch threads {args.torch_threads}, OMP {threads}", file=sys.stderr)


if __name__ == "__main__":
    main()
