"""Semantic links by meaning: the cosine of node embeddings, beside shared terms.

With an embedder, a linkable node proposes its ``neighbours`` nearest other linkable nodes
by cosine of their stored unit vectors, each at least ``min_cosine`` (:class:`CosineLinks`),
*and* its nearest by shared distinctive terms, as without an embedder
(:class:`TermAndCosineLinks`); a pair both propose is one link, at its term similarity.
The rest of ``semantic.semantic_links`` (a pair linked once, the weight
``min(0.9, 0.3 + 0.6 · similarity)``) is unchanged. A node without a vector (written by a
graph with no embedder) takes part in no cosine link.

Why both, and why a floor of 0.5 rather than the 0.3 Grounded Graph of Thought links
sections at (``SEED_MIN_COSINE``, still one ``min_similarity=0.3`` away): cosine links
alone at 0.3 cost every graph column of the quality benchmark 1-4.5 points of recall@5.
MiniLM puts most passages of one domain above 0.3 of each other, so nearly every node gets
its five links (5,210 on MuSiQue-100's 1,839 passages against 1,274 by shared terms), each
weighing 0.5-0.7 against 0.35-0.45 for a term link, and they lead the walk back to what
the cosine ranking of the query already found. The second hop of a multi-hop question is
reached through what two passages *name* alike, which shared terms catch. On MuSiQue-100
(hybrid + walk, recall@5) term links gave 0.639, cosine at 0.3 0.616, at 0.5 with terms
0.638 (docs/embeddings.md).

The cost is one dense product per block of rows, quadratic in the linkable nodes: about
4·10¹⁰ multiply-adds for 10,000 nodes of 384 dimensions.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from groundgraph.index.bm25 import LexicalIndex
from groundgraph.index.link_params import LinkParams
from groundgraph.index.semantic import (
    LinkableNodes,
    Nearest,
    best_per_row,
    term_similarity,
    within_top,
)
from groundgraph.index.vectors import VectorIndex

__all__ = ["DEFAULT_MIN_COSINE", "SEED_MIN_COSINE", "CosineLinks", "TermAndCosineLinks"]

#: The cosine floor of meaning links by default (``LinkParams.min_cosine``).
DEFAULT_MIN_COSINE = 0.5
#: The floor Grounded Graph of Thought links sections at: ``min_similarity=0.3``.
SEED_MIN_COSINE = 0.3
#: Rows multiplied at once: a block's product is ``ROW_BLOCK`` × (linkable nodes) floats.
ROW_BLOCK = 128


def _empty() -> Nearest:
    none = np.zeros(0, dtype=np.int64)
    return Nearest(none, none.copy(), np.zeros(0, dtype=np.float64))


class CosineLinks:
    """A ``semantic.Similarity``: each row's nearest rows by cosine of their vectors."""

    def __init__(self, vectors: Callable[[], VectorIndex], min_cosine: float) -> None:
        self.vectors = vectors
        self.min_cosine = float(min_cosine)

    def __call__(self, index: LexicalIndex, nodes: LinkableNodes, params: LinkParams) -> Nearest:
        """Nearest rows of every row with a vector, by cosine (ties to the smaller row)."""
        held = self.vectors()
        rows = [r for r, node_id in enumerate(nodes.node_ids) if node_id in held.position]
        if len(rows) < 2 or params.neighbours <= 0:
            return _empty()
        at = np.asarray(rows, dtype=np.int64)
        matrix = held.matrix[[held.position[nodes.node_ids[r]] for r in rows]]
        parts: list[Nearest] = []
        for start in range(0, len(rows), ROW_BLOCK):
            sims = (matrix[start : start + ROW_BLOCK] @ matrix.T).astype(np.float64)
            local, other = np.nonzero(sims >= self.min_cosine)
            keep = local + start != other
            local, other = local[keep], other[keep]
            row_ids, col_ids, found = at[local + start], at[other], sims[local, other]
            top = within_top(row_ids, found, params.neighbours)
            parts.append(best_per_row(row_ids[top], col_ids[top], found[top], params.neighbours))
        return Nearest(
            np.concatenate([p.rows for p in parts]),
            np.concatenate([p.cols for p in parts]),
            np.concatenate([p.sims for p in parts]),
        )


class TermAndCosineLinks:
    """A ``semantic.Similarity``: each row's nearest rows by shared terms
    (``semantic.term_similarity``) and by cosine (:class:`CosineLinks`).

    The term links come first, as they are; a cosine proposal adds the pairs the terms do
    not link (a pair both propose keeps its term similarity: made as strong as its cosine,
    such links cost MuSiQue-100 0.6-1.4 points of recall@5).
    """

    def __init__(self, cosine: CosineLinks) -> None:
        self.cosine = cosine

    def __call__(self, index: LexicalIndex, nodes: LinkableNodes, params: LinkParams) -> Nearest:
        """Nearest rows of every row, by shared terms and by cosine."""
        terms = term_similarity(index, nodes, params)
        cosine = self.cosine(index, nodes, params)
        size = len(nodes.positions)
        term_pairs = np.minimum(terms.rows, terms.cols) * size + np.maximum(terms.rows, terms.cols)
        cos_pairs = np.minimum(cosine.rows, cosine.cols) * size + np.maximum(
            cosine.rows, cosine.cols
        )
        fresh = ~np.isin(cos_pairs, term_pairs)
        return Nearest(
            np.concatenate([terms.rows, cosine.rows[fresh]]),
            np.concatenate([terms.cols, cosine.cols[fresh]]),
            np.concatenate([terms.sims, cosine.sims[fresh]]),
        )
