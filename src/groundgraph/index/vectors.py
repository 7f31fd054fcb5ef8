"""Exact top-k by cosine over unit vectors: one float32 matrix, one row per node.

Rows are unit length (``index.embedder.unit_rows``), so a cosine is a dot product and a
query costs one matrix-vector product over the live rows plus a partial sort. Removing a
node moves the last row into its place, so the matrix never has holes. The index is
derived: it is rebuilt from the store's vectors and never the only copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["VectorIndex"]


class VectorIndex:
    """Node vectors by id, searched exactly by cosine."""

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.ids: list[str] = []
        self.position: dict[str, int] = {}
        self._matrix = np.zeros((0, dimension), dtype=np.float32)

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.position

    @property
    def matrix(self) -> npt.NDArray[np.float32]:
        """The live rows, in the order of :attr:`ids`."""
        return self._matrix[: len(self.ids)]

    def put(self, node_ids: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        """Add or replace the vectors of ``node_ids`` (unit rows)."""
        if vectors.shape != (len(node_ids), self.dimension):
            raise ValueError(
                f"{len(node_ids)} ids need a ({len(node_ids)}, {self.dimension}) matrix, "
                f"not {vectors.shape}"
            )
        fresh = [n for n in dict.fromkeys(node_ids) if n not in self.position]
        need = len(self.ids) + len(fresh)
        if need > len(self._matrix):
            grown = np.zeros((max(need, 2 * len(self._matrix), 64), self.dimension), np.float32)
            grown[: len(self.ids)] = self.matrix
            self._matrix = grown
        for node_id in fresh:
            self.position[node_id] = len(self.ids)
            self.ids.append(node_id)
        rows = np.fromiter((self.position[n] for n in node_ids), np.int64, len(node_ids))
        self._matrix[rows] = vectors

    def remove(self, node_ids: Sequence[str]) -> None:
        """Drop the vectors of ``node_ids`` (ids not held are ignored)."""
        for node_id in node_ids:
            row = self.position.pop(node_id, None)
            if row is None:
                continue
            last = len(self.ids) - 1
            if row != last:
                moved = self.ids[last]
                self.ids[row] = moved
                self.position[moved] = row
                self._matrix[row] = self._matrix[last]
            self.ids.pop()

    def cosines(self, query: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The cosine of ``query`` (a unit vector) with every live row."""
        result: npt.NDArray[np.float32] = self.matrix @ query.astype(np.float32, copy=False)
        return result

    def top(
        self,
        query: npt.NDArray[np.float32],
        k: int,
        min_cosine: float = -1.0,
        keep: Callable[[str], bool] | None = None,
    ) -> list[tuple[str, float]]:
        """The ``k`` nearest ids to ``query`` with cosine ≥ ``min_cosine`` that ``keep``
        allows, nearest first, ties broken by id."""
        if k <= 0 or not self.ids:
            return []
        return self.top_of(self.cosines(query), k, min_cosine, keep)

    def top_of(
        self,
        scores: npt.NDArray[np.float32],
        k: int,
        min_cosine: float = -1.0,
        keep: Callable[[str], bool] | None = None,
    ) -> list[tuple[str, float]]:
        """:meth:`top` over cosines already computed (one per live row)."""
        if k <= 0 or not self.ids:
            return []
        candidates = np.flatnonzero(scores >= min_cosine)
        out: list[tuple[str, float]] = []
        # Take a few more than asked when filtering, and widen until k are kept.
        want = k
        while True:
            if len(candidates) > want:
                part = np.argpartition(-scores[candidates], want - 1)[:want]
                chosen = candidates[part]
            else:
                chosen = candidates
            # Ties at the cut are broken by id: every row tied with the last one chosen joins.
            if len(chosen) and len(chosen) < len(candidates):
                edge = scores[chosen].min()
                chosen = candidates[scores[candidates] >= edge]
            ranked = sorted((-float(scores[r]), self.ids[r]) for r in chosen.tolist())
            out = [(i, -s) for s, i in ranked if keep is None or keep(i)][:k]
            if len(out) >= k or len(chosen) == len(candidates):
                return out
            want *= 4
