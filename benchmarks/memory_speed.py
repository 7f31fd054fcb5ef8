"""Agent-memory speed: facts added per second and read latency (p50 / p95) by verb.

A seeded synthetic memory: ``--facts`` short facts about 100 things in 48 places, half of
them causal ("In Norton, grain prices caused fuel delays in week 12."), spread over four
scopes of two tenants. Reads: ``query`` (plain, scoped and isolated, with ``as_of``),
``discover``, ``trace_effects`` and ``what_if``; then a cold open of the file and its
first query. Dense on purpose: about 40 facts share each place name, so entity hubs and
span links are exercised. Prints a markdown table.

    .venv/bin/python benchmarks/memory_speed.py --facts 2000
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from groundgraph import DocumentGraph

_GOODS = ["grain", "steel", "power", "water", "credit", "labour", "freight", "chip", "fuel", "rent"]
_CHANGES = ["prices", "shortages", "costs", "supply", "demand", "outages", "delays", "rates"]
THINGS = [f"{a} {b}" for a in _GOODS for b in [*_CHANGES, "exports", "imports"]]
PLACES = [
    f"{a}{b}"
    for a in ["Nor", "Vel", "Kar", "Tam", "Lis", "Oro", "Zen", "Bal"]
    for b in ["dia", "ton", "mark", "vale", "stad", "holm"]
]
SCOPES = ["acme/red", "acme/blue", "globex/ops", "acme"]


def facts(count: int, rng: random.Random) -> list[str]:
    out = []
    for i in range(count):
        kind = rng.random()
        a, b = rng.sample(THINGS, 2)
        place = rng.choice(PLACES)
        if kind < 0.5:
            out.append(f"In {place}, {a} caused {b} in week {i}.")
        elif kind < 0.8:
            out.append(f"{place} reported {a} and {b} during quarter {i}.")
        else:
            out.append(f"{b.capitalize()} rose in {place} because of {a} (note {i}).")
    return out


def latency(queries: list[str], run: Callable[[str], object]) -> tuple[float, float]:
    times = []
    for query in queries:
        start = time.perf_counter()
        run(query)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[max(0, int(0.95 * len(times)) - 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--facts", type=int, default=2000, help="facts to add (default 2000)")
    parser.add_argument("--queries", type=int, default=50, help="reads per verb (default 50)")
    args = parser.parse_args(argv)
    rng = random.Random(7)
    texts = facts(args.facts, rng)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.db"
        graph = DocumentGraph(path)
        start = time.perf_counter()
        for text in texts:
            graph.add_text(text, scopes=[rng.choice(SCOPES)])
        added = time.perf_counter() - start
        queries = [
            f"what did {rng.choice(THINGS)} cause in {rng.choice(PLACES)}"
            for _ in range(args.queries)
        ]
        origins: Iterator[str] = iter([t for t in texts if " caused " in t][: args.queries] * 3)
        verbs: list[tuple[str, Callable[[str], object]]] = [
            ("query", lambda q: graph.query(q)),
            (
                "query, scoped and isolated",
                lambda q: graph.query(q, scopes=["acme/red"], isolate=True),
            ),
            ("query with as_of", lambda q: graph.query(q, as_of="2100-01-01")),
            ("discover", lambda q: graph.discover(q)),
            ("trace_effects", lambda q: graph.trace_effects(next(origins))),
            ("what_if", lambda q: graph.what_if(next(origins))),
        ]
        print(f"{args.facts} facts, {args.queries} reads per verb\n")
        print("| measure | p50 | p95 |\n|---|---:|---:|")
        print(f"| add_text | {args.facts / added:.0f} facts/s | |")
        for name, run in verbs:
            p50, p95 = latency(queries, run)
            print(f"| {name} | {p50:.1f} ms | {p95:.1f} ms |")
        graph.close()
        start = time.perf_counter()
        reopened = DocumentGraph(path)
        reopened.query("grain prices")
        print(f"| open the file + first query | {time.perf_counter() - start:.2f} s | |")
        reopened.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
