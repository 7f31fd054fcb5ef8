"""The NodeVectors protocol: one embedding per node, kept beside the node.

A vector belongs to its node: it goes when the node goes (the document is removed or
replaced), in the same transaction. Writing vectors bumps no generation: they are
written with their document, inside the document's batch (``DocumentWrites.batch``), so
whoever sees the document's generation sees its vectors too. Which embedder made them
(name and dimension) is a setting (``Settings``), checked by the graph on open.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

__all__ = ["NodeVectors", "StoredVectors"]

#: What ``load_vectors`` gives: node ids, their document ids, and one float32 row each.
StoredVectors = tuple[list[str], list[str], npt.NDArray[np.float32]]


@runtime_checkable
class NodeVectors(Protocol):
    """Float32 vectors by node id."""

    def save_vectors(self, node_ids: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        """Keep one row of ``vectors`` per stored node of ``node_ids``, replacing any, in one
        transaction (a savepoint inside ``batch``). A node id the store does not hold
        raises :class:`~groundgraph.errors.InputError` and writes nothing."""
        ...

    def load_vectors(self, doc_ids: Sequence[str] | None = None) -> StoredVectors:
        """The vectors of the nodes of ``doc_ids`` (None: of every node), in node order;
        with none, a matrix of shape (0, 0)."""
        ...

    def vector_count(self) -> int:
        """How many nodes have a vector."""
        ...
