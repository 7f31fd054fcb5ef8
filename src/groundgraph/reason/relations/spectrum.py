"""The spectrum of a relation: whether it is a hierarchy, where its cycles are, and why
the Katz confidence is a resolvent.

For a relation's 0/1 adjacency matrix A (A[i, j] = 1 for a fact i → j):

- A is **nilpotent** (Aⁿ = 0 for n nodes) exactly when the relation has no cycle, and
  then its spectral radius ρ(A) is 0: a true hierarchy (parent, part_of, is_a) closes
  after at most n steps. Any cycle gives ρ(A) ≥ 1.
- Node i lies on a cycle exactly when (A + A² + … + Aⁿ)[i, i] > 0: a closed walk
  through it. ``cycle_members`` finds them from strongly connected components, which
  gives the same set without forming a power.
- With P = D⁻¹A (rows divided by their degree), the Katz confidence
  Σ_{k=1..K} αᵏPᵏ tends to the resolvent (I − αP)⁻¹ − I as K grows (ρ(P) ≤ 1, α < 1),
  and equals it exactly once K ≥ n when A is nilpotent (``diffusion_sum``).

These are the facts the relation verifier's confidence rests on (docs/relations.md,
"The relation spectrum"); the tests check each on random graphs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from groundgraph.errors import InputError

FloatArray = npt.NDArray[np.float64]


def _square(matrix: npt.ArrayLike) -> FloatArray:
    array = np.asarray(matrix, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise InputError(f"a relation matrix must be square, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise InputError("a relation matrix must hold finite numbers")
    return array


def spectral_radius(matrix: npt.ArrayLike) -> float:
    """ρ(M): the largest absolute value of M's eigenvalues (0.0 for an empty matrix)."""
    array = _square(matrix)
    if array.shape[0] == 0:
        return 0.0
    return float(np.max(np.abs(np.linalg.eigvals(array))))


def cycle_members(matrix: npt.ArrayLike) -> set[int]:
    """The indices of the nodes that lie on a cycle of M's 0/1 pattern (self-loops count)."""
    pattern = _square(matrix) != 0
    n = pattern.shape[0]
    if n == 0:
        return set()
    count, labels = connected_components(sp.csr_matrix(pattern), directed=True, connection="strong")
    sizes = np.bincount(labels, minlength=count)
    on_cycle = (sizes[labels] > 1) | np.diag(pattern)
    return {int(i) for i in np.flatnonzero(on_cycle)}


def is_acyclic(matrix: npt.ArrayLike) -> bool:
    """Whether M's 0/1 pattern has no cycle."""
    return not cycle_members(matrix)


def is_nilpotent(matrix: npt.ArrayLike) -> bool:
    """Whether the 0/1 pattern of M has Mⁿ = 0: exactly when it has no cycle (a walk of
    n steps must repeat a node), so this is decided on the graph, with no matrix power."""
    return is_acyclic(matrix)


def row_stochastic(matrix: npt.ArrayLike) -> FloatArray:
    """P = D⁻¹M: each row divided by its sum; rows that sum to zero stay zero."""
    array = _square(matrix)
    sums = array.sum(axis=1, keepdims=True)
    out = np.zeros_like(array)
    np.divide(array, sums, out=out, where=sums != 0)
    return out


def diffusion_sum(matrix: npt.ArrayLike, alpha: float, walk_len: int) -> FloatArray:
    """Σ_{k=1..K} αᵏMᵏ as a dense matrix (small graphs; the scorer never forms it)."""
    array = _square(matrix)
    total = np.zeros_like(array)
    power = np.eye(array.shape[0])
    for k in range(1, walk_len + 1):
        power = power @ array
        total += alpha**k * power
    return total


@dataclass(frozen=True)
class Spectrum:
    """What a relation's spectrum says about it, over the entities it connects."""

    relation: str | None  # None: every relation together
    nodes: tuple[str, ...]
    spectral_radius: float
    nilpotent: bool  # no cycle: a hierarchy that closes in at most len(nodes) steps
    cycle_members: tuple[str, ...]  # entities on some cycle, in ``nodes`` order

    def as_dict(self) -> dict[str, object]:
        return {
            "relation": self.relation,
            "nodes": len(self.nodes),
            "spectral_radius": round(self.spectral_radius, 6),
            "nilpotent": self.nilpotent,
            "cycle_members": list(self.cycle_members),
        }


def spectrum_of(
    relation: str | None, nodes: list[str], edges: list[tuple[str, str]], names: list[str]
) -> Spectrum:
    """The spectrum of the graph ``edges`` over ``nodes`` (keys), reported with ``names``."""
    index = {node: i for i, node in enumerate(nodes)}
    adjacency = np.zeros((len(nodes), len(nodes)))
    for a, b in edges:
        adjacency[index[a], index[b]] = 1.0
    members = cycle_members(adjacency)
    return Spectrum(
        relation=relation,
        nodes=tuple(names),
        spectral_radius=spectral_radius(adjacency),
        nilpotent=is_nilpotent(adjacency),
        cycle_members=tuple(names[i] for i in sorted(members)),
    )
