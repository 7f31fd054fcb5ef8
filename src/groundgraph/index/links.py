"""Semantic links from shared distinctive terms, found through an inverted index.

Each node keeps its ``top_terms`` most distinctive terms (``top_terms.py``), weighted by
idf. Two nodes are as similar as the weighted Jaccard of those sets,
``shared / (mine + theirs − shared)``. Candidates come from the postings of a node's own
top terms, never from a scan of every node; a term that sits in the top set of more than
``max_term_nodes`` nodes is not distinctive and proposes no candidates, which keeps the
cost of linking one node bounded however large the graph grows.

The ``_many`` forms do for a batch of nodes (one document) what the one-node forms do in a
loop, with the same floats: candidates of every node are scored together
(``similarity.py``) instead of one numpy round per node.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import chain, repeat

import numpy as np

from groundgraph.index.bm25 import IntArray, LexicalIndex, TermBatch, top_positions
from groundgraph.index.link_params import LinkParams
from groundgraph.index.similarity import PAIR_BLOCK, best_per_row, pairs_within
from groundgraph.index.top_terms import (
    BulkTopTerms,
    TopTerms,
    bulk_top_terms,
    top_terms,
    top_terms_many,
)

__all__ = [
    "BulkTopTerms",
    "LinkParams",
    "TermLinker",
    "TopTermPostings",
    "TopTerms",
    "bulk_top_terms",
    "similar_within",
    "similar_within_many",
]

Neighbours = list[tuple[int, float]]
_NO_KEYS: array[int] = array("i")


class TopTermPostings:
    """Top-term postings over integer keys, and the similarity search they allow."""

    def __init__(self, params: LinkParams, name_of: Callable[[int], str]) -> None:
        self.params = params
        self._name_of = name_of
        self._postings: dict[str, array[int]] = {}
        self._mass = np.full(64, np.nan)  # top-term mass by key; NaN: not linkable

    def _grow(self, last: int) -> None:
        if last >= len(self._mass):
            grown = np.full(max(last + 1, 2 * len(self._mass)), np.nan)
            grown[: len(self._mass)] = self._mass
            self._mass = grown

    def add(self, key: int, top: TopTerms) -> None:
        self._grow(key)
        self._mass[key] = top.mass
        for term in top.terms:
            self._postings.setdefault(term, array("i")).append(key)

    def has(self, key: int) -> bool:
        return key < len(self._mass) and not np.isnan(self._mass[key])

    def add_new(self, keys: Sequence[int], tops: Sequence[TopTerms]) -> None:
        """``add`` for each key not yet linkable (the first of repeats), in order."""
        if not len(keys):
            return
        wanted = np.asarray(keys, dtype=np.int64)
        self._grow(int(wanted.max()))
        fresh = np.isnan(self._mass[wanted])
        _, first = np.unique(wanted, return_index=True)
        once = np.zeros(len(wanted), dtype=bool)
        once[first] = True
        rows = np.flatnonzero(fresh & once).tolist()
        self._mass[wanted[rows]] = [tops[i].mass for i in rows]
        postings = self._postings
        for i in rows:
            key = keys[i]
            for term in tops[i].terms:
                found = postings.get(term)
                if found is None:
                    found = postings[term] = array("i")
                found.append(key)

    def add_many(self, top: BulkTopTerms, terms: Sequence[str]) -> None:
        """``add`` for many keys at once (see ``bulk_top_terms``)."""
        keys = top.keys
        if not len(keys):
            return
        self._grow(int(keys.max()))
        # Left to right, as ``add`` sums a TopTerms' weights (padding adds exact zeros).
        mass = np.zeros(len(keys))
        for column in range(top.weights.shape[1]):
            mass = mass + top.weights[:, column]
        self._mass[keys] = mass
        flat = top.term_ids.ravel()
        owners = np.repeat(keys, top.term_ids.shape[1])
        used = flat >= 0
        flat, owners = flat[used], owners[used].astype(np.int32)
        if not len(flat):  # every node without terms
            return
        order = np.argsort(flat, kind="stable")  # keys stay ascending within a term
        flat, owners = flat[order], owners[order]
        cuts = np.flatnonzero(flat[1:] != flat[:-1]) + 1
        starts, ends = np.r_[0, cuts], np.r_[cuts, len(flat)]
        postings = self._postings
        for tid, a, b in zip(flat[starts].tolist(), starts.tolist(), ends.tolist(), strict=True):
            term = terms[tid]
            found = postings.get(term)
            if found is None:
                found = postings[term] = array("i")
            found.frombytes(owners[a:b].tobytes())

    def drop(self, keys: Sequence[int]) -> None:
        for key in keys:
            if key < len(self._mass):
                self._mass[key] = np.nan

    def similar(
        self, top: TopTerms, exclude: set[int] | frozenset[int] = frozenset()
    ) -> Neighbours:
        """Up to ``neighbours`` keys most similar to ``top``, best first, ties by name."""
        cap = self.params.max_term_nodes
        lists, weights = [], []
        for term, weight in zip(top.terms, top.weights, strict=True):
            postings = self._postings.get(term)
            if postings is None or len(postings) > cap:
                continue
            lists.append(np.frombuffer(postings, dtype=np.int32))
            weights.append(np.full(len(postings), weight))
        if not lists:
            return []
        keys, inverse = np.unique(np.concatenate(lists), return_inverse=True)
        inter = np.bincount(inverse, weights=np.concatenate(weights), minlength=len(keys))
        theirs = self._mass[keys]
        union = top.mass + theirs - inter
        with np.errstate(divide="ignore", invalid="ignore"):
            sim = np.where(union > 0, inter / union, 0.0)
        keep = (sim >= self.params.min_similarity) & ~np.isnan(theirs)
        if exclude:
            keep &= ~np.isin(keys, np.fromiter(exclude, dtype=np.int64))
        rows = np.flatnonzero(keep)
        found, scores = keys[rows].astype(np.int64), sim[rows]
        best = top_positions(found, scores, self.params.neighbours, self._name_of)
        return [(int(found[i]), float(scores[i])) for i in best]

    def similar_many(
        self, tops: Sequence[TopTerms], exclude: set[int] | frozenset[int] = frozenset()
    ) -> list[Neighbours]:
        """``similar`` of each of ``tops``, scored together."""
        terms = list(chain.from_iterable(top.terms for top in tops))
        found = list(map(self._postings.get, terms, repeat(_NO_KEYS)))
        lengths = np.fromiter(map(len, found), dtype=np.int64, count=len(found))
        used = np.flatnonzero((lengths > 0) & (lengths <= self.params.max_term_nodes))
        if not len(used):
            return [[] for _ in tops]
        keys = np.frombuffer(b"".join([found[i] for i in used.tolist()]), dtype=np.int32)
        sizes = np.fromiter((len(top.terms) for top in tops), dtype=np.int64, count=len(tops))
        owners = np.repeat(np.arange(len(tops)), sizes)[used]
        weights = np.fromiter(chain.from_iterable(top.weights for top in tops), np.float64)[used]
        lengths = lengths[used]
        return best_per_row(
            np.repeat(owners, lengths),
            keys.astype(np.int64),
            np.repeat(weights, lengths),
            np.array([top.mass for top in tops]),
            self._mass,
            self.params.min_similarity,
            self.params.neighbours,
            self._name_of,
            np.fromiter(exclude, dtype=np.int64, count=len(exclude)),
        )


class TermLinker:
    """Top-term postings of every indexed node; proposes semantic neighbours for new ones."""

    def __init__(self, index: LexicalIndex, params: LinkParams | None = None) -> None:
        self.index = index
        self.params = params or LinkParams()
        self._postings = TopTermPostings(self.params, lambda pos: index.node_ids[pos])
        self._built = False

    def top_terms(self, counts: Counter[str]) -> TopTerms:
        """The distinctive terms of a node with these term counts, by today's idf."""
        return top_terms(self.index, counts, self.params.top_terms)

    def top_terms_many(self, counts: Sequence[Counter[str]] | TermBatch) -> list[TopTerms]:
        """``top_terms`` of each node of a batch, the index left as it is, in one pass."""
        return top_terms_many(self.index, counts, self.params.top_terms)

    def _ensure_built(self) -> None:
        # Derived state, built on first use from the lexical index (after a snapshot load).
        if self._built:
            return
        self._built = True
        self._postings.add_many(bulk_top_terms(self.index, self.params.top_terms), self.index.terms)

    def register(self, pos: int, top: TopTerms) -> None:
        """Record an indexed node's top terms so later nodes can link to it."""
        self._ensure_built()
        if not self._postings.has(pos):
            self._postings.add(pos, top)

    def register_many(self, positions: Sequence[int], tops: Sequence[TopTerms]) -> None:
        """``register`` of each (position, top terms) pair, in order."""
        self._ensure_built()
        self._postings.add_new(positions, tops)

    def forget(self, positions: Sequence[int]) -> None:
        self._postings.drop(positions)

    def neighbours(
        self, top: TopTerms, exclude: set[int] | frozenset[int] = frozenset()
    ) -> Neighbours:
        """Up to ``neighbours`` indexed nodes most similar to ``top``, best first."""
        self._ensure_built()
        return self._postings.similar(top, exclude)

    def neighbours_many(
        self, tops: Sequence[TopTerms], exclude: set[int] | frozenset[int] = frozenset()
    ) -> list[Neighbours]:
        """``neighbours`` of each of ``tops``, scored together."""
        self._ensure_built()
        return self._postings.similar_many(tops, exclude)


def similar_within(
    tops: Sequence[TopTerms], names: Sequence[str], params: LinkParams
) -> list[Neighbours]:
    """For each node of one new document, its most similar earlier nodes of that document."""
    postings = TopTermPostings(params, lambda i: names[i])
    out = []
    for i, top in enumerate(tops):
        out.append(postings.similar(top))
        postings.add(i, top)
    return out


def similar_within_many(
    tops: Sequence[TopTerms], names: Sequence[str], params: LinkParams, block: int = PAIR_BLOCK
) -> list[Neighbours]:
    """``similar_within``, every node's candidates scored together (a block of rows at a
    time, so a large document's pairs never all sit in memory at once)."""
    mass = np.array([top.mass for top in tops])
    out: list[Neighbours] = [[] for _ in tops]
    no_exclusion: IntArray = np.zeros(0, dtype=np.int64)
    k, floor = params.neighbours, params.min_similarity
    for start, end, owners, keys, weights in pairs_within(tops, params.max_term_nodes, block):
        if not len(keys):
            continue
        out[start:end] = best_per_row(
            owners - start,
            keys,
            weights,
            mass[start:end],
            mass,
            floor,
            k,
            names.__getitem__,
            no_exclusion,
        )
    return out
