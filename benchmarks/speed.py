"""Speed benchmark: indexing, search latency, memory and cold start on a synthetic corpus.

    .venv/bin/python benchmarks/speed.py                      # 10k and 100k sections
    .venv/bin/python benchmarks/speed.py --sections 10000     # one size
    .venv/bin/python benchmarks/speed.py --quick              # 2k sections, under a minute

For each size the corpus (``corpus.py``) is written to a temporary folder, then three
fresh processes each measure one engine, so that peak memory (``ru_maxrss``) is each
engine's own: groundgraph (indexing into SQLite, full search, lexical stage), bm25s with
its numpy backend, and rank_bm25. The two references index the same nodes with the same
tokens as ours: our analyzer, title words repeated ``title_boost`` times as our index
counts them, so their BM25 (Lucene variant, for bm25s) ranks exactly as our lexical stage.
Last, the cold ``groundgraph search`` command is timed. Full runs write the table to the
"Speed" section of docs/benchmarks.md; ``--quick`` prints it only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from corpus import Corpus, sample_queries, write_corpus

#: The heading of the section this script writes in docs/benchmarks.md: the synthetic corpus
#: is the second table there, after the real-text headline.
HEADING = "## Synthetic corpus (`benchmarks/speed.py`, the second table)"

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
DEFAULT_SIZES = (10_000, 100_000)
QUICK_SIZE = 2_000
WARMUP_QUERIES = 20
THREADS_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

# Targets at 100k sections on 2 cores.
TARGET_INDEX_RATE = 5_000.0  # sections/s
TARGET_SEARCH_P50_MS = 10.0
TARGET_RSS_MB = 1024.0
TARGET_COLD_S = 1.0


# ---------------------------------------------------------------------- measuring helpers
def percentiles(samples_ms: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]

    return {"p50": at(0.5), "p95": at(0.95), "mean": statistics.fmean(ordered), "n": len(ordered)}


def timed_each(queries: Sequence[str], run: Callable[[str], Any]) -> tuple[list[float], list[Any]]:
    """Milliseconds per call of ``run`` on each query, and what each call returned."""
    times, results = [], []
    for query in queries:
        start = time.perf_counter()
        results.append(run(query))
        times.append((time.perf_counter() - start) * 1000.0)
    return times, results


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def current_rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def load_manifest(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def read_documents(manifest: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(doc id, title, markdown) of each corpus document, read as it is needed."""
    folder = Path(manifest["folder"])
    for d in manifest["documents"]:
        yield d["doc_id"], d["title"], (folder / d["filename"]).read_text(encoding="utf-8")


# ---------------------------------------------------------------------- workers
def run_ours(manifest: dict[str, Any], db: Path) -> dict[str, Any]:
    """Index the corpus folder as ``groundgraph index`` does, then time full searches and
    the lexical stage in this process."""
    from groundgraph import DocumentGraph
    from groundgraph.graph.pool import default_workers
    from groundgraph.index.bm25 import top_positions
    from groundgraph.ingest import plan_folder

    queries = manifest["queries"]
    rss_start = current_rss_mb()
    graph = DocumentGraph(db)
    files, skipped = plan_folder([manifest["folder"]])
    assert not skipped, skipped
    cpu_start = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    for _, result in graph.index_files(files):
        assert isinstance(result, list), result
    added = time.perf_counter()
    graph.save_index()
    saved = time.perf_counter()
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    stats = graph.stats()
    for query in queries[:WARMUP_QUERIES]:
        graph.search(query)
    search_ms, hits = timed_each(queries, graph.search)
    index = graph.index

    def lexical(query: str) -> list[int]:
        matches = index.match(query)
        rows = top_positions(matches.positions, matches.scores, 10, index.node_ids.__getitem__)
        return [int(matches.positions[i]) for i in rows]

    lexical_ms, tops = timed_each(queries, lexical)
    top1 = [index.node_ids[t[0]] if t else None for t in tops]
    graph.close()
    peak = peak_rss_mb()

    # A new DocumentGraph on the saved store in this warm interpreter: the cold CLI minus imports.
    start_open = time.perf_counter()
    reopened = DocumentGraph(db)
    opened = time.perf_counter()
    reopened.search(queries[0])
    first_search = time.perf_counter()
    reopened.close()
    return {
        "documents": stats["documents"],
        "nodes": stats["nodes"],
        "indexed": len(index),
        "edges": stats["edges"],
        "edge_types": stats["edgeTypes"],
        "terms": stats["terms"],
        "add_s": added - start,
        "snapshot_s": saved - added,
        "workers": default_workers(),
        "writer_cpu_s": cpu.ru_utime + cpu.ru_stime - cpu_start.ru_utime - cpu_start.ru_stime,
        "workers_cpu_s": workers.ru_utime + workers.ru_stime,
        "workers_peak_rss_mb": workers.ru_maxrss / 1024.0,
        "db_mb": sum(p.stat().st_size for p in db.parent.glob(db.name + "*")) / 2**20,
        "search_ms": percentiles(search_ms),
        "empty_results": sum(1 for h in hits if not h),
        "lexical_ms": percentiles(lexical_ms),
        "top1": top1,
        "rss_start_mb": rss_start,
        "peak_rss_mb": peak,
        "reopen_s": opened - start_open,
        "reopen_first_search_s": first_search - opened,
    }


