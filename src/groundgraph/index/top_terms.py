"""A node's distinctive terms: its top terms by (1 + ln tf) · idf, weighted by idf.

Ties in score go to the smaller term (string order), so the choice is the same on every
run. Three ways to compute the same thing: one node (``top_terms``), the nodes of one
batch against the index as it stands (``top_terms_many``), and every indexed node at once
after a cold start (``bulk_top_terms``). Logarithms are always ``math.log`` (numpy's may
differ in the last bit), so the batch forms give the very floats the one-node form gives.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from groundgraph.index.bm25 import FloatArray, IntArray, LexicalIndex, TermBatch


@dataclass(frozen=True)
class TopTerms:
    """A node's distinctive terms and their idf weights."""

    terms: tuple[str, ...]
    weights: tuple[float, ...]
    mass: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mass", float(sum(self.weights)))


def _idf(n: int, df: int) -> float:
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def _idf_array(n: int, df: IntArray) -> FloatArray:
    """``_idf`` of each df: numpy rounds + and / as Python does; the log is math.log."""
    ratio = 1.0 + (n - df + 0.5) / (df + 0.5)
    return np.fromiter(map(math.log, ratio.tolist()), dtype=np.float64, count=len(df))


def top_terms(index: LexicalIndex, counts: Counter[str], top_k: int) -> TopTerms:
    """The distinctive terms of a node with these term counts, by today's idf."""
    n = index.live_count
    vocab, df = index.vocab, index.df_array()
    ranked = []
    for term, tf in counts.items():
        tid = vocab.get(term)
        idf = _idf(n, 0 if tid is None else int(df[tid]))
        ranked.append((-(1.0 + math.log(tf)) * idf, term, idf))
    ranked.sort()
    chosen = ranked[:top_k]
    return TopTerms(tuple(t for _, t, _ in chosen), tuple(w for _, _, w in chosen))


def top_terms_many(
    index: LexicalIndex, counts: Sequence[Counter[str]] | TermBatch, top_k: int
) -> list[TopTerms]:
    """``top_terms`` of each of these nodes, the index left as it is, in one pass."""
    batch = counts if isinstance(counts, TermBatch) else TermBatch.of(counts)
    if not len(batch.local):
        return [TopTerms((), ()) for _ in range(len(batch))]
    ids = batch.term_ids(index.vocab)
    known = ids >= 0
    df = np.zeros(len(ids), dtype=np.int64)
    df[known] = index.df_array()[ids[known]]
    idf = _idf_array(index.live_count, df)
    local = batch.local
    score = -_log_tf(batch.tf) * idf[local]
    sizes = batch.sizes
    # By row (so rows keep their slots), then score, then the term in string order.
    order = np.lexsort((batch.string_ranks()[local], score, batch.rows()))
    rank = np.arange(len(local)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    chosen = local[order[rank < top_k]]
    names = [batch.distinct[i] for i in chosen.tolist()]
    weights = idf[chosen].tolist()
    out = []
    end = 0
    for size in np.minimum(sizes, top_k).tolist():
        start, end = end, end + size
        out.append(TopTerms(tuple(names[start:end]), tuple(weights[start:end])))
    return out


# 1 + ln tf for the frequencies most nodes have, each computed once with math.log.
_LOG_TF = np.array([math.nan] + [1.0 + math.log(tf) for tf in range(1, 256)])


def _log_tf(tf: IntArray) -> FloatArray:
    """1 + ln tf of each count, as math.log gives it."""
    if len(tf) and tf.min() > 0 and tf.max() < len(_LOG_TF):
        found: FloatArray = _LOG_TF[tf]
        return found
    values, inverse = np.unique(tf, return_inverse=True)
    return np.array([1.0 + math.log(v) for v in values.tolist()])[inverse]


@dataclass(frozen=True)
class BulkTopTerms:
    """Top terms of many nodes: row i is node ``keys[i]``, its term ids (−1 pads) and idfs."""

    keys: IntArray
    term_ids: IntArray
    weights: FloatArray


def bulk_top_terms(index: LexicalIndex, top_k: int) -> BulkTopTerms:
    """The top terms of every live indexed node at once, by today's idf.

    Gives what ``top_terms`` gives node by node (the same arithmetic, the same order: score
    descending, then term), for rebuilding the postings after a cold start in seconds
    rather than minutes at 100k nodes.
    """
    pos, tid, tf = index.posting_arrays()
    live = index.alive_mask(pos)
    pos, tid, tf = pos[live], tid[live], tf[live]
    idf = _idf_array(index.live_count, index.df_array())
    values, inverse = np.unique(tf, return_inverse=True)
    log_tf = np.array([1.0 + math.log(v) for v in values.tolist()])
    score = -log_tf[inverse] * idf[tid]
    term_rank = np.empty(len(index.terms), dtype=np.int64)
    term_rank[sorted(range(len(index.terms)), key=index.terms.__getitem__)] = np.arange(
        len(index.terms)
    )
    order = np.lexsort((term_rank[tid], score, pos))
    pos, tid = pos[order], tid[order]
    new_group = np.r_[True, pos[1:] != pos[:-1]] if len(pos) else np.zeros(0, dtype=bool)
    starts = np.flatnonzero(new_group)
    rank = np.arange(len(pos)) - starts[np.cumsum(new_group) - 1]
    chosen = rank < top_k
    keys = np.array(sorted(index.position.values()), dtype=np.int64)
    rows = np.searchsorted(keys, pos[chosen])
    term_ids = np.full((len(keys), top_k), -1, dtype=np.int64)
    weights = np.zeros((len(keys), top_k))
    term_ids[rows, rank[chosen]] = tid[chosen]
    weights[rows, rank[chosen]] = idf[tid[chosen]]
    return BulkTopTerms(keys, term_ids, weights)
