"""BM25 over a subset of the nodes, with that subset's own statistics.

The lexical index scores against every node it holds. A memory read needs the score a
graph holding only the facts that read may see would give, so that a read in one scope is
not ranked by other tenants' words and ``as_of`` ranks as the memory did then. The
postings come from the one lexical index; N, the document frequencies and the mean length
are counted over the visible set only. Nodes the index does not hold (a retired fact,
read only when a read asks for history) join the set by their term counts. Same formula
as ``index.bm25`` (Lucene's BM25).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from groundgraph.index.bm25 import LexicalIndex
from groundgraph.index.ranking import top_positions
from groundgraph.model import TermScore


@dataclass(frozen=True)
class _TermPart:
    """One query term's postings in the subset and its part in each node's score."""

    term: str
    idf: float
    positions: npt.NDArray[np.int64]
    tf: npt.NDArray[np.float64]
    parts: npt.NDArray[np.float64]
    outside: dict[str, tuple[float, float]]  # node -> (tf, part)


class SubsetScores:
    """Raw BM25 scores of the matching nodes of a subset; each term's part on request."""

    def __init__(
        self,
        index: LexicalIndex,
        positions: npt.NDArray[np.int64],
        sums: npt.NDArray[np.float64],
        outside: dict[str, float],
        terms: list[_TermPart],
    ) -> None:
        self._index = index
        self._positions = positions
        self._sums = sums
        self._outside = outside
        self._terms = terms
        self._scores: dict[str, float] | None = None

    @property
    def scores(self) -> dict[str, float]:
        """Every matching node's raw score."""
        if self._scores is None:
            ids = self._index.node_ids
            found = zip(self._positions.tolist(), self._sums.tolist(), strict=True)
            self._scores = {ids[p]: s for p, s in found}
            self._scores.update(self._outside)
        return self._scores

    def top(self, k: int) -> list[str]:
        """The ``k`` best matching nodes, ties broken by id."""
        ids = self._index.node_ids
        rows = top_positions(self._positions, self._sums, k, ids.__getitem__)
        best = [(-float(self._sums[i]), ids[int(self._positions[i])]) for i in rows]
        best += [(-s, n) for n, s in self._outside.items()]
        return [n for _, n in sorted(best)[:k]]

    def parts(self, node_id: str) -> tuple[TermScore, ...]:
        """The per-term parts of a matching node's score, in query-term order."""
        position = self._index.position.get(node_id)
        found = []
        for term in self._terms:
            if position is not None:
                i = int(np.searchsorted(term.positions, position))
                if i < len(term.positions) and term.positions[i] == position:
                    found.append(
                        TermScore(term.term, float(term.tf[i]), term.idf, float(term.parts[i]))
                    )
            elif node_id in term.outside:
                tf, part = term.outside[node_id]
                found.append(TermScore(term.term, tf, term.idf, part))
        return tuple(found)


def subset_bm25(
    index: LexicalIndex,
    query: str,
    visible: npt.NDArray[np.bool_],
    outside: Mapping[str, Counter[str]] | None = None,
) -> SubsetScores:
    """BM25 of ``query`` against the nodes at the ``visible`` positions of ``index`` and the
    ``outside`` nodes (id → term counts), with the statistics of that set alone."""
    outside = outside or {}
    empty = np.zeros(0, dtype=np.int64)
    count = int(visible.sum()) + len(outside)
    if not count:
        return SubsetScores(index, empty, np.zeros(0), {}, [])
    k1, b = index.params.k1, index.params.b
    inside = np.flatnonzero(visible).astype(np.int64)
    # Lengths are whole numbers, so their sum is the same in any order; only the outside
    # nodes holding a query term are read term by term.
    total = float(index.lengths(inside).sum()) + float(sum(map(_length, outside.values())))
    avgdl = total / count or 1.0
    query_terms = index.query_terms(query)
    wanted = set(query_terms)
    holding = {n: c for n, c in outside.items() if not wanted.isdisjoint(c)}
    outside_lengths = {n: float(_length(c)) for n, c in holding.items()}
    terms: list[_TermPart] = []
    outside_sums: dict[str, float] = {}
    for term in query_terms:
        tid = index.term_id(term)
        pos64, tf64 = empty, np.zeros(0)
        if tid is not None:
            pos, tf = index.postings(tid)
            keep = _mask(visible, pos)
            pos64 = pos[keep].astype(np.int64)
            tf64 = tf[keep].astype(np.float64)
        others = [(n, float(c[term])) for n, c in holding.items() if c.get(term)]
        df = len(pos64) + len(others)
        if not df:
            continue
        idf = math.log(1.0 + (count - df + 0.5) / (df + 0.5))
        part = idf * tf64 / (tf64 + k1 * (1.0 - b + b * index.lengths(pos64) / avgdl))
        beyond = {}
        for node, f in others:
            share = idf * f / (f + k1 * (1.0 - b + b * outside_lengths[node] / avgdl))
            beyond[node] = (f, share)
            outside_sums[node] = outside_sums.get(node, 0.0) + share
        terms.append(_TermPart(term, idf, pos64, tf64, part, beyond))
    matched = [t for t in terms if len(t.positions)]
    if not matched:
        return SubsetScores(index, empty, np.zeros(0), outside_sums, terms)
    positions, inverse = np.unique(
        np.concatenate([t.positions for t in matched]), return_inverse=True
    )
    weights = np.concatenate([t.parts for t in matched])
    sums = np.bincount(inverse, weights=weights, minlength=len(positions)).astype(np.float64)
    return SubsetScores(index, positions, sums, outside_sums, terms)


def _length(counts: Counter[str]) -> int:
    return sum(counts.values())


def _mask(
    visible: npt.NDArray[np.bool_], positions: npt.NDArray[np.int32]
) -> npt.NDArray[np.bool_]:
    """``visible[positions]``, a position past the end of the mask counting as not visible."""
    if len(visible) and len(positions) and int(positions[-1]) < len(visible):
        return visible[positions]
    inside = positions < len(visible)
    keep = np.zeros(len(positions), dtype=bool)
    keep[inside] = visible[positions[inside]]
    return keep