def run_live(manifest: dict[str, Any], db: Path) -> dict[str, Any]:
    """Add the documents one at a time with ``add_document``, as a live application does."""
    from groundgraph import DocumentGraph

    graph = DocumentGraph(db)
    start = time.perf_counter()
    for doc_id, title, markdown in read_documents(manifest):
        graph.add_document(markdown, title, doc_id=doc_id)
    added = time.perf_counter() - start
    graph.close()
    return {"add_s": added, "peak_rss_mb": peak_rss_mb()}


def reference_passages(manifest: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The nodes our index holds, as token lists our index would count."""
    from groundgraph.index.bm25 import BM25Params
    from groundgraph.ingest import parse_markdown
    from groundgraph.model.ids import INDEXED_KINDS
    from groundgraph.text import Analyzer

    analyzer = Analyzer("english")
    boost = BM25Params().title_boost
    node_ids, passages = [], []
    for doc_id, title, markdown in read_documents(manifest):
        for node in parse_markdown(markdown, title, doc_id=doc_id).nodes:
            if node.kind in INDEXED_KINDS:
                node_ids.append(node.node_id)
                passages.append(analyzer.terms(node.content) + analyzer.terms(node.title) * boost)
    return node_ids, passages


def query_tokens(query: str) -> list[str]:
    from groundgraph.text import Analyzer

    return list(dict.fromkeys(Analyzer("english").terms(query)))


def run_bm25s(manifest: dict[str, Any]) -> dict[str, Any]:
    import bm25s

    from groundgraph.text import Analyzer

    analyzer = Analyzer("english")
    node_ids, passages = reference_passages(manifest)
    rss_start = current_rss_mb()
    start = time.perf_counter()
    model = bm25s.BM25(method="lucene", k1=1.2, b=0.75, backend="numpy")
    model.index(passages, show_progress=False)
    built = time.perf_counter() - start
    del passages

    def retrieve(query: str) -> tuple[list[int], list[float]]:
        tokens = list(dict.fromkeys(analyzer.terms(query)))
        docs, scores = model.retrieve([tokens], k=10, show_progress=False)
        return docs[0].tolist(), scores[0].tolist()

    queries = manifest["queries"]
    for query in queries[:WARMUP_QUERIES]:
        retrieve(query)
    query_ms, results = timed_each(queries, retrieve)
    return {
        "version": metadata.version("bm25s"),
        "index_s": built,
        "query_ms": percentiles(query_ms),
        "top10": [[(node_ids[d], s) for d, s in zip(*r, strict=True)] for r in results],
        "rss_start_mb": rss_start,
        "peak_rss_mb": peak_rss_mb(),
    }


def run_rank_bm25(manifest: dict[str, Any], count: int) -> dict[str, Any]:
    import numpy as np
    from rank_bm25 import BM25Okapi

    from groundgraph.text import Analyzer

    analyzer = Analyzer("english")
    node_ids, passages = reference_passages(manifest)
    rss_start = current_rss_mb()
    start = time.perf_counter()
    model = BM25Okapi(passages, k1=1.2, b=0.75)
    built = time.perf_counter() - start
    del passages

    def retrieve(query: str) -> list[int]:
        scores = model.get_scores(list(dict.fromkeys(analyzer.terms(query))))
        best = np.argpartition(-scores, 9)[:10]
        return best[np.argsort(-scores[best], kind="stable")].tolist()  # type: ignore[no-any-return]

    queries = manifest["queries"][:count]
    retrieve(queries[0])
    query_ms, results = timed_each(queries, retrieve)
    return {
        "version": metadata.version("rank-bm25"),
        "index_s": built,
        "query_ms": percentiles(query_ms),
        "top1": [node_ids[r[0]] for r in results],
        "rss_start_mb": rss_start,
        "peak_rss_mb": peak_rss_mb(),
    }


def worker_main(args: argparse.Namespace) -> None:
    manifest = load_manifest(args.manifest)
    if args.worker == "ours":
        result = run_ours(manifest, args.db)
    elif args.worker == "live":
        result = run_live(manifest, args.db)
    elif args.worker == "bm25s":
        result = run_bm25s(manifest)
    else:
        result = run_rank_bm25(manifest, args.reference_queries)
    print(json.dumps(result))


# ---------------------------------------------------------------------- the driver
def run_worker(kind: str, manifest: Path, env: dict[str, str], *extra: str) -> dict[str, Any]:
    command = [sys.executable, __file__, "--worker", kind, "--manifest", str(manifest), *extra]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the {kind} worker failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def wall_and_rss(
    command: list[str], env: dict[str, str], *, quiet: bool = True
) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MiB) and stdout of one run of ``command`` (its stderr
    dropped when ``quiet``); through ``os.wait4``, ``ru_maxrss`` covers the process and
    the children it waited for."""
    start = time.perf_counter()
    stderr = subprocess.DEVNULL if quiet else None
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=stderr)
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"{shlex.join(command)} exited with {proc.returncode}")
    return wall, usage.ru_maxrss / 1024.0, out


