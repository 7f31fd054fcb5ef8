"""Semantic links by meaning: the cosine of node embeddings in place of shared terms.

With an embedder, a linkable node proposes its ``neighbours`` nearest other linkable nodes
by cosine of their stored unit vectors, each at least ``min_cosine`` (0.3 by default, as
Grounded Graph of Thought links sections); the rest of ``semantic.semantic_links`` (a pair
linked once, the weight ``min(0.9, 0.3 + 0.6 · cosine)``) is unchanged. A node without a
vector (written by a graph with no embedder) takes part in no such link. The cost is one
dense product per block of rows, quadratic in the linkable nodes: about 4·10¹⁰
multiply-adds for 10,000 nodes of 384 dimensions.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from groundgraph.index.bm25 import LexicalIndex
from groundgraph.index.links import LinkParams
from groundgraph.index.semantic import LinkableNodes, Nearest, best_per_row, within_top
from groundgraph.index.vectors import VectorIndex

__all__ = ["DEFAULT_MIN_COSINE", "CosineLinks"]

DEFAULT_MIN_COSINE = 0.3
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
