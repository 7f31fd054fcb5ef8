"""Seed stages beyond BM25: the nearest nodes by cosine, and their fusion with BM25.

Each is a :class:`~groundgraph.search.pipeline.LexicalStage` (scores normalised by the
best seedable match, so a seed scores at most 1) that also says, per node, how it was
seeded (:class:`~groundgraph.model.Seeding`):

- :class:`DenseMatches` (``search_mode="embedding"``): cosine of the query's vector with
  every node's, nodes at or above ``min_cosine``, scored by cosine divided by the best;
- :class:`FusedMatches` (``search_mode="hybrid"``): reciprocal-rank fusion of the BM25 and
  cosine rankings (Cormack et al. 2009): ``Σ 1/(rrf_k + rank)`` over the lists a node is
  in, each list cut at ``RRF_DEPTH``, divided by the best fused score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from groundgraph.errors import InputError
from groundgraph.index.vectors import VectorIndex
from groundgraph.model import Seeding, TermScore
from groundgraph.search.pipeline import LexicalStage

__all__ = [
    "MIN_COSINE",
    "RRF_DEPTH",
    "SEARCH_MODES",
    "DenseMatches",
    "FusedMatches",
    "SeedStage",
    "VectorSource",
    "check_mode",
]

SEARCH_MODES = ("keyword", "embedding", "hybrid")
#: The least cosine a node needs to be a dense seed (the Grounded Graph of Thought seed's).
MIN_COSINE = 0.3
#: How deep each ranking goes into reciprocal-rank fusion.
RRF_DEPTH = 1000


def check_mode(search_mode: object, rrf_k: object) -> None:
    """Refuse a search mode or RRF constant that is not one, saying what is."""
    if search_mode not in SEARCH_MODES:
        modes = ", ".join(SEARCH_MODES)
        raise InputError(f"search_mode must be one of {modes}, not {search_mode!r}")
    if isinstance(rrf_k, bool) or not isinstance(rrf_k, int) or rrf_k < 1:
        raise InputError(f"rrf_k must be a whole number >= 1, not {rrf_k!r}")


class SeedStage(LexicalStage, Protocol):
    """A seed stage that explains its seeds."""

    def seeding(self, node_id: str) -> Seeding:
        """How ``node_id`` ranks in this stage's lists."""
        ...


class VectorSource(Protocol):
    """Where dense seeds come from: the node vectors' index and the query's vector."""

    def index(self) -> VectorIndex:
        """The vector index at the store's generation."""
        ...

    def query_vector(self, query: str) -> npt.NDArray[np.float32]:
        """The query's unit vector."""
        ...


class DenseMatches:
    """The nodes nearest a query by cosine (at least ``min_cosine``) that ``keep`` allows:
    the nearest ``depth`` ranked, any other such node scored when asked for."""

    def __init__(
        self,
        vectors: VectorIndex,
        query: npt.NDArray[np.float32],
        min_cosine: float,
        keep: Callable[[str], bool],
        depth: int = RRF_DEPTH,
    ) -> None:
        self.vectors = vectors
        self.min_cosine = min_cosine
        self.keep = keep
        self.cosines = vectors.cosines(query) if len(vectors) else np.zeros(0, np.float32)
        top = vectors.top_of(self.cosines, depth, min_cosine, keep)
        self.ranked = [node_id for node_id, _ in top]
        self.cosine = dict(top)
        self.rank = {node_id: i + 1 for i, node_id in enumerate(self.ranked)}
        self.best = top[0][1] if top else 0.0

    def cosine_of(self, node_id: str) -> float | None:
        """The node's cosine if it is a match (ranked or not), else None."""
        found = self.cosine.get(node_id)
        if found is not None:
            return found
        row = self.vectors.position.get(node_id)
        if row is None or self.cosines[row] < self.min_cosine or not self.keep(node_id):
            return None
        return float(self.cosines[row])

    def top(self, k: int) -> list[tuple[str, float]]:
        return [(n, self.cosine[n] / self.best) for n in self.ranked[:k]]

    def scores_of(self, node_ids: Sequence[str]) -> dict[str, float]:
        found = {n: self.cosine_of(n) for n in node_ids}
        return {n: min(1.0, c / self.best) for n, c in found.items() if c is not None}

    def terms(self, node_id: str) -> tuple[TermScore, ...]:
        return ()

    def seeding(self, node_id: str) -> Seeding:
        cosine, rank = self.cosine_of(node_id), self.rank.get(node_id)
        return Seeding(node_id, "embedding", cosine=cosine, cosine_rank=rank)


class FusedMatches:
    """Reciprocal-rank fusion of a lexical stage and :class:`DenseMatches`."""

    def __init__(
        self, lexical: LexicalStage | None, dense: DenseMatches, rrf_k: int, depth: int = RRF_DEPTH
    ) -> None:
        self.lexical = lexical
        self.dense = dense
        self.rrf_k = rrf_k
        fused: dict[str, float] = {}
        self.lexical_rank: dict[str, int] = {}
        if lexical is not None:
            for rank, (node_id, _) in enumerate(lexical.top(depth), start=1):
                self.lexical_rank[node_id] = rank
                fused[node_id] = 1.0 / (rrf_k + rank)
        for node_id in dense.ranked:
            fused[node_id] = fused.get(node_id, 0.0) + 1.0 / (rrf_k + dense.rank[node_id])
        self.fused = fused
        self.ranked = sorted(fused, key=lambda n: (-fused[n], n))
        self.best = fused[self.ranked[0]] if self.ranked else 0.0

    def top(self, k: int) -> list[tuple[str, float]]:
        return [(n, self.fused[n] / self.best) for n in self.ranked[:k]]

    def scores_of(self, node_ids: Sequence[str]) -> dict[str, float]:
        return {n: min(1.0, self.fused[n] / self.best) for n in node_ids if n in self.fused}

    def terms(self, node_id: str) -> tuple[TermScore, ...]:
        if self.lexical is None or node_id not in self.lexical_rank:
            return ()
        return self.lexical.terms(node_id)

    def seeding(self, node_id: str) -> Seeding:
        return Seeding(
            node_id,
            "hybrid",
            lexical_rank=self.lexical_rank.get(node_id),
            cosine=self.dense.cosine_of(node_id),
            cosine_rank=self.dense.rank.get(node_id),
            fused=self.fused.get(node_id),
        )