def cold_start(db: Path, query: str, runs: int, env: dict[str, str]) -> dict[str, Any]:
    cli = [str(VENV_BIN / "groundgraph"), "--db", str(db), "search", query, "--json"]
    cli_runs = [wall_and_rss(cli, env) for _ in range(runs)]
    hits = json.loads(cli_runs[0][2])
    imports = [wall_and_rss([sys.executable, "-c", "import groundgraph"], env) for _ in range(runs)]
    return {
        "query": query,
        "runs": runs,
        "cli_s": statistics.median(r[0] for r in cli_runs),
        "cli_rss_mb": max(r[1] for r in cli_runs),
        "cli_hits": len(hits),
        "import_s": statistics.median(r[0] for r in imports),
    }


def agreement(ours: list[str | None], reference: list[list[tuple[str, float]]]) -> dict[str, int]:
    """Top-1 agreement; a differing top-1 that bm25s scores the same as its own is a tie."""
    same = ties = 0
    for mine, theirs in zip(ours, reference, strict=False):
        if not theirs or mine is None:
            continue
        best_id, best_score = theirs[0]
        if mine == best_id:
            same += 1
        elif any(n == mine and abs(s - best_score) <= 1e-5 * best_score for n, s in theirs):
            ties += 1
    return {"same": same, "ties": ties, "of": len(reference)}


def measure_size(
    sections: int, folder: Path, args: argparse.Namespace, env: dict[str, str]
) -> dict[str, Any]:
    start = time.perf_counter()
    corpus: Corpus = write_corpus(folder / "corpus", sections, seed=args.seed)
    queries = sample_queries(corpus, args.queries, seed=args.seed + 1)
    manifest = folder / "manifest.json"
    manifest.write_text(
        json.dumps(
            {
                "folder": str(corpus.folder),
                "documents": [vars(d) for d in corpus.documents],
                "queries": queries,
            }
        ),
        encoding="utf-8",
    )
    print(f"[{sections} sections] corpus of {len(corpus.documents)} documents", file=sys.stderr)
    db = folder / "graph.db"
    ours = run_worker("ours", manifest, env, "--db", str(db))
    print(f"[{sections} sections] groundgraph done", file=sys.stderr)
    live = run_worker("live", manifest, env, "--db", str(folder / "live.db"))
    print(f"[{sections} sections] one document at a time done", file=sys.stderr)
    bm25s = run_worker("bm25s", manifest, env)
    rank = run_worker(
        "rank_bm25", manifest, env, "--reference-queries", str(args.reference_queries)
    )
    print(f"[{sections} sections] references done", file=sys.stderr)
    cold = cold_start(db, queries[0], args.cli_runs, env)
    return {
        "sections": sections,
        "ours": {k: v for k, v in ours.items() if k != "top1"},
        "live": live,
        "bm25s": {k: v for k, v in bm25s.items() if k != "top10"},
        "rank_bm25": {k: v for k, v in rank.items() if k != "top1"},
        "agreement_bm25s": agreement(ours["top1"], bm25s["top10"]),
        "agreement_rank_bm25": sum(
            a == b for a, b in zip(ours["top1"], rank["top1"], strict=False)
        ),
        "cold": cold,
        "wall_s": time.perf_counter() - start,
    }


