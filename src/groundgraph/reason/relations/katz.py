"""Katz confidence: how strongly the graph connects a to b, summed over walk lengths.

    conf(a, b) = Σ_{k=1..K} αᵏ (Pᵏ)[a, b],    P = D⁻¹W (each row of W divided by its degree)

W holds edge weights (how often a pair was asserted); D is each node's out-degree, or a
degree given from outside (``masked_infer`` passes the degree *before* pruning, so
removing an edge removes confidence instead of moving it to the node's other edges).
The sum is computed by K sparse vector–matrix products from the source, never by forming
Pᵏ. As K → ∞ it tends to the Katz resolvent (I − αP)⁻¹ − I whenever α·ρ(P) < 1.

It is a path-strength score, **not a probability**: a node with a self-loop scores
Σαᵏ ≈ 1.47 with itself. Since every row of P sums to at most 1, (Pᵏ)[a, b] ≤ 1 and the
sum is at most ``katz_bound(α, K)`` = Σ_{k=1..K} αᵏ; dividing by it gives the normalised
score in [0, 1] (a fixed rescaling, so it ranks exactly as the raw score does).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from groundgraph.errors import InputError
from groundgraph.reason.relations.spectrum import spectral_radius

FloatArray = npt.NDArray[np.float64]


def katz_bound(alpha: float, walk_len: int) -> float:
    """The largest possible Katz sum, Σ_{k=1..K} αᵏ: the normaliser of the [0, 1] score."""
    return float(sum(alpha**k for k in range(1, walk_len + 1)))


def check_katz_parameters(alpha: float, walk_len: int) -> None:
    """Raise InputError unless 0 < alpha ≤ 1 and walk_len is a positive integer."""
    if isinstance(walk_len, bool) or not isinstance(walk_len, int) or walk_len < 1:
        raise InputError(f"walk_len must be a positive integer, got {walk_len!r}")
    if not 0.0 < alpha <= 1.0:
        raise InputError(f"alpha must be in (0, 1], got {alpha!r}")


def katz_resolvent(matrix: FloatArray, alpha: float) -> FloatArray:
    """(I − αM)⁻¹ − I, the infinite Katz sum; InputError unless α·ρ(M) < 1."""
    n = matrix.shape[0]
    radius = spectral_radius(matrix)
    if alpha * radius >= 1.0:
        raise InputError(
            f"the Katz series diverges: alpha * spectral radius = {alpha * radius:.4g} ≥ 1; "
            "use a smaller alpha"
        )
    eye = np.eye(n)
    return np.asarray(np.linalg.inv(eye - alpha * matrix) - eye, dtype=np.float64)


class KatzScorer:
    """Katz confidences over a weighted directed graph; immutable once built."""

    def __init__(
        self,
        weights: Mapping[tuple[str, str], float],
        alpha: float = 0.6,
        walk_len: int = 8,
        degree: Mapping[str, float] | None = None,
    ) -> None:
        check_katz_parameters(alpha, walk_len)
        self.alpha = alpha
        self.walk_len = walk_len
        index: dict[str, int] = {}
        for a, b in weights:
            index.setdefault(a, len(index))
            index.setdefault(b, len(index))
        self._index = index
        n = len(index)
        rows = np.fromiter((index[a] for a, _ in weights), dtype=np.int64, count=len(weights))
        cols = np.fromiter((index[b] for _, b in weights), dtype=np.int64, count=len(weights))
        vals = np.fromiter(weights.values(), dtype=np.float64, count=len(weights))
        if np.any(vals <= 0) or not np.all(np.isfinite(vals)):
            raise InputError("edge weights must be positive finite numbers")
        w = sp.csr_matrix((vals, (rows, cols)), shape=(n, n))
        out_degree = np.asarray(w.sum(axis=1)).ravel()
        if degree is not None:
            given = np.array([degree.get(name, 0.0) for name in index], dtype=np.float64)
            out_degree = np.maximum(out_degree, given)
        inverse = np.divide(1.0, out_degree, out=np.zeros(n), where=out_degree > 0)
        # Transposed once, so each propagation step is one CSR product from the left.
        self._transition_t = sp.csr_matrix((sp.diags(inverse) @ w).T)
        self._adjacency_t = sp.csr_matrix((w > 0).astype(np.int64).T)
        self._cache: dict[int, FloatArray] = {}

    def _scores(self, source: int) -> FloatArray:
        cached = self._cache.get(source)
        if cached is not None:
            return cached
        x = np.zeros(len(self._index))
        x[source] = 1.0
        total = np.zeros_like(x)
        factor = 1.0
        for _ in range(self.walk_len):
            x = self._transition_t @ x
            factor *= self.alpha
            total += factor * x
        if len(self._cache) >= 1024:
            self._cache.clear()
        self._cache[source] = total
        return total

    def confidence(self, subject: str, obj: str) -> float:
        """The Katz sum from subject to obj; 0.0 if either is not in the graph."""
        i, j = self._index.get(subject), self._index.get(obj)
        if i is None or j is None:
            return 0.0
        return float(self._scores(i)[j])

    def normalized_confidence(self, subject: str, obj: str) -> float:
        """The Katz sum divided by its largest possible value: a score in [0, 1]."""
        return min(1.0, self.confidence(subject, obj) / katz_bound(self.alpha, self.walk_len))

    def path_multiplicity(
        self, subject: str, obj: str, max_len: int | None = None, cap: int = 5
    ) -> int:
        """How many walks of 1..max_len steps lead from subject to obj, counted up to cap.

        Counts are clipped at ``cap`` after every step, which keeps them small and still
        gives exactly min(true count, cap).
        """
        i, j = self._index.get(subject), self._index.get(obj)
        if i is None or j is None:
            return 0
        x = np.zeros(len(self._index), dtype=np.int64)
        x[i] = 1
        found = 0
        for _ in range(max_len if max_len is not None else self.walk_len):
            x = np.minimum(self._adjacency_t @ x, cap)
            found = min(cap, found + int(x[j]))
            if found >= cap or not x.any():
                break
        return found

    def transition_matrix(self) -> FloatArray:
        """P as a dense array, rows and columns in ``nodes()`` order (for small graphs)."""
        return np.asarray(self._transition_t.T.toarray(), dtype=np.float64)

    def nodes(self) -> list[str]:
        """Node names in matrix order."""
        return list(self._index)
