"""The built-in datasets of ReasonGraph's six domains: recall of each question's expected chain.

    .venv/bin/python benchmarks/datasets.py               # one table on stdout
    .venv/bin/python benchmarks/datasets.py -v            # each missed fact listed
    .venv/bin/python benchmarks/datasets.py --separate    # each dataset in a graph of its own
    .venv/bin/python benchmarks/datasets.py --json out.json

The datasets (``causal``, ``taxonomy``, ``syllogisms``, ``financial``, ``medical``,
``analysis_patterns``; ``groundgraph.memory.dataset_questions``) were written for
groundgraph, in ReasonGraph's domains, each question with the facts of the chain that
answers it. As in ReasonGraph's own mixed-domain evaluation, all six go into one fresh
in-memory ``DocumentGraph()`` with ``load_dataset`` (``--separate``: one graph per
dataset), then each question is asked with ``query(question, top_k=5)``, no model at all.

Per domain: chain recall@5 = expected facts in the top 5 / expected facts (ReasonGraph's
"chain completeness" counts facts found anywhere in the answer; with five asked they are
the same); full chains = questions with every expected fact in the top 5; P@5 = expected
facts in the top 5 / facts returned; in-domain = returned facts of the question's own
dataset / facts returned (ReasonGraph's "domain accuracy").
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from groundgraph import DocumentGraph
from groundgraph.memory import dataset_questions, load_dataset_facts

DOMAINS = ["causal", "taxonomy", "syllogisms", "financial", "medical", "analysis_patterns"]
TOP_K = 5


def filled(names: list[str]) -> DocumentGraph:
    graph = DocumentGraph()
    for name in names:
        graph.load_dataset(name)
    return graph


def score(graph: DocumentGraph, name: str, verbose: bool) -> list[dict[str, Any]]:
    own = {f.text for f in load_dataset_facts(name)}
    rows = []
    for question in dataset_questions(name):
        found = graph.query(question.question, top_k=TOP_K)
        hit = [fact for fact in question.chain if fact in found]
        rows.append(
            {
                "domain": name,
                "question": question.question,
                "recall": len(hit) / len(question.chain),
                "full": len(hit) == len(question.chain),
                "precision": len(hit) / len(found) if found else 0.0,
                "in_domain": sum(f in own for f in found) / len(found) if found else 0.0,
            }
        )
        if verbose and len(hit) < len(question.chain):
            print(f"  [{name}] {question.question}")
            for fact in question.chain:
                print(f"    {'found' if fact in found else 'MISSED'}: {fact}")
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, float]:
    return {
        "questions": len(rows),
        "chain_recall@5": statistics.fmean(r["recall"] for r in rows),
        "full_chains": sum(r["full"] for r in rows) / len(rows),
        "precision@5": statistics.fmean(r["precision"] for r in rows),
        "in_domain": statistics.fmean(r["in_domain"] for r in rows),
    }


def run(separate: bool, verbose: bool) -> dict[str, Any]:
    started = time.process_time()
    shared = None if separate else filled(DOMAINS)
    rows: list[dict[str, Any]] = []
    for name in DOMAINS:
        graph = filled([name]) if shared is None else shared
        rows += score(graph, name, verbose)
    by_domain = {name: summary([r for r in rows if r["domain"] == name]) for name in DOMAINS}
    return {
        "graph": "one per dataset" if separate else "all six in one",
        "by_domain": by_domain,
        "overall": summary(rows),
        "cpu_seconds": round(time.process_time() - started, 2),
        "rows": rows,
    }


def table(result: dict[str, Any]) -> str:
    lines = [
        f"graph: {result['graph']}; query(question, top_k={TOP_K}); "
        f"{result['cpu_seconds']} s CPU in all",
        "| domain | questions | chain recall@5 | full chains | P@5 | in-domain |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    named = [*result["by_domain"].items(), ("**all**", result["overall"])]
    for name, s in named:
        lines.append(
            f"| {name} | {s['questions']} | {s['chain_recall@5']:.2f} | {s['full_chains']:.2f} "
            f"| {s['precision@5']:.2f} | {s['in_domain']:.2f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--separate", action="store_true", help="one graph per dataset")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every missed fact")
    parser.add_argument("--json", type=Path, help="write the figures and rows here")
    args = parser.parse_args()
    result = run(args.separate, args.verbose)
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
