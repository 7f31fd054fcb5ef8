"""The reranker slot: any ``(query, texts) -> scores`` callable (a sentence-transformers
``CrossEncoder.predict`` fits it) rescores the best candidates after the walk.

The candidates are put in the order of their rerank score (ties kept in the pipeline's
order); each hit records the score it got (``Hit.rerank_score``), beside its pipeline
score, which is left as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from groundgraph.errors import InputError
from groundgraph.model import Node
from groundgraph.search.pipeline import Candidate

__all__ = ["Reranker", "rerank_candidates"]

#: A reranker: one score per text, higher is better.
Reranker = Callable[[str, list[str]], Any]


def rerank_candidates(
    query: str, candidates: Sequence[Candidate], nodes: Mapping[str, Node], rerank: Reranker
) -> tuple[list[Candidate], dict[str, float]]:
    """The candidates in the reranker's order, and the score it gave each."""
    if not candidates:
        return [], {}
    texts = [f"{nodes[c.node_id].title}\n{nodes[c.node_id].content}" for c in candidates]
    raw = rerank(query, texts)
    if hasattr(raw, "detach"):
        raw = raw.detach().cpu().numpy()
    scores = np.asarray(raw, dtype=np.float64).reshape(-1)
    if len(scores) != len(candidates) or not np.isfinite(scores).all():
        raise InputError(
            f"the reranker returned {len(scores)} scores for {len(candidates)} texts: it must "
            "return one finite score per text"
        )
    given = {c.node_id: float(s) for c, s in zip(candidates, scores.tolist(), strict=True)}
    order = sorted(range(len(candidates)), key=lambda i: (-scores[i], i))
    return [candidates[i] for i in order], given
