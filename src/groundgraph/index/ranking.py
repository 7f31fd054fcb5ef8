"""What a lexical match returns, and the top-k cut with ties broken by node id."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from groundgraph.model import TermScore

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class LexicalMatches:
    """Every node that matches a query, with its BM25 score and each term's part in it."""

    terms: tuple[str, ...]
    idf: tuple[float, ...]
    positions: IntArray  # index positions of the matching nodes
    scores: FloatArray  # their raw BM25 scores, same order
    term_tf: tuple[tuple[IntArray, FloatArray], ...]  # per term: (positions, tf)
    term_scores: tuple[FloatArray, ...]  # per term: contribution, aligned with term_tf

    def contributions(self, position: int) -> tuple[TermScore, ...]:
        """The per-term parts of one node's score, recorded while scoring."""
        parts = []
        for term, idf, (pos, tf), part in zip(
            self.terms, self.idf, self.term_tf, self.term_scores, strict=True
        ):
            i = int(np.searchsorted(pos, position))
            if i < len(pos) and pos[i] == position:
                parts.append(TermScore(term, float(tf[i]), idf, float(part[i])))
        return tuple(parts)


def top_positions(
    positions: IntArray,
    scores: FloatArray,
    k: int,
    name_of: Callable[[int], str],
    names_of: Callable[[list[int]], list[str]] | None = None,
) -> list[int]:
    """Indices into ``positions`` of the k best scores, ties broken by ``name_of(position)``
    (``names_of``, when given, names many positions at once)."""
    if k <= 0 or not len(scores):
        return []
    if len(scores) > k:
        # Only candidates at or above the k-th score can make the list; ties at the edge stay.
        kth = np.partition(-scores, k - 1)[k - 1]
        candidates = np.flatnonzero(-scores <= kth)
    else:
        candidates = np.arange(len(scores))
    # Best score first (a stable sort keeps equal scores in index order), then each run
    # of equal scores that starts within the first k sorted by name: names are read for
    # tied candidates only, the order is that of sorting by (-score, name).
    at = scores[candidates]
    order = np.argsort(-at, kind="stable")
    ranked: list[int] = candidates[order].tolist()
    at = at[order]
    starts = np.flatnonzero(np.concatenate(([True], at[1:] != at[:-1]))).tolist()
    ends = [*starts[1:], len(ranked)]
    for start, end in zip(starts, ends, strict=True):
        if start >= k:
            break
        if end - start > 1:
            tied = ranked[start:end]
            at = positions[tied].tolist()
            names = names_of(at) if names_of is not None else [name_of(int(p)) for p in at]
            ranked[start:end] = [i for _, i in sorted(zip(names, tied, strict=True))]
    return ranked[:k]
