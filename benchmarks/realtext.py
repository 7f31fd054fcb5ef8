"""Real-text benchmark: groundgraph, bm25s and SQLite FTS5 on the same markdown sections.

    .venv/bin/python benchmarks/realtext.py                   # 1,000 and 3,000 files
    .venv/bin/python benchmarks/realtext.py --files 1000      # one size; `all` for every file
    .venv/bin/python benchmarks/realtext.py --quick           # 200 files, under a minute
    .venv/bin/python benchmarks/realtext.py --folder DIR      # any folder of markdown

The input is the Microsoft C++ docs (markdown, CC BY 4.0) from ``--tar``. For each size
a deterministic sample (every k-th file in sorted path order) is extracted to a temporary
folder; ``groundgraph index`` indexes it through the real CLI (``export`` and ``import``
are timed on the store it makes), then fresh processes time
groundgraph's search (default walk, one hop, lexical stage alone), bm25s (numpy, Lucene
BM25) and SQLite FTS5 on the same section texts read back from the groundgraph store, with
the same queries. Prints a markdown table; raw figures go to stderr as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import shutil
import sqlite3
import statistics
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from speed import (
    THREADS_ENV,
    load_average,
    machine,
    peak_rss_mb,
    percentiles,
    timed_each,
    wall_and_rss,
)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TAR = ROOT.parent / "shared" / "data" / "cpp-docs" / "cpp-docs-md.tar.gz"
MARKDOWN = (".md", ".markdown")
SECTION_KINDS = ("section", "chunk")
INDEXED = ("document", "section", "chunk")
WARMUP = 20
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]+")


# ---------------------------------------------------------------------- input
def list_files(args: argparse.Namespace) -> list[str]:
    """Every markdown file of the input, sorted by path."""
    if args.folder:
        names = (str(p.relative_to(args.folder)) for p in Path(args.folder).rglob("*"))
    else:
        with tarfile.open(args.tar) as tar:
            names = (m.name for m in tar.getmembers() if m.isfile())
    return sorted(n for n in names if n.lower().endswith(MARKDOWN))


def sample(files: Sequence[str], n: int) -> list[str]:
    """``n`` files spread over the tree: every k-th in sorted path order."""
    if n >= len(files):
        return list(files)
    step = len(files) / n
    return [files[int(i * step)] for i in range(n)]


def extract(args: argparse.Namespace, names: Sequence[str], folder: Path) -> int:
    """Put the sampled files under ``folder``; their total size in bytes."""
    if args.folder:
        for name in names:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(args.folder) / name, folder / name)
    else:
        wanted = set(names)
        with tarfile.open(args.tar) as tar:
            members = [m for m in tar.getmembers() if m.name in wanted]
            tar.extractall(folder, members=members, filter="data")
    return sum((folder / name).stat().st_size for name in names)


def store_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists())


def passages(db: Path) -> list[tuple[str, str, str]]:
    """(node id, title, content) of every indexed node with content, from the store."""
    from groundgraph import DocumentGraph

    graph = DocumentGraph(db)
    rows = [
        (n.node_id, n.title, n.content)
        for n in graph.store.reads.iter_nodes()
        if n.kind in INDEXED and n.content.strip()
    ]
    graph.close()
    return rows


def make_queries(db: Path, count: int, seed: int) -> dict[str, list[str]]:
    """2-4 distinct words from random section texts (frequent words kept; only the words
    the analyzer drops, stop words and one-letter words, are left out) and section titles."""
    from groundgraph.text import Analyzer

    analyzer = Analyzer("english")
    rows = passages(db)
    rng = random.Random(seed)
    text: list[str] = []
    while len(text) < count:
        words = [w.lower() for w in WORD.findall(rng.choice(rows)[2]) if analyzer.terms(w)]
        # The first distinct words of a shuffle: drawn in proportion to their frequency.
        distinct = list(dict.fromkeys(rng.sample(words, len(words))))
        if len(distinct) >= 2:
            text.append(" ".join(distinct[: rng.randint(2, 4)]))
    titles = [t for _, t, _ in rows if analyzer.terms(t)]
    return {"text": text, "titles": rng.sample(titles, min(len(titles), count // 3))}


# ---------------------------------------------------------------------- workers
def run_search(db: Path, queries: dict[str, list[str]]) -> dict[str, Any]:
    """Open the store in this fresh process and time ``graph.search`` three ways."""
    from groundgraph import DocumentGraph

    start = time.perf_counter()
    graph = DocumentGraph(db)
    graph.search(queries["text"][0])
    opened = time.perf_counter() - start
    modes = {"walk": 2, "one_hop": 1, "lexical": 0}
    out: dict[str, Any] = {"open_first_search_s": opened}
    for name, hops in modes.items():

        def search(q: str, hops: int = hops) -> str | None:
            hits = graph.search(q, max_hops=hops)
            return hits[0].node_id if hits else None

        for q in queries["text"][:WARMUP]:
            search(q)
        for kind in ("text", "titles"):
            times, results = timed_each(queries[kind], search)
            out[f"{name}_{kind}_ms"] = percentiles(times)
            if name == "lexical" and kind == "text":
                out["top1"], out["empty"] = results, sum(r is None for r in results)
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def run_bm25s(db: Path, queries: dict[str, list[str]]) -> dict[str, Any]:
    import bm25s

    from groundgraph.index.bm25 import BM25Params
    from groundgraph.text import Analyzer

    analyzer = Analyzer("english")
    boost = BM25Params().title_boost
    rows = passages(db)
    position = {node_id: i for i, (node_id, _, _) in enumerate(rows)}
    tokens = [analyzer.terms(c) + analyzer.terms(t) * boost for _, t, c in rows]
    start = time.perf_counter()
    model = bm25s.BM25(method="lucene", k1=1.2, b=0.75, backend="numpy")
    model.index(tokens, show_progress=False)
    built = time.perf_counter() - start

    def retrieve(q: str) -> str | None:
        terms = list(dict.fromkeys(analyzer.terms(q)))
        docs, scores = model.retrieve([terms], k=10, show_progress=False)
        return rows[int(docs[0][0])][0] if terms and scores[0][0] > 0 else None

    def tied(q: str, ours: str | None) -> bool:
        """Whether our lexical top-1 scores as high in bm25s as bm25s's own top-1."""
        scores = model.get_scores(list(dict.fromkeys(analyzer.terms(q))))
        at = position.get(ours or "")
        return at is not None and bool(scores[at] >= scores.max() * (1 - 1e-5))

    for q in queries["text"][:WARMUP]:
        retrieve(q)
    out: dict[str, Any] = {"index_s": built, "passages": len(rows)}
    for kind in ("text", "titles"):
        qs = queries[kind]
        times, results = timed_each(qs, retrieve)
        out[f"{kind}_ms"] = percentiles(times)
        if kind == "text":
            ours = queries["ours_top1"]
            out["top1_same"] = sum(a == b for a, b in zip(ours, results, strict=True))
            out["top1_tied"] = sum(
                a != b and tied(q, a) for q, a, b in zip(qs, ours, results, strict=True)
            )
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def run_fts5(db: Path, queries: dict[str, list[str]], fts_db: Path) -> dict[str, Any]:
    rows = passages(db)
    con = sqlite3.connect(fts_db)
    try:
        con.execute("CREATE VIRTUAL TABLE probe USING fts5(x)")
        con.execute("DROP TABLE probe")
    except sqlite3.OperationalError as error:
        return {"available": False, "error": str(error)}
    start = time.perf_counter()
    with con:
        con.execute(
            "CREATE VIRTUAL TABLE s USING fts5(node_id UNINDEXED, title, content,"
            " tokenize='porter unicode61')"
        )
        con.executemany("INSERT INTO s VALUES (?, ?, ?)", rows)
    built = time.perf_counter() - start
    sql = "SELECT node_id FROM s WHERE s MATCH ? ORDER BY bm25(s, 0, 3.0, 1.0) LIMIT 10"

    def match(q: str) -> str | None:
        expr = " OR ".join('"' + w.replace('"', '""') + '"' for w in q.split())
        found = con.execute(sql, (expr,)).fetchall()
        return found[0][0] if found else None

    for q in queries["text"][:WARMUP]:
        match(q)
    out: dict[str, Any] = {"available": True, "index_s": built, "store_bytes": 0}
    for kind in ("text", "titles"):
        out[f"{kind}_ms"] = percentiles(timed_each(queries[kind], match)[0])
    con.close()
    out["store_bytes"] = store_bytes(fts_db)
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def worker_main(args: argparse.Namespace) -> None:
    queries = json.loads(Path(args.queries_file).read_text(encoding="utf-8"))
    if args.worker == "search":
        result = run_search(args.db, queries)
    elif args.worker == "bm25s":
        result = run_bm25s(args.db, queries)
    else:
        result = run_fts5(args.db, queries, args.db.with_name("fts5.db"))
    print(json.dumps(result))


