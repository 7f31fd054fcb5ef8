"""The memory service's core loop: a query right after a write, and a query alone.

    .venv/bin/python benchmarks/service_core_loop.py                   # 5,000 facts
    .venv/bin/python benchmarks/service_core_loop.py --facts 10000 --rounds 100
    .venv/bin/python benchmarks/service_core_loop.py --corpus path/to/markdown/folder

In the service, writes (``push``) interleave with queries, so what a query costs right
after a write matters as much as what it costs between reads. A ``MemoryService`` over a
new SQLite file is loaded with ``--facts`` real sentences (prose of the markdown files
in ``--corpus``, the cpp-docs tarball of ``../shared/data`` by default, or a folder, read
only; picked by ``realtext_memory.sentences``: 6 to 40 words, no markup, each once)
spread over ``--sessions`` sessions with ``push_many``; then ``--rounds`` rounds of
{push one new fact, query} and as many of {query} alone, each query as one session
(isolated, as a restricted key reads) and once unscoped. Queries are 2-4 words of random
facts. Prints a markdown table next to the target (issue 12: a memory query p50 of 10 ms
at 10k real-sentence facts); raw figures go to stderr as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from realtext_memory import DEFAULT_TAR, make_queries, sentences
from speed import machine, percentiles

TARGET_P50_MS = 10.0


def since(start: float) -> float:
    """Milliseconds since ``start`` (a ``time.perf_counter()``)."""
    return (time.perf_counter() - start) * 1000.0


def run(args: argparse.Namespace) -> dict[str, Any]:
    from groundgraph import DocumentGraph
    from groundgraph.service.memory_service import MemoryService

    texts = sentences(args.corpus, args.facts + args.rounds)
    if len(texts) < args.facts + args.rounds:
        raise SystemExit(f"{args.corpus} holds only {len(texts)} usable sentences")
    loaded, fresh = texts[: args.facts], texts[args.facts :]
    sessions = [f"acme/s{i}" for i in range(args.sessions)]
    rng = random.Random(args.seed)
    asked = make_queries(loaded, 2 * args.rounds + 10, args.seed)["words"]
    with tempfile.TemporaryDirectory() as folder:
        service = MemoryService(DocumentGraph(Path(folder) / "memory.db"))
        start = time.perf_counter()
        for i, session in enumerate(sessions):
            part = loaded[i :: len(sessions)]
            for b in range(0, len(part), 500):
                service.push_many(session, part[b : b + 500])
        load_s = time.perf_counter() - start
        for query in asked[:5]:  # warm: the first reads build the derived state
            service.query(query, session=sessions[0])
        times: dict[str, list[float]] = {
            "push": [],
            "query after a push": [],
            "query after a push, unscoped": [],
            "query": [],
            "query, unscoped": [],
        }

        def timed_query(i: int, name: str, session: str) -> None:
            """Every other query unscoped (``name, unscoped``), the others as ``session``."""
            query = asked[i % len(asked)]
            start = time.perf_counter()
            if i % 2:
                service.query(query)
                name += ", unscoped"
            else:
                service.query(query, session=session)
            times[name].append(since(start))

        for i in range(args.rounds):
            session = rng.choice(sessions)
            start = time.perf_counter()
            service.push(session, fresh[i])
            times["push"].append(since(start))
            timed_query(i, "query after a push", session)
        for i in range(args.rounds, 2 * args.rounds):
            timed_query(i, "query", rng.choice(sessions))
        service.close()
    return {
        "facts": args.facts,
        "rounds": args.rounds,
        "sessions": args.sessions,
        "load_facts_per_s": args.facts / load_s,
        "ms": {name: percentiles(samples) for name, samples in times.items()},
        "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "machine": machine(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--facts", type=int, default=5000, help="facts loaded (default 5000)")
    parser.add_argument("--rounds", type=int, default=60, help="rounds of each loop (60)")
    parser.add_argument("--sessions", type=int, default=4, help="sessions (default 4)")
    parser.add_argument(
        "--corpus", type=Path, default=DEFAULT_TAR, help="a .tar.gz of markdown, or a folder"
    )
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    result = run(args)
    result["load_average_before"] = before
    print(
        f"{args.facts} facts over {args.sessions} sessions, {args.rounds} rounds of each loop; "
        f"load {before} before, {result['load_average']} after\n"
    )
    print(f"push_many while loading: {result['load_facts_per_s']:.0f} facts/s\n")
    print("| measure | p50 | p95 | target p50 |\n|---|---:|---:|---:|")
    for name, figures in result["ms"].items():
        target = f"{TARGET_P50_MS:.0f} ms" if name.startswith("query") else ""
        print(f"| {name} | {figures['p50']:.1f} ms | {figures['p95']:.1f} ms | {target} |")
    print(json.dumps(result), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
