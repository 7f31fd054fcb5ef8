"""Which semantic links help the walk with an embedder: recall@5 per kind of link.

    .venv/bin/python benchmarks/semantic_links.py                     # MuSiQue-100, ~3 min cached
    .venv/bin/python benchmarks/semantic_links.py --sets musique-100,hotpotqa

Each variant indexes the set into a fresh in-memory graph with MiniLM (vectors from
``quality.py``'s on-disk cache, so only the first run embeds), its semantic edges made by
one similarity (``DerivedIndexes.similarity``): shared terms only (a graph without an
embedder), cosine ≥ 0.3 only (the links before), shared terms + cosine ≥ 0.5 (the
default), shared terms + cosine ≥ 0.3 (``min_similarity=0.3``, the seed's floor). Then the
keyword walk, MiniLM + walk and hybrid + walk answer every question, as in ``quality.py``.
Tune on MuSiQue-100 (the development set) only.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from groundgraph import DocumentGraph
from groundgraph.eval.datasets import add_passages
from groundgraph.eval.runner import evaluate
from groundgraph.graph.indexes import DerivedIndexes
from groundgraph.index.semantic import Similarity, term_similarity
from groundgraph.index.vector_links import SEED_MIN_COSINE, CosineLinks, TermAndCosineLinks
from quality import DEFAULT_DATA, DENSE_CONFIGS, ROOT, loaders
from vector_cache import cached_embedder

CONFIGS = {"walk": {}, "minilm+walk": DENSE_CONFIGS["minilm+walk"]}
CONFIGS["hybrid+walk"] = DENSE_CONFIGS["hybrid+walk"]

#: A variant: how to make the similarity of a graph's semantic edges from its indexes.
Variant = Callable[[DerivedIndexes], Similarity]


def _cosine(floor: float) -> Variant:
    return lambda ix: CosineLinks(ix.embeddings.index, floor)


def _both(floor: float) -> Variant:
    return lambda ix: TermAndCosineLinks(CosineLinks(ix.embeddings.index, floor))


VARIANTS: dict[str, Variant | None] = {
    "shared terms only": lambda ix: term_similarity,
    f"cosine >= {SEED_MIN_COSINE} only (before)": _cosine(SEED_MIN_COSINE),
    "shared terms + cosine >= 0.5 (default)": None,
    f"shared terms + cosine >= {SEED_MIN_COSINE} (min_similarity=0.3)": _both(SEED_MIN_COSINE),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sets", default="musique-100")
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument(
        "--vector-cache", type=Path, default=ROOT / "benchmarks" / "out" / "vectors.sqlite"
    )
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    from groundgraph.index.embedders import embedder_named

    minilm = embedder_named("minilm")
    assert minilm is not None
    embedder, _ = cached_embedder(minilm, args.vector_cache)
    print("| set | semantic links | edges | " + " | ".join(CONFIGS) + " |")
    print("|---|---|---:|" + "---:|" * len(CONFIGS))
    for name in [s for s in args.sets.split(",") if s]:
        dataset = loaders(args.data)[name]()
        for label, variant in VARIANTS.items():
            started = time.perf_counter()
            graph = DocumentGraph(embed=embedder)
            if variant is not None:
                graph.indexes.similarity = variant(graph.indexes)
            add_passages(graph, dataset.passages)
            report = evaluate(
                graph, dataset.questions, CONFIGS, (5,), dataset=name, resamples=args.resamples
            )
            edges = sum(1 for _ in graph.store.reads.iter_edges(["semantic"]))
            cells = []
            for config in CONFIGS:
                i = report.results[config].scores["recall@5"]
                cells.append(f"{i.mean:.3f} ({i.low:.3f}–{i.high:.3f})")
            print(f"| {name} | {label} | {edges:,} | " + " | ".join(cells) + " |", flush=True)
            print(f"  {label}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
            graph.close()


if __name__ == "__main__":
    main()
