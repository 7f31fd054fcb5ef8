"""Semantic links of a whole graph at once, from the statistics of the graph as it is.

Every linkable node (an indexed section, chunk or document root with text, not a memory
fact) proposes its ``neighbours`` most similar other linkable nodes; a pair is linked when
either proposes the other, once, from the node that proposed it (from the smaller node id
when both did). Nothing here depends on the order the nodes were indexed in: rows are
taken in node-id order, terms in string order, ties go to the smaller node id, and the
statistics are those of the linkable nodes now, so the links are a function of the set of
documents.

How similar two nodes are is a :class:`Similarity`: a callable that gives each row its
nearest rows. The default, :func:`term_similarity`, is the weighted Jaccard of the nodes'
distinctive terms (``top_terms.py``); a cosine of embeddings can take its place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from groundgraph.index.bm25 import FloatArray, IntArray, LexicalIndex
from groundgraph.index.link_params import LinkParams
from groundgraph.model import SEMANTIC, Edge, semantic_weight
from groundgraph.model.ids import FACT_PREFIX

if TYPE_CHECKING:
    import scipy.sparse as sp

#: Rows of the similarity matrix computed together (bounds the memory of one product:
#: a row meets at most ``top_terms`` × ``max_term_nodes`` others). 256 rows' product and its
#: temporaries took about 60 MiB more of each scoring process at 100k sections, for no
#: speed a smaller block loses; the links do not depend on it.
ROW_BLOCK = 64
#: How far below floor × mass a pair's shared weight may be and still be scored exactly
#: (``term_similarity``): far more than the rounding of sums of a dozen weights.
BOUND_MARGIN = 1e-6


@dataclass(frozen=True)
class LinkableNodes:
    """The nodes that take part in semantic links: index positions, in node-id order."""

    positions: IntArray
    node_ids: tuple[str, ...]


@dataclass(frozen=True)
class Nearest:
    """Each row's nearest other rows: ``rows[i]`` proposes ``cols[i]`` at ``sims[i]``; a
    row's proposals are at most ``neighbours``, each at least ``min_similarity``."""

    rows: IntArray
    cols: IntArray
    sims: FloatArray


class Similarity(Protocol):
    """The nearest other rows of each linkable node (rows index ``nodes.positions``).

    It must give the same answer for the same set of nodes whatever their positions, and
    break ties by row (rows are in node-id order)."""

    def __call__(self, index: LexicalIndex, nodes: LinkableNodes, params: LinkParams) -> Nearest:
        """Nearest rows of every row, by this similarity."""
        ...


@dataclass(frozen=True)
class SemanticLink:
    """One semantic link: source and target node ids and their similarity."""

    source: str
    target: str
    similarity: float


def linkable_nodes(index: LexicalIndex) -> LinkableNodes:
    """The live, non-blank indexed nodes that are not memory facts, in node-id order."""
    chosen = [
        (node_id, pos)
        for node_id, pos in index.position.items()  # live nodes only
        if not index.is_blank(pos) and not index.doc_of[pos].startswith(FACT_PREFIX)
    ]
    chosen.sort()
    return LinkableNodes(
        np.array([p for _, p in chosen], dtype=np.int64), tuple(n for n, _ in chosen)
    )


def semantic_links(
    index: LexicalIndex, params: LinkParams, similarity: Similarity | None = None
) -> list[SemanticLink]:
    """The semantic links of every linkable node of ``index``, ordered by source, target."""
    ids, rows, cols, sims = _linked(index, params, similarity)
    return [SemanticLink(ids[r], ids[c], s) for r, c, s in zip(rows, cols, sims, strict=True)]


def semantic_edges(
    index: LexicalIndex, params: LinkParams, similarity: Similarity | None = None
) -> list[Edge]:
    """``semantic_links`` as the store's edges, weighed by ``model.semantic_weight``
    (rounded to 6 places), made in one pass."""
    ids, rows, cols, sims = _linked(index, params, similarity)
    weight = semantic_weight
    return [
        Edge(ids[r], ids[c], SEMANTIC, round(weight(s), 6))
        for r, c, s in zip(rows, cols, sims, strict=True)
    ]


