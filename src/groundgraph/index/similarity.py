"""Weighted-Jaccard neighbours of many nodes at once, from their shared top terms.

A candidate entry says: node ``owner`` shares a top term with node ``key``, and the term
weighs ``weight`` in the owner's set. Summing the entries of each (owner, key) pair gives
their shared weight; the entries come in the owner's term order, as the one-node search
(``TopTermPostings.similar``) sums them, so every float equals the one it computes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import chain
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from groundgraph.index.bm25 import FloatArray, IntArray

if TYPE_CHECKING:
    from groundgraph.index.top_terms import TopTerms

Neighbours = list[tuple[int, float]]


def best_per_row(
    owners: IntArray,
    keys: IntArray,
    weights: FloatArray,
    row_mass: FloatArray,
    key_mass: FloatArray,
    min_similarity: float,
    k: int,
    name_of: Callable[[int], str],
    exclude: IntArray,
) -> list[Neighbours]:
    """Per owner row, up to ``k`` keys by similarity (best first, ties by name).

    ``key_mass`` is NaN for keys that may not be proposed; ``exclude`` lists more.
    """
    out: list[Neighbours] = [[] for _ in range(len(row_mass))]
    if not len(keys) or k <= 0:
        return out
    owner, key, inter = pair_sums(owners, keys, weights)
    theirs = key_mass[key]
    union = row_mass[owner] + theirs - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        sim = np.where(union > 0, inter / union, 0.0)
    keep = (sim >= min_similarity) & ~np.isnan(theirs)
    if len(exclude):
        keep &= ~np.isin(key, exclude)
    kept = np.flatnonzero(keep)
    if not len(kept):
        return out
    owner, key, sim = owner[kept], key[kept], sim[kept]
    order = np.lexsort((-sim, owner))
    owner, key, sim = owner[order], key[order], sim[order]
    starts = np.flatnonzero(_starts(owner))
    ends = np.append(starts[1:], len(owner))
    # Whatever scores at least the k-th best of its row may make the cut (ties at the edge).
    kth = sim[np.minimum(starts + k, ends) - 1]
    above = (sim >= np.repeat(kth, ends - starts)).astype(np.int64)
    cut = starts + np.add.reduceat(above, starts)
    same = np.zeros(len(sim), dtype=bool)
    same[:-1] = (sim[1:] == sim[:-1]) & (owner[1:] == owner[:-1])
    tied = np.add.reduceat(same.astype(np.int64), starts) > 0
    keys_list, sims_list = key.tolist(), sim.tolist()
    for row, a, b, has_tie in zip(
        owner[starts].tolist(), starts.tolist(), cut.tolist(), tied.tolist(), strict=True
    ):
        found = list(zip(keys_list[a:b], sims_list[a:b], strict=True))
        if has_tie:
            found.sort(key=lambda item: (-item[1], name_of(item[0])))
        out[row] = found[:k]
    return out


#: ``pair_sums`` counts in a table of every (owner, key) cell when there are at most this
#: many cells per entry; past that, sorting the entries is the faster way.
DENSE_CELLS_PER_ENTRY = 1


def pair_sums(
    owners: IntArray, keys: IntArray, weights: FloatArray
) -> tuple[IntArray, IntArray, FloatArray]:
    """Each distinct (owner, key) pair once, ordered, with the sum of its entries' weights.

    Sums run in entry order (``bincount`` adds sequentially), as one node's search sums,
    whichever of the two ways finds the pairs.
    """
    stride = int(keys.max()) + 1
    combined = owners * stride + keys
    cells = (int(owners.max()) + 1) * stride
    if cells <= DENSE_CELLS_PER_ENTRY * len(combined):
        # No more (owner, key) cells than entries (a large document's own pairs): count
        # them all in a table, several times faster than a sort.
        pairs = np.flatnonzero(np.bincount(combined, minlength=cells))
        sums = np.bincount(combined, weights=weights, minlength=cells)[pairs]
    else:
        if cells < 2**31:
            combined = combined.astype(np.int32)  # sorts a third faster
        pairs, inverse = np.unique(combined, return_inverse=True)
        sums = np.bincount(inverse, weights=weights, minlength=len(pairs))
        pairs = pairs.astype(np.int64)
    return pairs // stride, pairs % stride, sums.astype(np.float64)


#: Candidate entries scored at once by ``pairs_within``'s blocks: bounds the memory of
#: linking one large document (each entry costs some 100 bytes while it is scored).
PAIR_BLOCK = 1 << 19

#: One block of candidate entries: rows ``start`` to ``end`` of the batch, and their
#: entries (owner row, partner row, weight).
PairBlock = tuple[int, int, IntArray, IntArray, FloatArray]


def pairs_within(
    tops: Sequence[TopTerms], cap: int, block: int = PAIR_BLOCK
) -> Iterator[PairBlock]:
    """Candidate entries of each node among the earlier nodes of its batch, in blocks of
    whole rows of about ``block`` entries (a row with more is a block of its own).

    Node i meets node j < i on each top term they share, unless more than ``cap`` nodes
    before i hold that term (as the one-node search skips a term with too many postings).
    Entries come node by node, each node's in its term order.
    """
    terms = list(chain.from_iterable(top.terms for top in tops))
    ids = {term: i for i, term in enumerate(dict.fromkeys(terms))}
    if len(ids) == len(terms):  # no term shared
        return
    local = np.fromiter(map(ids.__getitem__, terms), dtype=np.int64, count=len(terms))
    sizes = np.fromiter((len(top.terms) for top in tops), dtype=np.int64, count=len(tops))
    rows = np.repeat(np.arange(len(tops), dtype=np.int64), sizes)
    entries = np.arange(len(local))
    by_term = np.argsort(local, kind="stable")  # within a term, rows ascending
    sorted_terms = local[by_term]
    new = _starts(sorted_terms)
    group_start = np.maximum.accumulate(np.where(new, entries, 0))
    where = np.empty(len(local), dtype=np.int64)
    where[by_term] = entries
    first = group_start[where]  # per entry: where its term's rows begin
    earlier = where - first  # how many earlier rows hold the term
    count = np.where(earlier <= cap, earlier, 0)
    holders = rows[by_term]
    weights = np.fromiter(chain.from_iterable(top.weights for top in tops), np.float64)
    row_entries = np.concatenate(([0], np.cumsum(sizes)))  # row r's entries: [r_e[r], r_e[r+1])
    done = np.concatenate(([0], np.cumsum(count)))[row_entries]  # pairs before each row
    start = 0
    while start < len(tops):
        end = max(start + 1, int(np.searchsorted(done, done[start] + block, side="right")) - 1)
        end = min(end, len(tops))
        a, b = int(row_entries[start]), int(row_entries[end])
        part = count[a:b]
        query = np.repeat(entries[a:b], part)
        offsets = np.arange(len(query)) - np.repeat(np.cumsum(part) - part, part)
        partner = holders[np.repeat(first[a:b], part) + offsets]
        yield start, end, rows[query], partner, weights[query]
        start = end


def _starts(values: IntArray) -> npt.NDArray[np.bool_]:
    """Where each run of equal values begins."""
    new = np.empty(len(values), dtype=bool)
    new[:1] = True
    np.not_equal(values[1:], values[:-1], out=new[1:])
    return new
