"""Semantic links from shared distinctive terms, found through an inverted index.

Each node keeps its ``top_terms`` most distinctive terms, ranked by (1 + ln tf) · idf and
weighted by idf. Two nodes are as similar as the weighted Jaccard of those sets,
``shared / (mine + theirs − shared)``. Candidates come from the postings of a node's own
top terms, never from a scan of every node; a term that sits in the top set of more than
``max_term_nodes`` nodes is not distinctive and proposes no candidates, which keeps the
cost of linking one node bounded however large the graph grows.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from groundgraph.index.bm25 import LexicalIndex, top_positions


@dataclass(frozen=True)
class LinkParams:
    top_terms: int = 12
    neighbours: int = 5
    min_similarity: float = 0.08
    max_term_nodes: int = 2000


@dataclass(frozen=True)
class TopTerms:
    """A node's distinctive terms and their idf weights."""

    terms: tuple[str, ...]
    weights: tuple[float, ...]
    mass: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "mass", float(sum(self.weights)))


class TopTermPostings:
    """Top-term postings over integer keys, and the similarity search they allow."""

    def __init__(self, params: LinkParams, name_of: Callable[[int], str]) -> None:
        self.params = params
        self._name_of = name_of
        self._postings: dict[str, array[int]] = {}
        self._mass = np.full(64, np.nan)  # top-term mass by key; NaN: not linkable

    def add(self, key: int, top: TopTerms) -> None:
        if key >= len(self._mass):
            grown = np.full(max(key + 1, 2 * len(self._mass)), np.nan)
            grown[: len(self._mass)] = self._mass
            self._mass = grown
        self._mass[key] = top.mass
        for term in top.terms:
            self._postings.setdefault(term, array("i")).append(key)

    def drop(self, keys: Sequence[int]) -> None:
        for key in keys:
            if key < len(self._mass):
                self._mass[key] = np.nan

    def similar(
        self, top: TopTerms, exclude: set[int] | frozenset[int] = frozenset()
    ) -> list[tuple[int, float]]:
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


class TermLinker:
    """Top-term postings of every indexed node; proposes semantic neighbours for new ones."""

    def __init__(self, index: LexicalIndex, params: LinkParams | None = None) -> None:
        self.index = index
        self.params = params or LinkParams()
        self._postings = TopTermPostings(self.params, lambda pos: index.node_ids[pos])
        self._built = False

    def top_terms(self, counts: Counter[str]) -> TopTerms:
        """The distinctive terms of a node with these term counts, by today's idf."""
        index = self.index
        n = index.live_count
        vocab, df = index.vocab, index.df_of_id
        ranked = []
        for term, tf in counts.items():
            tid = vocab.get(term)
            d = 0 if tid is None else df(tid)
            idf = math.log(1.0 + (n - d + 0.5) / (d + 0.5))
            ranked.append((-(1.0 + math.log(tf)) * idf, term, idf))
        ranked.sort()
        chosen = ranked[: self.params.top_terms]
        return TopTerms(tuple(t for _, t, _ in chosen), tuple(w for _, _, w in chosen))

    def _ensure_built(self) -> None:
        # Derived state, built on first use from the lexical index (after a snapshot load).
        if self._built:
            return
        self._built = True
        index = self.index
        for pos in sorted(index.position.values()):
            term_ids, tfs = index.node_terms(pos)
            counts = Counter(
                {index.terms[int(t)]: int(f) for t, f in zip(term_ids, tfs, strict=True)}
            )
            self._postings.add(pos, self.top_terms(counts))

    def register(self, pos: int, top: TopTerms) -> None:
        """Record an indexed node's top terms so later nodes can link to it."""
        self._ensure_built()
        self._postings.add(pos, top)

    def forget(self, positions: Sequence[int]) -> None:
        self._postings.drop(positions)

    def neighbours(
        self, top: TopTerms, exclude: set[int] | frozenset[int] = frozenset()
    ) -> list[tuple[int, float]]:
        """Up to ``neighbours`` indexed nodes most similar to ``top``, best first."""
        self._ensure_built()
        return self._postings.similar(top, exclude)


def similar_within(
    tops: Sequence[TopTerms], names: Sequence[str], params: LinkParams
) -> list[list[tuple[int, float]]]:
    """For each node of one new document, its most similar earlier nodes of that document."""
    postings = TopTermPostings(params, lambda i: names[i])
    out = []
    for i, top in enumerate(tops):
        out.append(postings.similar(top))
        postings.add(i, top)
    return out