def _linked(
    index: LexicalIndex, params: LinkParams, similarity: Similarity | None
) -> tuple[tuple[str, ...], list[int], list[int], list[float]]:
    """The node ids and the (row, column, similarity) of each link, in link order."""
    nodes = linkable_nodes(index)
    if len(nodes.positions) < 2:
        return nodes.node_ids, [], [], []
    found = (similarity or term_similarity)(index, nodes, params)
    rows, cols, sims = found.rows, found.cols, found.sims
    keep = rows != cols
    rows, cols, sims = rows[keep], cols[keep], sims[keep]
    # A pair proposed both ways is linked once, from its smaller row.
    pair = np.minimum(rows, cols) * len(nodes.positions) + np.maximum(rows, cols)
    order = np.lexsort((cols, rows, pair))
    rows, cols, sims, pair = rows[order], cols[order], sims[order], pair[order]
    first = np.r_[True, pair[1:] != pair[:-1]] if len(pair) else np.zeros(0, dtype=bool)
    rows, cols, sims = rows[first], cols[first], sims[first]
    order = np.lexsort((cols, rows))
    return nodes.node_ids, rows[order].tolist(), cols[order].tolist(), sims[order].tolist()


def term_similarity(index: LexicalIndex, nodes: LinkableNodes, params: LinkParams) -> Nearest:
    """Weighted Jaccard of the nodes' top terms, ``shared / (mine + theirs − shared)``.

    A node's top terms are its ``top_terms`` terms by (1 + ln tf) · idf (ties to the
    smaller term), weighed by idf; idf counts the linkable nodes only. A term in the top
    set of more than ``max_term_nodes`` nodes is not distinctive and adds nothing to what
    two nodes share (it still counts in each one's mass).
    """
    rows = term_rows(index, nodes, params)
    return joined([rows.nearest(0, rows.size)])


@dataclass(frozen=True)
class TermRows:
    """What ``term_similarity`` scores the rows with: each row's top terms that are
    distinctive (``shared``, weighed by idf), who holds them (``holders``: terms × rows)
    and each row's whole top-term ``mass``. Plain arrays, so a range of rows can be
    scored in another process (``nearest``) and the parts ``joined``."""

    shared: sp.csr_matrix
    holders: sp.csr_matrix
    mass: FloatArray
    params: LinkParams

    @property
    def size(self) -> int:
        return int(self.shared.shape[0])

    def nearest(self, first: int, last: int) -> Nearest:
        """The nearest rows of rows ``first`` to ``last`` (exclusive)."""
        params, mass, shared = self.params, self.mass, self.shared
        # The union is at least a row's own mass, so a similarity at the floor needs a
        # shared weight of at least floor × mass: a bound on the row alone that drops most
        # pairs before the exact test (less a margin far above rounding: it drops none).
        bound = mass * (params.min_similarity * (1 - BOUND_MARGIN))
        parts: list[Nearest] = []
        for start in range(first, last, ROW_BLOCK):
            inter = shared[start : min(start + ROW_BLOCK, last)] @ self.holders
            counts = np.diff(inter.indptr)
            floor = np.repeat(bound[start : start + len(counts)], counts)
            near = np.flatnonzero(inter.data >= floor)
            rows = np.searchsorted(inter.indptr, near, side="right").astype(np.int64)
            rows += start - 1
            cols, common = inter.indices[near].astype(np.int64), inter.data[near]
            union = mass[rows] + mass[cols] - common
            with np.errstate(divide="ignore", invalid="ignore"):
                sims = np.where(union > 0, common / union, 0.0)
            keep = (sims >= params.min_similarity) & (rows != cols)
            rows, cols, sims = rows[keep], cols[keep], sims[keep]
            top = within_top(rows, sims, params.neighbours)
            parts.append(best_per_row(rows[top], cols[top], sims[top], params.neighbours))
        return joined(parts)


def term_rows(index: LexicalIndex, nodes: LinkableNodes, params: LinkParams) -> TermRows:
    """The linkable nodes' top terms as ``term_similarity`` scores them."""
    weights = top_term_matrix(index, nodes, params.top_terms)
    mass = np.asarray(weights.sum(axis=1)).ravel()
    holders = np.bincount(weights.indices, minlength=weights.shape[1])
    shared = weights[:, holders <= params.max_term_nodes].tocsr()
    shared.sort_indices()
    marks = shared.copy()
    marks.data[:] = 1.0
    return TermRows(shared, marks.T.tocsr(), mass, params)