# ---------------------------------------------------------------------- the report
def machine() -> dict[str, str]:
    import sqlite3

    # GNU nproc honours OMP_NUM_THREADS (1 here): count the cores this process may use.
    nproc = str(len(os.sched_getaffinity(0)))
    versions = {
        name: metadata.version(name)
        for name in ("groundgraph", "numpy", "scipy", "bm25s", "rank-bm25", "PyStemmer")
    }
    code = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    return {
        "code": code or "unknown",
        "nproc": nproc,
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "sqlite": sqlite3.sqlite_version,
        "versions": ", ".join(f"{k} {v}" for k, v in versions.items()),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load": load_average(),
    }


def load_average() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def verdict(ok: bool) -> str:
    return "**met**" if ok else "**missed**"


def report(results: list[dict[str, Any]], command: str, info: dict[str, str]) -> str:
    """The "Speed" section: command, machine, one column per size, targets at the largest."""
    big = results[-1]
    at_target = big["sections"] >= 100_000
    sizes = [f"{r['sections'] // 1000}k sections" for r in results]

    def ms(p: dict[str, float]) -> str:
        return f"{p['p50']:.2f} / {p['p95']:.2f}"

    def rate(r: dict[str, Any]) -> float:
        return r["sections"] / (r["ours"]["add_s"] + r["ours"]["snapshot_s"])

    def ratio(r: dict[str, Any]) -> float:
        return r["ours"]["lexical_ms"]["p50"] / r["bm25s"]["query_ms"]["p50"]

    def agree(r: dict[str, Any]) -> str:
        a = r["agreement_bm25s"]
        return f"{a['same']}/{a['of']} (+{a['ties']} ties)"

    rows: list[tuple[str, Callable[[dict[str, Any]], str], str, bool | None]] = [
        (
            "documents / indexed nodes / edges",
            lambda r: (
                f"{r['ours']['documents']:,} / {r['ours']['indexed']:,} / {r['ours']['edges']:,}"
            ),
            "",
            None,
        ),
        (
            "index: `index_files` (= `groundgraph index`) + snapshot (s)",
            lambda r: f"{r['ours']['add_s']:.1f} + {r['ours']['snapshot_s']:.1f}",
            "",
            None,
        ),
        (
            "index throughput (sections/s, incl. snapshot)",
            lambda r: f"{rate(r):,.0f}",
            "≥ 5,000",
            rate(big) >= TARGET_INDEX_RATE,
        ),
        (
            "  CPU: writer process / worker processes (s)",
            lambda r: (
                f"{r['ours']['writer_cpu_s']:.1f} / {r['ours']['workers_cpu_s']:.1f}"
                f" ({r['ours']['workers']} worker{'s' if r['ours']['workers'] != 1 else ''})"
            ),
            "",
            None,
        ),
        (
            "  one at a time: `add_document` per document (sections/s)",
            lambda r: f"{r['sections'] / r['live']['add_s']:,.0f}",
            "",
            None,
        ),
        (
            "full search `graph.search(q)` p50 / p95 (ms)",
            lambda r: ms(r["ours"]["search_ms"]),
            "p50 ≤ 10",
            big["ours"]["search_ms"]["p50"] <= TARGET_SEARCH_P50_MS,
        ),
        (
            "lexical stage `match` + `top_positions` p50 / p95 (ms)",
            lambda r: ms(r["ours"]["lexical_ms"]),
            "",
            None,
        ),
        (
            "bm25s numpy `retrieve` k=10 p50 / p95 (ms)",
            lambda r: ms(r["bm25s"]["query_ms"]),
            "",
            None,
        ),
        (
            "rank_bm25 `get_scores` + argpartition p50 / p95 (ms)",
            lambda r: f"{ms(r['rank_bm25']['query_ms'])} ({r['rank_bm25']['query_ms']['n']} q)",
            "",
            None,
        ),
        (
            "lexical stage / bm25s numpy, p50",
            lambda r: f"{ratio(r):.2f}x",
            "≤ 1.00x",
            ratio(big) <= 1.0,
        ),
        ("top-1 agreement, lexical stage vs bm25s", agree, "", None),
        (
            "peak RSS, groundgraph index + search (MiB)",
            lambda r: f"{r['ours']['peak_rss_mb']:,.0f}",
            "≤ 1,024",
            big["ours"]["peak_rss_mb"] <= TARGET_RSS_MB,
        ),
        (
            "  peak RSS of one indexing worker (MiB)",
            lambda r: f"{r['ours']['workers_peak_rss_mb']:,.0f}",
            "",
            None,
        ),
        (
            "peak RSS, bm25s / rank_bm25 processes (MiB)",
            lambda r: f"{r['bm25s']['peak_rss_mb']:,.0f} / {r['rank_bm25']['peak_rss_mb']:,.0f}",
            "",
            None,
        ),
        (
            "cold `groundgraph search --json`, median wall (s)",
            lambda r: f"{r['cold']['cli_s']:.2f}",
            "≤ 1",
            big["cold"]["cli_s"] <= TARGET_COLD_S,
        ),
        (
            "  of which `python -c 'import groundgraph'` (s)",
            lambda r: f"{r['cold']['import_s']:.2f}",
            "",
            None,
        ),
        (
            "  `DocumentGraph(path)` on the saved store, warm interpreter (s)",
            lambda r: f"{r['ours']['reopen_s']:.2f}",
            "",
            None,
        ),
        (
            "  peak RSS of the CLI process (MiB)",
            lambda r: f"{r['cold']['cli_rss_mb']:,.0f}",
            "",
            None,
        ),
    ]
    target_head = "target (100k)" if at_target else f"target (100k; judged at {sizes[-1]})"
    lines = [
        HEADING,
        "",
        "Produced by:",
        "",
        "```bash",
        command,
        "```",
        "",
        f"- machine: `nproc` = {info['nproc']}, {info['platform']}, {info['processor']}",
        f"- {info['python']}, SQLite {info['sqlite']}; {info['versions']}",
        f"- code: `git describe --always --dirty` = `{info['code']}`",
        f"- date: {info['date']}; `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1`",
        f"- load average (1, 5, 15 min): {info['load_before']} before the run,"
        f" {info['load']} after",
        "",
        f"| measure | {' | '.join(sizes)} | {target_head} | verdict |",
        f"|---|{'---:|' * len(sizes)}---|---|",
    ]
    for name, cell, target, ok in rows:
        cells = " | ".join(cell(r) for r in results)
        lines.append(f"| {name} | {cells} | {target} | {'' if ok is None else verdict(ok)} |")
    first = results[0]["ours"]
    lines += [
        "",
        "How it was measured:",
        "",
        "- Corpus: `benchmarks/corpus.py`, seeded; pseudo-words drawn Zipf(1.1) over 50,000"
        " words; documents of 10-40 sections under `##`/`###` headings, bodies of 20-80 words;"
        " one section in five names another section's heading, one in thirty an earlier"
        " document's title. Sections are counted without the documents' root nodes.",
        "- Indexing: `DocumentGraph(path).index_files(plan_folder([folder]).files)`, which is"
        " what `groundgraph index FOLDER` runs, into a fresh SQLite file (one transaction per"
        " document), then `save_index()`; the rate counts sections over both. Files are read,"
        " parsed, analysed and searched for mentions in worker processes (one per core"
        " but one by default) while the writing process links and stores each document in"
        " order, so the graph is the one adding the documents one at a time gives (tested). The"
        " one-at-a-time row is `add_document` per document in a process of its own.",
        f"- Queries: {first['search_ms']['n']} of 2-4 distinct words from random section bodies,"
        " the 50 most frequent words left out; warm process, after"
        f" {WARMUP_QUERIES} warm-up queries. Each timing includes analysing the query.",
        "- bm25s: `BM25(method='lucene', k1=1.2, b=0.75, backend='numpy')`, one query per"
        " `retrieve(..., k=10)` call, `n_threads` left at its default; rank_bm25: `BM25Okapi`,"
        " `get_scores` + argpartition, on the first queries only. Both index the same nodes"
        " with the same tokens: our analyzer, title words repeated `title_boost` (3) times as"
        " our index counts them, so bm25s should rank as our lexical stage does (a tie is a"
        " different top-1 that bm25s scores equal to its own; rank_bm25 uses another idf).",
        "- Memory: `ru_maxrss` of each worker process (groundgraph, bm25s, rank_bm25 run apart);"
        " each includes its Python, numpy and its own reading of the corpus.",
        "- Cold start: after `close()` saved the index snapshot, wall time of the"
        " `groundgraph --db ... search QUERY --json` command in a new process, median of"
        f" {big['cold'].get('runs', 5)} runs, page cache warm.",
        "- Noise: on a shared 2-core VM a p95 includes scheduler preemption; with the load"
        " average above 2, about one call in twenty stalls for ~5 ms whatever the query.",
        "- Worker CPU is `RUSAGE_CHILDREN` after the workers exit; on 2 cores the writer and"
        " the workers share the cores, so the wall time is at least half their CPU sum.",
        "",
        "Where indexing time goes: the text-only half of a document (reading, parsing, term"
        " counts, entity candidates, stated relations, sentence spans) runs in the worker;"
        " the writer keeps what depends on the graph built so far, in document order: top"
        " terms by the current idf, semantic neighbours through the top-term postings (a"
        " document's nodes at once, in numpy), document titles named in the text (both"
        " ways), title mentions, the evidence edges, BM25 postings (appended in runs merged"
        " LSM-style) and one SQLite transaction per document. With one worker the two halves"
        " cost about the same CPU, so the wall time is about the writer's CPU.",
    ]
    return "\n".join(lines) + "\n"


