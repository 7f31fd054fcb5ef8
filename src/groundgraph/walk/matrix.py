"""The whole graph as a sparse matrix: the derived form that global walkers need.

Built from the store's valid edges, both directions of each; a step from a child up to
its parent keeps the walk's discount. Between two nodes only the strongest step counts:
parallel edges do not add up. Rebuilt when the store's generation moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from scipy import sparse

from groundgraph.model import EDGE_TYPES, PARENT_CHILD, Edge


@dataclass(frozen=True)
class GraphMatrix:
    """CSR adjacency: row i lists the steps out of node i with their factor and edge type."""

    node_ids: list[str]
    position: dict[str, int]
    indptr: npt.NDArray[np.int64]
    indices: npt.NDArray[np.int64]
    weight: npt.NDArray[np.float64]
    kind: npt.NDArray[np.int64]  # 1 + index into EDGE_TYPES (0: a type we do not know)
    # Cached derived forms: [weights CSR, transposed transition, dangling mask].
    _csr: list[Any] = field(default_factory=list, repr=False, compare=False)
    # Cached: each step's share of its node's total step weight.
    _shares: list[npt.NDArray[np.float64]] = field(default_factory=list, repr=False, compare=False)

    @classmethod
    def from_edges(cls, edges: Iterable[Edge], up_factor: float = 0.5) -> GraphMatrix:
        position: dict[str, int] = {}
        rows: list[int] = []
        cols: list[int] = []
        vals: list[float] = []
        kinds: list[int] = []
        type_code = {t: i + 1 for i, t in enumerate(EDGE_TYPES)}
        for edge in edges:
            if edge.invalid_at is not None or edge.source == edge.target:
                continue
            a = position.setdefault(edge.source, len(position))
            b = position.setdefault(edge.target, len(position))
            code = type_code.get(edge.type, 0)
            up = up_factor if edge.type == PARENT_CHILD else 1.0
            rows += [a, b]
            cols += [b, a]
            vals += [edge.weight, edge.weight * up]
            kinds += [code, code]
        r = np.asarray(rows, dtype=np.int64)
        c = np.asarray(cols, dtype=np.int64)
        v = np.asarray(vals, dtype=np.float64)
        k = np.asarray(kinds, dtype=np.int64)
        # Sort by (row, col), strongest first, and keep the first entry of each pair.
        order = np.lexsort((-v, c, r))
        r, c, v, k = r[order], c[order], v[order], k[order]
        first = np.ones(len(r), dtype=bool)
        first[1:] = (r[1:] != r[:-1]) | (c[1:] != c[:-1])
        r, c, v, k = r[first], c[first], v[first], k[first]
        n = len(position)
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(r, minlength=n), out=indptr[1:])
        return cls(list(position), position, indptr, c, v, k)

    def __len__(self) -> int:
        return len(self.node_ids)

    @property
    def weights(self) -> sparse.csr_matrix:
        """The step factors as a scipy CSR matrix."""
        if not self._csr:
            from scipy import sparse  # only global walkers need it; keeps start-up fast

            n = len(self.node_ids)
            self._csr.append(
                sparse.csr_matrix((self.weight, self.indices, self.indptr), shape=(n, n))
            )
        return self._csr[0]

    def transition(self) -> tuple[sparse.csr_matrix, npt.NDArray[np.bool_]]:
        """The transposed row-normalised matrix, and which nodes have no steps (cached)."""
        if len(self._csr) < 3:
            weights = self.weights
            n = len(self.node_ids)
            out = np.asarray(weights.sum(axis=1)).ravel()
            dangling = out == 0
            inv = np.divide(1.0, out, out=np.zeros(n), where=~dangling)
            self._csr.append(weights.multiply(inv[:, None]).T.tocsr())
            self._csr.append(dangling)
        return self._csr[1], self._csr[2]

    def step_shares(
        self,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """The CSR rows (indptr, targets) with each step's share of its row's weight: the
        transition probabilities of a random walk (cached)."""
        if not self._shares:
            n = len(self.node_ids)
            row = np.repeat(np.arange(n), np.diff(self.indptr))
            totals = np.bincount(row, weights=self.weight, minlength=n)
            self._shares.append(self.weight / totals[row])
        return self.indptr, self.indices, self._shares[0]

    def steps(self, pos: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], list[str]]:
        """Targets, factors and edge types of the steps out of the node at ``pos``."""
        start, end = int(self.indptr[pos]), int(self.indptr[pos + 1])
        names = [EDGE_TYPES[k - 1] if k > 0 else "unknown" for k in self.kind[start:end].tolist()]
        return self.indices[start:end], self.weight[start:end], names
