"""The cost of a scoped document search: p50 / p90 of ``graph.search(query, scopes=[t])``
on a store of a few thousand sections spread over tenants, next to the unscoped search.

    PYTHONPATH=src .venv/bin/python benchmarks/scoped_search.py                 # 3,000 sections
    PYTHONPATH=src .venv/bin/python benchmarks/scoped_search.py --sections 6000 --tenants 16

Run it with one tree's ``src`` and then another's to compare two versions (the store is
built the same way from a fixed seed each time). Documents have five sections each, of
sentences drawn from a fixed vocabulary and a few hundred capitalised names (entities
shared across tenants, some of them named often enough to be hubs).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

WORDS = [
    f"{a}{b}"
    for a in ("lan", "orb", "peb", "qui", "led", "rep", "tim", "sha", "mor", "ven")
    for b in ("ter", "it", "ble", "ll", "ger", "lica", "out", "rd", "tal", "ex")
]
NAMES = [
    f"{a}{b}"
    for a in ("Al", "Bo", "Chi", "Da", "Em", "Fa", "Go", "Ha", "Io", "Ju")
    for b in ("ra", "ven", "lin", "mor", "tes", "dan", "wick", "son", "ford", "ley")
]


def sentence(rng: random.Random) -> str:
    words = rng.sample(WORDS, 7)
    name = NAMES[min(int(rng.paretovariate(1.2)) - 1, len(NAMES) - 1)]
    return f"{name} {' '.join(words[:3])} with {rng.choice(NAMES)} {' '.join(words[3:])}."


def build(sections: int, tenants: int, rng: random.Random):  # type: ignore[no-untyped-def]
    from groundgraph.graph import DocumentGraph

    graph = DocumentGraph()
    for d in range(sections // 5):
        body = "\n\n".join(f"## Part {s}\n\n{sentence(rng)} {sentence(rng)}" for s in range(5))
        graph.add_document(f"# Doc {d}\n\n{body}", f"Doc {d}", scopes=[f"t{d % tenants}"])
    return graph


def timed(run, queries: list[str]) -> dict[str, float]:  # type: ignore[no-untyped-def]
    took = []
    for query in queries:
        started = time.perf_counter()
        run(query)
        took.append((time.perf_counter() - started) * 1000)
    took.sort()
    return {
        "p50_ms": round(statistics.median(took), 2),
        "p90_ms": round(took[int(0.9 * len(took))], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sections", type=int, default=3000)
    parser.add_argument("--tenants", type=int, default=8)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(11)
    started = time.perf_counter()
    graph = build(args.sections, args.tenants, rng)
    built = time.perf_counter() - started
    queries = [" ".join([*rng.sample(WORDS, 2), rng.choice(NAMES)]) for _ in range(args.queries)]
    for query in queries[:5]:  # warm the indexes and caches
        graph.search(query)
        graph.search(query, scopes=["t0"])
    tenants = [f"t{i}" for i in range(args.tenants)]
    tenant_of = {q: tenants[i % len(tenants)] for i, q in enumerate(queries)}
    scoped = timed(lambda q: graph.search(q, max_hops=2, scopes=[tenant_of[q]]), queries)
    whole = timed(lambda q: graph.search(q, max_hops=2), queries)
    print(
        json.dumps(
            {
                "sections": args.sections,
                "tenants": args.tenants,
                "queries": args.queries,
                "build_s": round(built, 1),
                "scoped": scoped,
                "unscoped": whole,
                "load": [round(x, 2) for x in os.getloadavg()],
            },
            indent=2,
        )
    )
    graph.close()


if __name__ == "__main__":
    main()