def joined(parts: Sequence[Nearest]) -> Nearest:
    """Nearest rows of consecutive ranges of rows, as one."""
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return Nearest(empty, empty, np.zeros(0, dtype=np.float64))
    return Nearest(
        np.concatenate([p.rows for p in parts]),
        np.concatenate([p.cols for p in parts]),
        np.concatenate([p.sims for p in parts]),
    )


def within_top(rows: IntArray, sims: FloatArray, k: int) -> npt.NDArray[np.bool_]:
    """The entries (``rows`` ascending) whose similarity is at least the ``k``-th largest of
    their row: every entry ``best_per_row`` can keep, and few more (ties), found by a
    partition of each longer row rather than a sort of them all."""
    if len(rows) == 0 or k <= 0:
        return np.zeros(len(rows), dtype=bool)
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    sizes = np.diff(np.r_[starts, len(rows)])
    floors = np.full(len(starts), -np.inf)
    for group in np.flatnonzero(sizes > k).tolist():
        start, size = int(starts[group]), int(sizes[group])
        floors[group] = np.partition(sims[start : start + size], size - k)[size - k]
    return np.asarray(sims >= np.repeat(floors, sizes), dtype=bool)


def best_per_row(rows: IntArray, cols: IntArray, sims: FloatArray, k: int) -> Nearest:
    """Up to ``k`` entries of each row: the most similar, ties to the smaller column."""
    order = np.lexsort((cols, -sims, rows))
    rows, cols, sims = rows[order], cols[order], sims[order]
    starts = np.r_[True, rows[1:] != rows[:-1]] if len(rows) else np.zeros(0, dtype=bool)
    group = np.cumsum(starts) - 1
    rank = np.arange(len(rows)) - np.flatnonzero(starts)[group] if len(rows) else rows
    keep = rank < k
    return Nearest(rows[keep], cols[keep], sims[keep])


def top_term_matrix(index: LexicalIndex, nodes: LinkableNodes, top_k: int) -> sp.csr_matrix:
    """Rows: the linkable nodes; columns: terms in string order; entries: the idf of each
    of a row's top terms (by the linkable nodes' statistics)."""
    import scipy.sparse as sp  # on first use: most commands never derive links

    pos, tid, tf = index.posting_arrays()
    row_of = np.full(len(index.node_ids), -1, dtype=np.int64)
    row_of[nodes.positions] = np.arange(len(nodes.positions))
    keep = row_of[pos] >= 0
    rows, tid, tf = row_of[pos[keep]], tid[keep].astype(np.int64), tf[keep]
    term_count = len(index.terms)
    rank = np.empty(term_count, dtype=np.int64)
    rank[sorted(range(term_count), key=index.terms.__getitem__)] = np.arange(term_count)
    cols = rank[tid]
    df = np.bincount(cols, minlength=term_count)
    idf = _idf(len(nodes.positions), df)
    values, inverse = np.unique(tf, return_inverse=True)
    log_tf = np.array([1.0 + math.log(v) for v in values.tolist()])
    score = -log_tf[inverse] * idf[cols]
    order = np.lexsort((cols, score, rows))
    rows, cols = rows[order], cols[order]
    starts = np.r_[True, rows[1:] != rows[:-1]] if len(rows) else np.zeros(0, dtype=bool)
    rank_in_row = np.arange(len(rows)) - np.flatnonzero(starts)[np.cumsum(starts) - 1]
    chosen = rank_in_row < top_k
    rows, cols = rows[chosen], cols[chosen]
    matrix = sp.csr_matrix(
        (idf[cols], (rows, cols)), shape=(len(nodes.positions), term_count), dtype=np.float64
    )
    matrix.sort_indices()
    return matrix


def _idf(n: int, df: IntArray) -> FloatArray:
    """BM25's idf, ln(1 + (n − df + 0.5) / (df + 0.5)), with ``math.log`` for each value."""
    ratio = 1.0 + (n - df + 0.5) / (df + 0.5)
    return np.fromiter(map(math.log, ratio.tolist()), dtype=np.float64, count=len(df))
