"""The exact vector index against HNSW (usearch, if installed): build time, memory, query
p50/p95 and recall@10 of the approximate index, at a few sizes.

    .venv/bin/python benchmarks/vectors.py                 # 10k and 100k, 384 dimensions
    .venv/bin/python benchmarks/vectors.py --sizes 10000 --queries 100

Vectors are random unit rows with some structure (a few hundred cluster centres plus
noise), as sentence embeddings are, so that top-10 is not trivially easy for HNSW. The
exact index is what ``search_mode="embedding"`` uses (``index.vectors.VectorIndex``); the
``dense`` column times the whole dense stage of a search (``search.seeds.DenseMatches``:
cosines, the 0.3 floor, the keep rule and the sort of the candidates).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from groundgraph.index.embedder import unit_rows
from groundgraph.index.vectors import VectorIndex
from groundgraph.search.seeds import DenseMatches


def corpus(n: int, dim: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(max(8, n // 200), dim))
    rows = centres[rng.integers(0, len(centres), n)] + 0.6 * rng.normal(size=(n, dim))
    return unit_rows(rows)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(n: int, dim: int, queries: int, k: int) -> dict[str, float]:
    rows = corpus(n, dim, 1)
    ids = [f"doc{i // 10}#{i % 10}" for i in range(n)]
    asks = corpus(queries, dim, 2)
    started = time.perf_counter()
    index = VectorIndex(dim)
    index.put(ids, rows)
    out: dict[str, float] = {"n": n, "exact_build_s": time.perf_counter() - started}
    out["exact_mb"] = index.matrix.nbytes / 1e6
    exact_ms, dense_ms, truth = [], [], []
    for q in asks:
        t = time.perf_counter()
        top = index.top(q, k)
        exact_ms.append((time.perf_counter() - t) * 1000)
        truth.append({i for i, _ in top})
        t = time.perf_counter()
        DenseMatches(index, q, 0.3, lambda node: True).top(5)
        dense_ms.append((time.perf_counter() - t) * 1000)
    out["exact_p50_ms"] = statistics.median(exact_ms)
    out["exact_p95_ms"] = percentile(exact_ms, 0.95)
    out["dense_p50_ms"] = statistics.median(dense_ms)
    try:
        from usearch.index import Index
    except ImportError:
        return out
    started = time.perf_counter()
    hnsw = Index(
        ndim=dim,
        metric="cos",
        dtype="f32",
        connectivity=16,
        expansion_add=128,
        expansion_search=128,
    )
    hnsw.add(np.arange(n), rows, threads=1)
    out["hnsw_build_s"] = time.perf_counter() - started
    out["hnsw_mb"] = hnsw.memory_usage / 1e6
    hnsw_ms, found = [], 0
    for q, want in zip(asks, truth, strict=True):
        t = time.perf_counter()
        got = hnsw.search(q, k, threads=1)
        hnsw_ms.append((time.perf_counter() - t) * 1000)
        found += len({ids[int(key)] for key in got.keys} & want)
    out["hnsw_p50_ms"] = statistics.median(hnsw_ms)
    out["hnsw_recall@10"] = found / (k * len(asks))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    rows = [run(int(n), args.dim, args.queries, args.k) for n in args.sizes.split(",")]
    keys = list(rows[0])
    for row in rows[1:]:
        keys += [k for k in row if k not in keys]
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for row in rows:
        cells = [f"{row[k]:,.0f}" if k == "n" else f"{row.get(k, float('nan')):.3g}" for k in keys]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
