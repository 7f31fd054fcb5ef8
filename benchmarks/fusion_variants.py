"""Hybrid search's fusion settings, tried on development sets only (issue 13).

    .venv/bin/python benchmarks/fusion_variants.py                       # both sets
    .venv/bin/python benchmarks/fusion_variants.py --sets musique-100

For MuSiQue-100 and SciFact's BEIR *train* split (the judged sets, MuSiQue-train,
HotpotQA and SciFact's test split, are left alone), every variant runs with
``search_mode="hybrid"`` and MiniLM (vectors through ``quality.py``'s on-disk cache):

- the lexical share of a node's hybrid score (``seeds.FusedMatches`` gives it 0.5: the
  mean of the normalised BM25 and dense scores), patched here to 0.3-0.7;
- seeds in the order of that score instead of their reciprocal ranks;
- search settings as they are: ``max_seeds``, linear fusion, ``rrf_k``, ``max_hops``,
  ``damping``, ``max_activated``, ``walker="ppr"``;
- the top 30 reordered by how much of the query's idf the hit's whole path holds,
  ``score · (1 − β + β · coverage)``.

Prints recall@5 and nDCG@10 per set and variant (the patches are undone after each).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

import quality
from groundgraph import DocumentGraph
from groundgraph.eval.beir import load_beir
from groundgraph.eval.datasets import Dataset, add_passages
from groundgraph.eval.metrics import ndcg_at_k, recall_at_k
from groundgraph.search import seeds

SETTINGS: dict[str, dict[str, Any]] = {
    "max_seeds 3": {"max_seeds": 3},
    "max_seeds 8": {"max_seeds": 8},
    "max_seeds 12": {"max_seeds": 12},
    "linear, graph_weight 0.3": {"fusion": "linear", "graph_weight": 0.3},
    "linear, graph_weight 0.5": {"fusion": "linear", "graph_weight": 0.5},
    "rrf_k 10": {"rrf_k": 10},
    "max_hops 1": {"max_hops": 1},
    "damping 0.95": {"damping": 0.95},
    "max_activated 400": {"max_activated": 400},
    "walker ppr": {"walker": "ppr"},
}
SHARES = (0.3, 0.4, 0.5, 0.6, 0.7)
BETAS = (0.25, 0.5)


@contextmanager
def fused(share: float, by_score: bool = False) -> Iterator[None]:
    """``FusedMatches`` with ``share`` of a node's score lexical (and seeds in the order of
    that score when ``by_score``), as the class does it with 0.5, until the block ends."""
    original = seeds.FusedMatches.__init__

    def init(self: Any, lexical: Any, dense: Any, rrf_k: int, depth: int = seeds.RRF_DEPTH) -> None:
        original(self, lexical, dense, rrf_k, depth)
        mixed: dict[str, float] = {}
        if lexical is not None:
            for node_id, score in lexical.top(depth):
                mixed[node_id] = score * share
        for node_id, score in dense.top(len(dense.ranked)):
            mixed[node_id] = mixed.get(node_id, 0.0) + score * (1 - share)
        top = max(mixed.values(), default=0.0)
        self.score = {n: m / top if top > 0 else 1.0 for n, m in mixed.items()}
        if by_score:
            self.ranked = sorted(mixed, key=lambda n: (-mixed[n], n))

    seeds.FusedMatches.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        seeds.FusedMatches.__init__ = original  # type: ignore[method-assign]


def scores(
    graph: DocumentGraph,
    dataset: Dataset,
    options: dict[str, Any],
    rerank: Callable[[str, list[Any]], list[Any]] | None = None,
) -> tuple[float, float]:
    """Mean recall@5 and nDCG@10 over the set's questions, documents ranked once each."""
    recall, ndcg = [], []
    for q in dataset.questions:
        hits = graph.search(q.question, search_mode="hybrid", max_results=30, **options)
        if rerank is not None:
            hits = rerank(q.question, hits)
        ranking = list(dict.fromkeys(h.doc_id for h in hits))
        recall.append(recall_at_k(ranking, q.relevant, 5))
        ndcg.append(ndcg_at_k(ranking, q.relevant, 10))
    return float(np.mean(recall)), float(np.mean(ndcg))


def coverage_rerank(graph: DocumentGraph, beta: float) -> Callable[[str, list[Any]], list[Any]]:
    """Hits reordered by ``score · (1 − β + β · c)``, ``c`` the share of the query's idf
    that the nodes of the hit's path hold between them."""
    index = graph.reader.indexes.index

    def rerank(query: str, hits: list[Any]) -> list[Any]:
        postings = []
        for term in index.query_terms(query):
            tid = index.term_id(term)
            if tid is not None and index._df[tid] > 0:
                positions, _ = index.postings(tid)
                postings.append((positions, index._idf(int(index._df[tid]))))
        total = sum(w for _, w in postings) or 1.0

        def covered(path: tuple[str, ...]) -> float:
            at = np.array([p for n in path if (p := index.find(n)) is not None], dtype=np.int64)
            if not len(at):
                return 0.0
            held = 0.0
            for positions, weight in postings:
                rows = np.minimum(np.searchsorted(positions, at), len(positions) - 1)
                held += weight if (positions[rows] == at).any() else 0.0
            return held / total

        keyed = [(h.score * (1 - beta + beta * covered(h.path)), h) for h in hits]
        return [h for _, h in sorted(keyed, key=lambda x: (-x[0], x[1].node_id))]

    return rerank


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default="musique-100,scifact-train")
    parser.add_argument("--data", type=Path, default=quality.DEFAULT_DATA)
    parser.add_argument(
        "--vector-cache", type=Path, default=quality.ROOT / "benchmarks" / "out" / "vectors.sqlite"
    )
    args = parser.parse_args()
    loaders = quality.loaders(args.data)
    loaders["scifact-train"] = lambda: load_beir(
        args.data / "scifact-beir", "train", name="scifact-train"
    )
    embedding = argparse.Namespace(
        embedder="minilm", torch_threads=1, vector_cache=args.vector_cache
    )
    print("| set | variant | recall@5 | nDCG@10 |\n|---|---|---:|---:|")
    for name in args.sets.split(","):
        dataset = loaders[name]()
        graph = DocumentGraph(":memory:", embed=quality.embedder(embedding))
        add_passages(graph, dataset.passages)
        rows: list[tuple[str, tuple[float, float]]] = [("default", scores(graph, dataset, {}))]
        for share in SHARES:
            with fused(share):
                rows.append((f"lexical share {share}", scores(graph, dataset, {})))
        with fused(0.5, by_score=True):
            rows.append(("seeds by score, not RRF", scores(graph, dataset, {})))
        for label, options in SETTINGS.items():
            rows.append((label, scores(graph, dataset, options)))
        for beta in BETAS:
            rerank = coverage_rerank(graph, beta)
            rows.append((f"path coverage, β {beta}", scores(graph, dataset, {}, rerank)))
        for label, (recall, ndcg) in rows:
            print(f"| {name} | {label} | {recall:.3f} | {ndcg:.3f} |", flush=True)
        graph.close()
    print(f"\n{' '.join(sys.argv)}")


if __name__ == "__main__":
    main()
