"""What an embedder costs: texts per second when storing, milliseconds per query, load time.

    .venv/bin/python benchmarks/embed_cost.py                        # minilm and multilingual
    .venv/bin/python benchmarks/embed_cost.py --embedder multilingual --threads 2

Each named embedder (``index.embedders``) runs in a fresh process with ``--threads``
threads (1 by default: ``OMP_NUM_THREADS`` and, for torch, ``torch.set_num_threads``, set
before the model loads). Two kinds of stored text, in the 64-text batches the graph sends:
the 390 facts of ``data/memory_questions_facts.jsonl`` (70 characters on average) and 64
section-sized passages of 7 facts each (about 500 characters); then the 60 questions of
``data/memory_questions.jsonl`` one at a time, as a search embeds its query. Texts/s is
the texts of a kind over the seconds of all their batches, with the range over
``--repeats`` runs; a query's time is its p50 and p95.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
NAMES = ("minilm", "multilingual")


def texts() -> tuple[list[str], list[str], list[str]]:
    def read(name: str, key: str) -> list[str]:
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        return [json.loads(line)[key] for line in lines if line]

    facts = read("memory_questions_facts.jsonl", "text")
    passages = [" ".join(facts[i : i + 7]) for i in range(0, 7 * 64, 7)]
    return facts, passages, read("memory_questions.jsonl", "question")


def measure(name: str, threads: int, repeats: int) -> dict[str, Any]:
    """One embedder in this process (its threads already fixed by the environment)."""
    from groundgraph.index.embedders import embedder_named

    if name == "minilm":
        import torch

        torch.set_num_threads(threads)
    embedder = embedder_named(name)
    assert embedder is not None
    facts, passages, questions = texts()
    started = time.perf_counter()
    embedder.embed(facts[:1])  # loads the model
    load = time.perf_counter() - started
    result: dict[str, Any] = {"embedder": name, "threads": threads, "load_s": load}
    for kind, batch in (("facts", facts), ("passages", passages)):
        rates = []
        for _ in range(repeats):
            started = time.perf_counter()
            embedder.embed(batch)
            rates.append(len(batch) / (time.perf_counter() - started))
        result[kind] = {
            "texts": len(batch),
            "chars": statistics.fmean(len(t) for t in batch),
            "texts_per_s": statistics.median(rates),
            "low": min(rates),
            "high": max(rates),
        }
    times = []
    for question in questions:
        started = time.perf_counter()
        embedder.embed_query(question)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    result["query_ms"] = {"p50": times[len(times) // 2], "p95": times[int(0.95 * len(times))]}
    return result


def markdown(results: list[dict[str, Any]]) -> str:
    lines = [
        "| embedder | threads | load (s) | facts/s (70 chars) | passages/s (~500 chars) "
        "| query p50 / p95 (ms) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        cells = [
            f"{r[k]['texts_per_s']:.1f} [{r[k]['low']:.1f}, {r[k]['high']:.1f}]"
            for k in ("facts", "passages")
        ]
        lines.append(
            f"| {r['embedder']} | {r['threads']} | {r['load_s']:.1f} | {' | '.join(cells)} "
            f"| {r['query_ms']['p50']:.1f} / {r['query_ms']['p95']:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", action="append", choices=NAMES, help="repeatable")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--one", choices=NAMES, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.threads, args.repeats)))
        return
    results = []
    for name in args.embedder or NAMES:
        threads = str(args.threads)
        env = {**os.environ, "OMP_NUM_THREADS": threads, "MKL_NUM_THREADS": threads}
        command = [sys.executable, __file__, "--one", name, "--threads", threads]
        command += ["--repeats", str(args.repeats)]
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(markdown(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
