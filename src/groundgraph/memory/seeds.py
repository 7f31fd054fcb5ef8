"""BM25 over the facts one read may see, with that set's own statistics.

The graph's index scores against every node it holds; memory needs the score a graph
holding only the visible facts would give, so that a read in one scope is not ranked by
other tenants' words and ``as_of`` ranks as the memory did then. The postings come from
the facts' ``LexicalIndex``; N, the document frequencies and the mean length are counted
over the visible set only. Same formula as ``index.bm25`` (Lucene's BM25).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from groundgraph.index.bm25 import LexicalIndex
from groundgraph.model import TermScore


@dataclass(frozen=True)
class LexicalScores:
    """Raw BM25 scores of the matching visible facts, and each term's part in them."""

    scores: dict[str, float]
    parts: dict[str, tuple[TermScore, ...]]


def visible_bm25(
    index: LexicalIndex,
    lengths: npt.NDArray[np.float64],
    query: str,
    visible: npt.NDArray[np.bool_],
) -> LexicalScores:
    """BM25 of ``query`` against the facts at the ``visible`` positions of ``index``."""
    count = int(visible.sum())
    if not count:
        return LexicalScores({}, {})
    k1, b = index.params.k1, index.params.b
    avgdl = float(lengths[: len(visible)][visible].sum()) / count or 1.0
    all_pos: list[npt.NDArray[np.int64]] = []
    all_parts: list[npt.NDArray[np.float64]] = []
    terms: dict[int, list[TermScore]] = {}
    for term in index.query_terms(query):
        tid = index.vocab.get(term)
        if tid is None:
            continue
        pos, tf = index.postings(tid)
        keep = visible[pos]
        if not keep.any():
            continue
        pos64 = pos[keep].astype(np.int64)
        tf64 = tf[keep].astype(np.float64)
        df = len(pos64)
        idf = math.log(1.0 + (count - df + 0.5) / (df + 0.5))
        part = idf * tf64 / (tf64 + k1 * (1.0 - b + b * lengths[pos64] / avgdl))
        all_pos.append(pos64)
        all_parts.append(part)
        for p, f, s in zip(pos64.tolist(), tf64.tolist(), part.tolist(), strict=True):
            terms.setdefault(p, []).append(TermScore(term, f, idf, s))
    if not all_pos:
        return LexicalScores({}, {})
    positions, inverse = np.unique(np.concatenate(all_pos), return_inverse=True)
    sums = np.bincount(inverse, weights=np.concatenate(all_parts), minlength=len(positions))
    ids = index.node_ids
    scores = {ids[p]: float(s) for p, s in zip(positions.tolist(), sums.tolist(), strict=True)}
    parts = {ids[p]: tuple(found) for p, found in terms.items()}
    return LexicalScores(scores, parts)
