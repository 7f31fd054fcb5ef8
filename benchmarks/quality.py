"""Retrieval quality: BM25 alone against the graph modes on multi-hop QA and BEIR SciFact.

    .venv/bin/python benchmarks/quality.py                          # all four sets
    .venv/bin/python benchmarks/quality.py --sets musique-100,hotpotqa --no-write
    .venv/bin/python benchmarks/quality.py --examples 5             # wins and losses too
    .venv/bin/python benchmarks/quality.py --embedder minilm --no-write  # + the dense modes

Each set is indexed into a fresh graph (in memory, or ``--store sqlite`` for a temporary
SQLite file), one plain-text document per passage, and every configuration answers every
question. Configurations are keyword arguments of ``DocumentGraph.search``; the ones for
walkers and fusions this version of ``search`` does not take are left out and named. The
table goes to the "Retrieval quality" section of docs/benchmarks.md (between the
``quality:start`` and ``quality:end`` comments; the rest of the file is kept).

Data comes from ``--data`` (default ``../shared/data`` next to the repository):
``musique-kag/``, ``hotpotqa-kag/`` and ``scifact-beir/`` as described in its MANIFEST.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from groundgraph import DocumentGraph
from groundgraph.eval.beir import load_beir
from groundgraph.eval.datasets import Dataset, add_passages, load_multihop, load_musique
from groundgraph.eval.runner import (
    STANDARD_CONFIGS,
    EvalReport,
    SearchConfig,
    evaluate,
    markdown_table,
    supported_configs,
)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
START, END = "<!-- quality:start -->", "<!-- quality:end -->"
HEADING = "## Retrieval quality"

BASELINE = "bm25"
#: Every mode we know of; those ``search`` does not take yet are skipped at run time.
CONFIGS: dict[str, SearchConfig] = {
    BASELINE: STANDARD_CONFIGS[BASELINE],
    "walk": STANDARD_CONFIGS["walk"],
    "walk-1hop": {"max_hops": 1},
    **{n: c for n, c in STANDARD_CONFIGS.items() if n not in (BASELINE, "walk")},
}
#: The modes an embedder adds (``--embedder``): cosine seeds alone, then walked, then fused.
DENSE_CONFIGS: dict[str, SearchConfig] = {
    "minilm": {"search_mode": "embedding", "max_hops": 0},
    "minilm+walk": {"search_mode": "embedding"},
    "hybrid+walk": {"search_mode": "hybrid"},
}
ALL_CONFIGS = {**CONFIGS, **DENSE_CONFIGS}
MULTI_HOP = ("musique-100", "musique-train", "hotpotqa")
SCIFACT = "scifact"
COLUMNS = ("recall@2", "recall@5", "recall@10", "precision@5", "mrr@10", "ndcg@10")
TARGET_RECALL_GAIN = 0.03  # best graph mode over BM25, recall@5, mean of the multi-hop sets
TARGET_NDCG_DROP = 0.01  # no graph mode more than this below BM25 on SciFact nDCG@10
TARGET_BM25_NDCG = 0.66  # BM25-only SciFact nDCG@10 (the BEIR paper reports 0.665)


def loaders(data: Path) -> dict[str, Callable[[], Dataset]]:
    mq, hp = data / "musique-kag", data / "hotpotqa-kag"
    return {
        "musique-100": lambda: load_musique(mq / "musique_qa_100.json", name="musique-100"),
        "musique-train": lambda: load_multihop(
            mq / "qa_train.json", mq / "train_corpus.json", name="musique-train"
        ),
        "hotpotqa": lambda: load_multihop(
            hp / "qa_train.json", hp / "train_corpus.json", joiner="", name="hotpotqa"
        ),
        SCIFACT: lambda: load_beir(data / "scifact-beir", "test", name=SCIFACT),
    }


@dataclass
class SetRun:
    dataset: Dataset
    report: EvalReport
    load_s: float
    index_s: float
    eval_s: float
    stats: dict[str, Any]


def run_set(
    name: str, load: Callable[[], Dataset], args: argparse.Namespace, tmp: Path
) -> tuple[SetRun, DocumentGraph, list[str]]:
    started = time.perf_counter()
    dataset = load()
    loaded = time.perf_counter()
    print(dataset.summary(), file=sys.stderr)
    graph = DocumentGraph(
        tmp / f"{name}.db" if args.store == "sqlite" else ":memory:", embed=embedder(args)
    )

    def progress(done: int, total: int) -> None:
        if done % 1000 == 0 or done == total:
            print(
                f"  indexed {done:,}/{total:,} in {time.perf_counter() - loaded:.1f} s",
                file=sys.stderr,
            )

    add_passages(graph, dataset.passages, progress)
    indexed = time.perf_counter()
    chosen = {n: ALL_CONFIGS[n] for n in args.configs}
    configs = supported_configs(graph, chosen)
    skipped = [n for n in chosen if n not in configs]

    def asked(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            elapsed = time.perf_counter() - indexed
            print(f"  asked {done}/{total} questions in {elapsed:.1f} s", file=sys.stderr)

    report = evaluate(
        graph,
        dataset.questions,
        configs,
        args.k,
        dataset=name,
        resamples=args.resamples,
        progress=asked,
    )
    done = time.perf_counter()
    stats = graph.stats()
    run = SetRun(dataset, report, loaded - started, indexed - loaded, done - indexed, stats)
    print(f"  index {run.index_s:.1f} s, evaluate {run.eval_s:.1f} s", file=sys.stderr)
    return run, graph, skipped


_EMBEDDERS: dict[str, Any] = {}


def embedder(args: argparse.Namespace) -> object | None:
    """The embedder ``--embedder`` names (torch on ``--torch-threads`` threads), or None;
    behind the on-disk ``--vector-cache`` unless ``--no-vector-cache``. One per run."""
    if args.embedder == "none":
        return None
    if args.embedder in _EMBEDDERS:
        return _EMBEDDERS[args.embedder]
    import torch

    torch.set_num_threads(args.torch_threads)
    from groundgraph.index.embedders import embedder_named

    found = embedder_named(args.embedder)
    if found is not None and args.vector_cache is not None:
        from vector_cache import cached_embedder

        found, cache = cached_embedder(found, args.vector_cache)
        _CACHES.append(cache)
    _EMBEDDERS[args.embedder] = found
    return found


_CACHES: list[Any] = []


def best_mode(runs: dict[str, SetRun]) -> str | None:
    """The graph mode with the highest recall@5 averaged over the multi-hop sets present."""
    sets = [runs[s] for s in MULTI_HOP if s in runs]
    if not sets:
        return None
    modes = [n for n in sets[0].report.results if n != BASELINE]
    if not modes:
        return None
    gains = {m: sum(r.report.results[m].scores["recall@5"].mean for r in sets) for m in modes}
    return max(modes, key=gains.__getitem__)


def verdict(ok: bool) -> str:
    return "**met**" if ok else "**missed**"


def targets(runs: dict[str, SetRun], best: str | None) -> list[str]:
    rows = ["| target | measured | verdict |", "|---|---|---|"]
    multi = [runs[s] for s in MULTI_HOP if s in runs]
    if best and len(multi) == len(MULTI_HOP):
        gains = [
            r.report.results[best].scores["recall@5"].mean
            - r.report.results[BASELINE].scores["recall@5"].mean
            for r in multi
        ]
        mean = sum(gains) / len(gains)
        parts = ", ".join(
            f"{r.report.dataset} {g * 100:+.1f}" for r, g in zip(multi, gains, strict=True)
        )
        rows.append(
            f"| best graph mode (`{best}`) beats BM25 recall@5 by ≥ 3 points, mean of the three "
            f"multi-hop sets | {mean * 100:+.1f} points ({parts}) "
            f"| {verdict(mean >= TARGET_RECALL_GAIN)} |"
        )
    if SCIFACT in runs:
        results = runs[SCIFACT].report.results
        base = results[BASELINE].scores["ndcg@10"].mean
        for mode in (m for m in results if m != BASELINE):
            delta = results[mode].scores["ndcg@10"].mean - base
            rows.append(
                f"| `{mode}` no more than 1 point below BM25 nDCG@10 on SciFact | "
                f"{delta * 100:+.1f} points | {verdict(delta >= -TARGET_NDCG_DROP)} |"
            )
        rows.append(
            f"| BM25-only SciFact nDCG@10 ≥ 0.66 | {base:.3f} "
            f"| {verdict(base >= TARGET_BM25_NDCG)} |"
        )
    return rows


def differences(runs: dict[str, SetRun]) -> list[str]:
    rows = [
        "| dataset | config | Δ recall@5 vs bm25 (95% CI) | Δ nDCG@10 vs bm25 (95% CI) "
        "| questions better / worse at recall@5 |",
        "|---|---|---:|---:|---:|",
    ]
    for run in runs.values():
        report = run.report
        for mode in (m for m in report.results if m != BASELINE):
            cells = []
            for score in ("recall@5", "ndcg@10"):
                d = report.difference(mode, BASELINE, score)
                cells.append(f"{d.mean * 100:+.1f} ({d.low * 100:+.1f} to {d.high * 100:+.1f})")
            changed = report.changed(mode, BASELINE, "recall@5")
            better = sum(1 for _, a, b in changed if a > b)
            rows.append(
                f"| {report.dataset} | {mode} | {cells[0]} | {cells[1]} "
                f"| {better} / {len(changed) - better} |"
            )
    return rows


def timings(runs: dict[str, SetRun]) -> list[str]:
    rows = [
        "| dataset | questions | passages | graph nodes (all kinds) / edges | load (s) | index (s) "
        "| evaluate, all configs (s) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs.values():
        s, data = run.stats, run.dataset
        rows.append(
            f"| {run.report.dataset} | {len(data.questions)} | {len(data.passages):,} "
            f"| {s['nodes']:,} / {s['edges']:,} | {run.load_s:.1f} | {run.index_s:.1f} "
            f"| {run.eval_s:.1f} |"
        )
    return rows


def machine() -> str:
    versions = ", ".join(
        f"{p} {metadata.version(p)}" for p in ("groundgraph", "numpy", "scipy", "PyStemmer")
    )
    return (
        f"`nproc` = {os.cpu_count()}, {platform.platform()}; CPython "
        f"{platform.python_version()}; {versions}"
    )


def section(
    runs: dict[str, SetRun], command: str, args: argparse.Namespace, skipped: list[str]
) -> str:
    best = best_mode(runs)
    reports = [r.report for r in runs.values()]
    first = reports[0]
    lines = [
        "Produced by:",
        "",
        "```bash",
        command,
        "```",
        "",
        f"- machine: {machine()}",
        f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; store: {args.store}; zero LLM calls,"
        " no embeddings",
        "- configurations (keyword arguments of `DocumentGraph.search`, `max_results` set by the"
        " runner): "
        + ", ".join(
            f"`{n}` = `{json.dumps(dict(ALL_CONFIGS[n]))}`"
            for n in args.configs
            if n not in skipped
        ),
    ]
    if skipped:
        lines.append(
            "- not run, because this version of `search` does not take their options: "
            + ", ".join(f"`{n}` (`{json.dumps(dict(ALL_CONFIGS[n]))}`)" for n in skipped)
        )
    lines += [
        f"- each cell: the mean over questions and its percentile bootstrap 95% interval "
        f"({first.resamples:,} resamples of the questions, seed {first.seed}); latency is "
        "per query, warm, in one process",
        "",
        markdown_table(reports, COLUMNS),
        "",
        "### Targets",
        "",
        *targets(runs, best),
        "",
        "### Graph modes against BM25, question by question",
        "",
        "Paired differences (same questions, same bootstrap resamples), in points.",
        "",
        *differences(runs),
        "",
        "### Data and time",
        "",
        *timings(runs),
        "",
        "How it was measured:",
        "",
        "- musique-100: the 100 MuSiQue-Ans questions of `musique-kag/musique_qa_100.json`,"
        " searched over the union of their 20 paragraphs each, deduplicated by (title, text);"
        " relevant = the `is_supporting` paragraphs.",
        "- musique-train: `musique-kag/qa_train.json` over `train_corpus.json`; relevant = the"
        " corpus passages equal (title and text) to the `is_supporting` paragraphs.",
        "- hotpotqa: `hotpotqa-kag/qa_train.json` over `train_corpus.json` (title → sentences,"
        " joined with no separator as HippoRAG does for HotpotQA); relevant = the titles named"
        " in `supporting_facts`.",
        "- scifact: BEIR SciFact, `qrels/test.tsv` (graded > 0), documents by their BEIR `_id`.",
        "- One plain-text document per passage (`add_document(text, title, doc_id,"
        ' format="text")`); a passage over 2,000 characters becomes several chunk nodes of'
        " one document, and a document counts once, at its first rank. Recall@k is HippoRAG's"
        " passage recall: per question, the share of its gold passages in the top k, averaged.",
    ]
    return "\n".join(lines) + "\n"


def write_section(path: Path, body: str) -> None:
    """Put ``body`` between the quality markers of ``path``; the rest of the file is kept.

    Without markers, the "## Retrieval quality" section is replaced (up to the next
    ``## `` heading), or appended. The heading stays outside the markers, so another
    writer that replaces its own section up to the next heading leaves them intact.
    """
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    block = f"{START}\n{body}{END}\n"
    if START in text and END in text and text.index(START) < text.index(END):
        head, rest = text.split(START, 1)
        tail = rest.split(END, 1)[1].removeprefix("\n")
        path.write_text(head + block + tail, encoding="utf-8")
        return
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.strip() == HEADING), None)
    new = f"{HEADING}\n\n{block}"
    if start is None:
        path.write_text(text.rstrip("\n") + "\n\n" + new, encoding="utf-8")
        return
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    tail = "".join(lines[end:])
    path.write_text("".join(lines[:start]) + new + ("\n" + tail if tail else ""), "utf-8")


def print_examples(run: SetRun, graph: DocumentGraph, mode: str, count: int) -> None:
    """Questions where ``mode`` wins or loses against BM25 at recall@5, with how it got there."""
    titles = {p.doc_id: p.title for p in run.dataset.passages}
    report = run.report
    index = {q.id: i for i, q in enumerate(report.questions)}
    changed = report.changed(mode, BASELINE, "recall@5")
    options = dict(report.results[mode].options or {})
    for label, picked in (
        ("wins", [c for c in changed if c[1] > c[2]]),
        ("losses", [c for c in changed if c[1] < c[2]]),
    ):
        print(f"\n## {report.dataset}: {mode} {label} ({len(picked)})")
        for question, _, _ in picked[:count]:
            gold = set(question.relevant)
            base = report.results[BASELINE].rankings[index[question.id]][:5]
            print(f"\n{question.id}: {question.question}")
            print("  gold: " + "; ".join(titles.get(d, d) for d in question.relevant))
            print("  bm25: " + "; ".join(("*" if d in gold else "") + titles[d] for d in base))
            seen: list[str] = []
            for hit in graph.search(question.question, max_results=20, **options):
                if hit.doc_id in seen:
                    continue
                seen.append(hit.doc_id)
                if len(seen) > 5:
                    break
                via_node = hit.via or ""
                via = titles.get(via_node.split("#")[0], via_node)  # an entity node: its id
                how = f" via {via!r} {'/'.join(hit.edge_types)}" if hit.hops else ""
                print(
                    f"  {mode}: {'*' if hit.doc_id in gold else ''}{hit.title} "
                    f"(score {hit.score:.2f}, lexical {hit.lexical_score:.2f}{how})"
                )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sets", default=",".join([*MULTI_HOP, SCIFACT]))
    parser.add_argument(
        "--configs",
        default=None,
        type=lambda s: [c for c in s.split(",") if c],
        help=f"{BASELINE} first; any of {', '.join(ALL_CONFIGS)} (the last three need "
        "--embedder); default: every mode the embedder allows",
    )
    parser.add_argument("--embedder", choices=["minilm", "none"], default="none")
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument(
        "--vector-cache",
        type=Path,
        default=ROOT / "benchmarks" / "out" / "vectors.sqlite",
        help="reuse embeddings kept here, keyed by embedder name and text hash "
        "(benchmark-only; default %(default)s)",
    )
    parser.add_argument(
        "--no-vector-cache",
        dest="vector_cache",
        action="store_const",
        const=None,
        help="embed every text again",
    )
    parser.add_argument("--store", choices=["memory", "sqlite"], default="memory")
    parser.add_argument("--k", default="2,5,10", type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--markdown", type=Path, default=ROOT / "docs" / "benchmarks.md")
    parser.add_argument("--no-write", action="store_true", help="print the section only")
    parser.add_argument("--json", type=Path, help="write every report, with rankings, here")
    parser.add_argument("--examples", type=int, default=0, help="print N wins and N losses")
    parser.add_argument("--examples-mode", default="walk", help="the mode whose examples to print")
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(arguments)
    if args.configs is None:
        args.configs = list(CONFIGS if args.embedder == "none" else ALL_CONFIGS)
    available = loaders(args.data)
    wanted = [s for s in args.sets.split(",") if s]
    unknown = [s for s in wanted if s not in available]
    if unknown:
        parser.error(f"unknown sets {unknown}; choose from {', '.join(available)}")
    names = ALL_CONFIGS if args.embedder != "none" else CONFIGS
    if not args.configs or args.configs[0] != BASELINE or set(args.configs) - set(names):
        parser.error(f"--configs must start with {BASELINE} and name only {', '.join(names)}")
    command = shlex.join([".venv/bin/python", "benchmarks/quality.py", *arguments])
    runs: dict[str, SetRun] = {}
    skipped: list[str] = []
    with tempfile.TemporaryDirectory(prefix="groundgraph-quality-") as tmp:
        for name in wanted:
            run, graph, skipped = run_set(name, available[name], args, Path(tmp))
            runs[name] = run
            if args.examples and args.examples_mode in run.report.results:
                print_examples(run, graph, args.examples_mode, args.examples)
            graph.close()
    for cache in _CACHES:
        print(f"vector cache: {cache.hits:,} hits, {cache.misses:,} embedded", file=sys.stderr)
    if args.json:  # first: the section below cannot lose what took long to measure
        args.json.write_text(
            json.dumps({n: r.report.to_dict(rankings=True) for n, r in runs.items()}, indent=1),
            encoding="utf-8",
        )
    body = section(runs, command, args, skipped)
    print(body)
    if not args.no_write:
        write_section(args.markdown, body)
        print(f"wrote {args.markdown}", file=sys.stderr)


if __name__ == "__main__":
    main()