# ---------------------------------------------------------------------- the driver
def run_measured(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """``speed.wall_and_rss`` with the command's stderr shown (its errors and progress)."""
    return wall_and_rss(command, env, quiet=False)


def run_worker(kind: str, db: Path, queries: Path, env: dict[str, str]) -> dict[str, Any]:
    command = [sys.executable, __file__, "--worker", kind, "--db", str(db)]
    _, rss, out = run_measured([*command, "--queries-file", str(queries)], env)
    return {**json.loads(out.strip().splitlines()[-1]), "process_peak_rss_mb": rss}


def run_index(folder: Path, db: Path, env: dict[str, str]) -> dict[str, Any]:
    """``groundgraph index FOLDER`` through the CLI; counts read back from the store."""
    from groundgraph import DocumentGraph

    command = [sys.executable, "-m", "groundgraph", "--db", str(db), "index", str(folder)]
    wall, rss, out = run_measured([*command, "--json"], env)
    report = json.loads(out)
    graph = DocumentGraph(db)
    kinds: dict[str, int] = {}
    for node in graph.store.reads.iter_nodes():
        kinds[node.kind] = kinds.get(node.kind, 0) + 1
    stats = graph.stats()
    graph.close()
    return {
        "wall_s": wall,
        "peak_rss_mb": rss,
        "documents": stats.documents,
        "skipped": len(report.get("skipped", [])),
        "sections": sum(kinds.get(k, 0) for k in SECTION_KINDS),
        "kinds": kinds,
        "nodes": stats.nodes,
        "edges": stats.edges,
        "terms": stats.terms,
        "store_bytes": store_bytes(db),
    }


def cold(db: Path, query: str, runs: int, env: dict[str, str]) -> dict[str, float]:
    """New processes as a user starts them: with bytecode caches (an installed package has
    them; ``PYTHONDONTWRITEBYTECODE`` in this shell would time compiling instead), after
    one run that writes them."""
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cli = [sys.executable, "-m", "groundgraph", "--db", str(db), "search", query, "--json"]
    run_measured(cli, env)
    cli_runs = [run_measured(cli, env) for _ in range(runs)]
    imports = [
        run_measured([sys.executable, "-c", "import groundgraph"], env)[0] for _ in range(runs)
    ]
    version = [sys.executable, "-m", "groundgraph", "--version"]
    versions = [run_measured(version, env)[0] for _ in range(runs)]
    return {
        "cli_s": statistics.median(r[0] for r in cli_runs),
        "cli_rss_mb": max(r[1] for r in cli_runs),
        "import_s": statistics.median(imports),
        "version_s": statistics.median(versions),
    }


def run_saved(db: Path, tmp: Path, env: dict[str, str]) -> dict[str, float]:
    """``groundgraph export`` of the store and ``groundgraph import`` of the file into a
    new store: wall time and peak RSS of each, and the file's size."""
    saved, copy = tmp / "graph.json", tmp / "imported.db"
    gg = [sys.executable, "-m", "groundgraph"]
    export_s, export_mb, _ = run_measured([*gg, "--db", str(db), "export", "-o", str(saved)], env)
    import_s, import_mb, _ = run_measured([*gg, "--db", str(copy), "import", str(saved)], env)
    size = saved.stat().st_size
    saved.unlink()
    for path in tmp.glob("imported.db*"):
        path.unlink()
    return {
        "export_s": export_s,
        "export_rss_mb": export_mb,
        "import_s": import_s,
        "import_rss_mb": import_mb,
        "file_bytes": size,
    }


def measure(
    n: int, names: list[str], tmp: Path, args: argparse.Namespace, env: dict[str, str]
) -> dict[str, Any]:
    start = time.perf_counter()
    folder, db = tmp / "docs", tmp / "graph.db"
    folder.mkdir()
    input_bytes = extract(args, names, folder)
    say = lambda what: print(f"[{n} files] {what}", file=sys.stderr)  # noqa: E731
    index = run_index(folder, db, env)
    say(f"indexed {index['sections']:,} sections in {index['wall_s']:.1f} s")
    queries = make_queries(db, args.queries, args.seed)
    qfile = tmp / "queries.json"
    qfile.write_text(json.dumps(queries), encoding="utf-8")
    search = run_worker("search", db, qfile, env)
    say("groundgraph search done")
    qfile.write_text(json.dumps({**queries, "ours_top1": search.pop("top1")}), encoding="utf-8")
    bm25s = run_worker("bm25s", db, qfile, env)
    fts5 = run_worker("fts5", db, qfile, env)
    say("bm25s and FTS5 done")
    return {
        "files": len(names),
        "input_bytes": input_bytes,
        "index": index,
        "search": search,
        "bm25s": bm25s,
        "fts5": fts5,
        "cold": cold(db, queries["text"][0], args.cli_runs, env),
        "saved": run_saved(db, tmp, env),
        "wall_s": time.perf_counter() - start,
    }


# ---------------------------------------------------------------------- the report
def cells(r: dict[str, Any]) -> list[tuple[str, str]]:
    """(measure, value) of one size, in table order."""
    ix, se, bm, ft, sv = r["index"], r["search"], r["bm25s"], r["fts5"], r["saved"]
    mib, size = 2**20, r["input_bytes"]

    def ms(p: dict[str, float]) -> str:
        return f"{p['p50']:.2f} / {p['p95']:.2f}"

    def on_fts(fmt: Callable[[], str]) -> str:
        return fmt() if ft["available"] else "n/a (no fts5)"

    nq, nt = se["walk_text_ms"]["n"], se["walk_titles_ms"]["n"]
    gg_mb, titles = ix["store_bytes"] / mib, [se["walk_titles_ms"], se["lexical_titles_ms"]]
    return [
        ("input: files / MiB of markdown", f"{r['files']:,} / {size / mib:.1f}"),
        (
            "documents / sections (+chunks) / all nodes / edges",
            f"{ix['documents']:,} / {ix['sections']:,} / {ix['nodes']:,} / {ix['edges']:,}",
        ),
        ("groundgraph: `groundgraph index` wall (s)", f"{ix['wall_s']:.1f}"),
        ("groundgraph: sections/s (CLI wall)", f"{ix['sections'] / ix['wall_s']:,.0f}"),
        ("bm25s: `index` of the same passages (s)", f"{bm['index_s']:.2f}"),
        ("FTS5: insert, one transaction (s)", on_fts(lambda: f"{ft['index_s']:.2f}")),
        ("store MiB, groundgraph (x input)", f"{gg_mb:.1f} ({ix['store_bytes'] / size:.1f}x)"),
        (
            "store MiB, FTS5 (x input)",
            on_fts(lambda: f"{ft['store_bytes'] / mib:.1f} ({ft['store_bytes'] / size:.1f}x)"),
        ),
        ("peak RSS, `groundgraph index` tree (MiB)", f"{ix['peak_rss_mb']:,.0f}"),
        (f"groundgraph `search`, {nq} text queries, p50 / p95 (ms)", ms(se["walk_text_ms"])),
        ("groundgraph `search(max_hops=1)` p50 / p95 (ms)", ms(se["one_hop_text_ms"])),
        ("groundgraph lexical `search(max_hops=0)` p50 / p95 (ms)", ms(se["lexical_text_ms"])),
        ("bm25s numpy `retrieve` k=10 p50 / p95 (ms)", ms(bm["text_ms"])),
        (
            "FTS5 `MATCH` (OR) `ORDER BY bm25()` LIMIT 10 p50 / p95 (ms)",
            on_fts(lambda: ms(ft["text_ms"])),
        ),
        (
            f"{nt} title queries p50: search / lexical / bm25s / FTS5 (ms)",
            " / ".join(f"{p['p50']:.2f}" for p in [*titles, bm["titles_ms"]])
            + " / "
            + on_fts(lambda: f"{ft['titles_ms']['p50']:.2f}"),
        ),
        (
            "top-1 same node, lexical vs bm25s (+ ties on bm25s's score)",
            f"{bm['top1_same']}/{nq} (+{bm['top1_tied']})",
        ),
        (
            "peak RSS, search / bm25s / FTS5 processes (MiB)",
            f"{se['process_peak_rss_mb']:,.0f} / {bm['process_peak_rss_mb']:,.0f} / "
            + f"{ft.get('process_peak_rss_mb', 0):,.0f}",
        ),
        ("`DocumentGraph(db)` + first search, new process (s)", f"{se['open_first_search_s']:.2f}"),
        ("cold `groundgraph search --json`, median (s)", f"{r['cold']['cli_s']:.2f}"),
        ("`python -c 'import groundgraph'`, median (s)", f"{r['cold']['import_s']:.2f}"),
        ("`groundgraph --version`, median (s)", f"{r['cold']['version_s']:.2f}"),
        (
            "`groundgraph export` / `import`: wall (s), peak RSS (MiB)",
            f"{sv['export_s']:.1f}, {sv['export_rss_mb']:,.0f} / "
            f"{sv['import_s']:.1f}, {sv['import_rss_mb']:,.0f}",
        ),
        (
            "saved graph file MiB (x input)",
            f"{sv['file_bytes'] / mib:.1f} ({sv['file_bytes'] / size:.1f}x)",
        ),
    ]


def table(results: list[dict[str, Any]], command: str, info: dict[str, str]) -> str:
    sizes = [f"{r['files']:,} files" for r in results]
    columns = [cells(r) for r in results]
    lines = [
        "```bash",
        command,
        "```",
        "",
        f"- machine: `nproc` = {info['nproc']}, {info['platform']}, {info['processor']}",
        f"- {info['python']}, SQLite {info['sqlite']}; {info['versions']}",
        f"- code: `git describe --always --dirty` = `{info['code']}`; {info['date']};"
        " `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1`",
        f"- load average (1, 5, 15 min): {info['load_before']} before, {info['load']} after",
        "",
        f"| measure | {' | '.join(sizes)} |",
        f"|---|{'---:|' * len(sizes)}",
    ]
    for i, (name, _) in enumerate(columns[0]):
        lines.append(f"| {name} | {' | '.join(c[i][1] for c in columns)} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tar", type=Path, default=DEFAULT_TAR)
    parser.add_argument("--folder", type=Path, help="a folder of markdown instead of --tar")
    parser.add_argument("--files", default="1000,3000", help="sample sizes, or `all`")
    parser.add_argument("--quick", action="store_true", help="200 files only")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--cli-runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    parser.add_argument("--worker", choices=["search", "bm25s", "fts5"], help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--queries-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main(args)
        return
    files = list_files(args)
    if args.quick:
        sizes = [200]
    elif args.files == "all":
        sizes = [len(files)]
    else:
        sizes = [int(s) for s in args.files.split(",")]
    env = {**os.environ, **THREADS_ENV}
    command = shlex.join([".venv/bin/python", "benchmarks/realtext.py", *sys.argv[1:]])
    load_before = load_average()
    results = []
    for n in sizes:
        with tempfile.TemporaryDirectory(prefix="groundgraph-realtext-") as tmp:
            results.append(measure(n, sample(files, n), Path(tmp), args, env))
    # GNU nproc honours OMP_NUM_THREADS, which is set to 1 here: count the usable cores.
    cores = str(len(os.sched_getaffinity(0)))
    text = table(results, command, {**machine(), "nproc": cores, "load_before": load_before})
    print(text)
    print(json.dumps(results, indent=1), file=sys.stderr)
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
        print(f"wrote {args.markdown}", file=sys.stderr)


if __name__ == "__main__":
    main()