def write_section(path: Path, section: str) -> None:
    """Put ``section`` in ``path`` in place of its ``HEADING`` section (or the older
    "## Speed"), or at the end."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    lines = text.splitlines(keepends=True)
    heads = (HEADING, "## Speed")
    start = next((i for i, line in enumerate(lines) if line.strip() in heads), None)
    if start is None:
        path.write_text(text.rstrip("\n") + "\n\n" + section, encoding="utf-8")
        return
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    tail = "".join(lines[end:])
    path.write_text("".join(lines[:start]) + section + ("\n" + tail if tail else ""), "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sections", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--quick", action="store_true", help="2k sections only; prints only")
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--reference-queries", type=int, default=30, help="for rank_bm25")
    parser.add_argument("--cli-runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--markdown", type=Path, help="default: docs/benchmarks.md (not --quick)")
    parser.add_argument(
        "--worker", choices=["ours", "live", "bm25s", "rank_bm25"], help=argparse.SUPPRESS
    )
    parser.add_argument("--manifest", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main(args)
        return
    sizes = [QUICK_SIZE] if args.quick else [int(s) for s in args.sections.split(",")]
    if args.quick:
        args.queries = min(args.queries, 200)
        args.cli_runs = min(args.cli_runs, 3)
    env = {**os.environ, **THREADS_ENV}
    command = shlex.join([".venv/bin/python", "benchmarks/speed.py", *sys.argv[1:]])
    load_before = load_average()
    results = []
    with tempfile.TemporaryDirectory(prefix="groundgraph-speed-") as tmp:
        for sections in sizes:
            folder = Path(tmp) / str(sections)
            folder.mkdir()
            results.append(measure_size(sections, folder, args, env))
    section = report(results, command, {**machine(), "load_before": load_before})
    print(section)
    print(json.dumps(results, indent=1), file=sys.stderr)
    markdown = args.markdown or (None if args.quick else ROOT / "docs" / "benchmarks.md")
    if markdown is not None:
        write_section(markdown, section)
        print(f"wrote {markdown}", file=sys.stderr)


if __name__ == "__main__":
    main()
