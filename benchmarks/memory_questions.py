"""Natural-language questions over one mixed-domain memory: recall@5 and precision@5.

    .venv/bin/python benchmarks/memory_questions.py            # the default (keyword) path
    .venv/bin/python benchmarks/memory_questions.py -v         # each miss listed
    .venv/bin/python benchmarks/memory_questions.py --json out.json
    .venv/bin/python benchmarks/memory_questions.py --embedder minilm   # the three modes

The set (``data/memory_questions_facts.jsonl``, ``data/memory_questions.jsonl``) was
written blind, for issues 13 and 19, by a writer who had read neither groundgraph's code nor
its rules: 390 facts of nine domains (about 35 small scenarios of 2-5 facts, causal chains
and "before you do X" checklists, among 267 distractors that share their names and words)
and 60 questions asked as an agent asks them ("I need to understand why..."), 40 of them
needing facts of two or more domains, 43 sharing no content word with one of their facts.
Seven questions lean on a fact that a later fact corrected: only the current fact counts.

Every fact goes into one fresh in-memory ``DocumentGraph()`` with ``add_texts`` in id
order (older first, so a correction comes after what it corrects), then each question is
asked with ``query_detailed(question, top_k=5)``. Recall@5 = relevant facts in the top 5 /
relevant facts; precision@5 = relevant facts in the top 5 / 5 (the memory is asked for five
and a full memory has five to give); full answers = questions with every relevant fact in
the top 5; empty = questions that got nothing back. With 95% bootstrap intervals over the
questions, and by kind of question.

``--embedder minilm`` (or ``multilingual``) builds the one memory with that embedder (facts
embedded as they are added) and asks every question in each ``--mode`` (default: keyword,
embedding and hybrid) through ``search_mode``; without an embedder, keyword only.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from groundgraph import DocumentGraph
from groundgraph.index.embedders import EMBEDDER_NAMES, embedder_named

DATA = Path(__file__).resolve().parent / "data"
FACTS = DATA / "memory_questions_facts.jsonl"
QUESTIONS = DATA / "memory_questions.jsonl"
TOP_K = 5
MODES = ("keyword", "embedding", "hybrid")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def interval(values: list[float], rounds: int = 2000, seed: int = 0) -> tuple[float, float]:
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def run(verbose: bool, embedder: str = "none", modes: tuple[str, ...] = ("keyword",)) -> dict:
    facts = read_jsonl(FACTS)
    graph = DocumentGraph(embed=embedder_named(embedder))
    started = time.perf_counter()
    added = graph.add_texts([f["text"] for f in facts])
    add_seconds = time.perf_counter() - started
    # A near-duplicate may merge into an earlier fact: map every stored id back to its facts.
    by_fact: dict[str, set[str]] = {}
    for fact, stored in zip(facts, added, strict=True):
        by_fact.setdefault(stored.fact_id, set()).add(fact["id"])
    by_mode = {mode: ask(graph, by_fact, mode, verbose) for mode in modes}
    return {
        "facts": len(facts),
        "stored": len(by_fact),
        "embedder": embedder,
        "add_seconds": add_seconds,
        "modes": by_mode,
    }


def ask(
    graph: DocumentGraph, by_fact: dict[str, set[str]], mode: str, verbose: bool
) -> list[dict[str, Any]]:
    """Every question in one search mode: a row of figures each."""
    rows = []
    for question in read_jsonl(QUESTIONS):
        hits = graph.query_detailed(question["question"], top_k=TOP_K, search_mode=mode)
        returned = [by_fact.get(h.fact_id, set()) for h in hits]
        found = {f for ids in returned for f in ids}
        relevant = set(question["relevant"])
        hit = relevant & found
        rows.append(
            {
                "id": question["id"],
                "kind": question["kind"],
                "recall": len(hit) / len(relevant),
                "precision": sum(bool(ids & relevant) for ids in returned) / TOP_K,
                "full": hit == relevant,
                "empty": not hits,
                "returned": len(hits),
                "missed": sorted(relevant - found),
            }
        )
        if verbose and hit != relevant:
            print(
                f"[{mode}] {question['id']} ({question['kind']}) missed {sorted(relevant - found)}"
            )
            print(f"    {question['question']}")
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def stat(key: str) -> dict[str, float]:
        values = [float(r[key]) for r in rows]
        low, high = interval(values)
        return {"mean": statistics.fmean(values), "low": low, "high": high}

    return {
        "questions": len(rows),
        "recall@5": stat("recall"),
        "precision@5": stat("precision"),
        "full answers": stat("full"),
        "empty": sum(r["empty"] for r in rows),
        "mean returned": statistics.fmean(r["returned"] for r in rows),
    }


def markdown(result: dict[str, Any]) -> str:
    modes: dict[str, list[dict[str, Any]]] = result["modes"]
    first = next(iter(modes.values()))
    lines = [
        f"{len(first)} questions over {result['facts']} facts "
        f"({result['stored']} stored after merging near-duplicates); embedder: "
        f"{result['embedder']} (adding the facts took {result['add_seconds']:.1f} s)",
        "",
        "| mode | recall@5 | precision@5 | full answers | empty | returned (mean) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for mode, rows in modes.items():
        table = summary(rows)
        cells = [
            f"{table[k]['mean']:.3f} [{table[k]['low']:.3f}, {table[k]['high']:.3f}]"
            for k in ("recall@5", "precision@5", "full answers")
        ]
        lines.append(
            f"| {mode} | {' | '.join(cells)} | {table['empty']} | {table['mean returned']:.2f} |"
        )
    names = " | ".join(f"recall@5 {mode}" for mode in modes)
    lines += ["", f"| kind | questions | {names} |", "|---|---:|" + "---:|" * len(modes)]
    for kind in sorted({r["kind"] for r in first}):
        cells = []
        for rows in modes.values():
            subset = [r for r in rows if r["kind"] == kind]
            cells.append(f"{statistics.fmean(r['recall'] for r in subset):.3f}")
        lines.append(f"| {kind} | {len(subset)} | {' | '.join(cells)} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list each miss")
    parser.add_argument("--json", type=Path, help="write every figure and row here")
    parser.add_argument(
        "--embedder", choices=EMBEDDER_NAMES, default="none", help="embed the facts (default none)"
    )
    parser.add_argument(
        "--mode",
        action="append",
        choices=MODES,
        help="search mode, repeatable (default: all three with an embedder, else keyword)",
    )
    args = parser.parse_args()
    modes = tuple(args.mode or (MODES if args.embedder != "none" else ("keyword",)))
    result = run(args.verbose, args.embedder, modes)
    print(markdown(result))
    if args.json:
        summaries = {mode: summary(rows) for mode, rows in result["modes"].items()}
        args.json.write_text(json.dumps({**result, "summary": summaries}, indent=2))


if __name__ == "__main__":
    main()
