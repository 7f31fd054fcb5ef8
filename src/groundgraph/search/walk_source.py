"""Where a search's walk reads its arcs: the store, or the adjacency held in memory.

A walk through the store asks it for the arcs of the few nodes it expands (a one-shot
search reads a few hundred rows); the in-memory adjacency (:mod:`walk.adjacency`) answers
without a store query but costs a read of every edge to build, about as much as a few
hundred walks through the store at 100k sections. So a :class:`WalkSource` walks through
the store until this process has spent ``build_share`` of the adjacency's expected build
time doing so at one store generation (rent, then buy), then builds it, and drops it when
the generation moves: a CLI search never builds it, a service does after its first
queries. Both give the same walk (``tests/walk/test_adjacency.py``).
"""

from __future__ import annotations

import gc
import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from groundgraph.store.base import Store
from groundgraph.walk.adjacency import WalkAdjacency
from groundgraph.walk.dijkstra import (
    HUB_PREFIX,
    MAX_FAN_IN,
    MAX_FANOUT,
    Arc,
    NeighbourFn,
    arcs_from_steps,
)

#: Seconds an adjacency takes to build per node of the lexical index (measured at 100k
#: sections: 1.4-1.6 s for 113k indexed nodes, 191k nodes, 1.7M edges, since the SQLite
#: store reads its edges packed; 2.5-3.3 s before), until this process has built one and
#: knows its own figure.
BUILD_SECONDS_PER_NODE = 13e-6
#: The adjacency is built once walks through the store have cost this share of its
#: expected build time.
BUILD_SHARE = 0.25


@dataclass(frozen=True)
class WalkArcs:
    """The arcs of one walk, and whether the walk should fetch them in batches (from the
    store: fewer queries) or one node at a time (from memory: no query to save)."""

    neighbours: NeighbourFn
    prefetch: bool


class WalkSource:
    """The arcs a default (unscoped) walk reads, from the store or from memory."""

    def __init__(self, store: Store, build_share: float = BUILD_SHARE) -> None:
        self.store = store
        self.build_share = build_share
        self.seconds_per_node = BUILD_SECONDS_PER_NODE
        self._adjacency: WalkAdjacency | None = None
        self._generation = -1
        self._spent = 0.0  # seconds of store walks at this generation
        self._building = threading.Lock()

    def arcs(self, generation: int, indexed_nodes: int) -> WalkArcs:
        """The arcs for one walk at the store's ``generation`` (that of the caller's
        indexes, which hold ``indexed_nodes`` nodes)."""
        if generation != self._generation:
            self._adjacency, self._generation, self._spent = None, generation, 0.0
        adjacency = self._adjacency
        budget = self.build_share * self.seconds_per_node * max(indexed_nodes, 1)
        if adjacency is None and self._spent >= budget:
            adjacency = self._build(generation, indexed_nodes)
        if adjacency is not None:
            return WalkArcs(adjacency.arcs, prefetch=False)
        return WalkArcs(self._from_store, prefetch=True)

    def adjacency(self) -> WalkAdjacency | None:
        """The adjacency in use, if one is built."""
        return self._adjacency

    def _from_store(self, node_ids: Sequence[str], weakest: float) -> dict[str, list[Arc]]:
        start = time.perf_counter()
        try:
            reads = self.store.reads
            steps = reads.walk_arcs(node_ids, MAX_FANOUT, HUB_PREFIX, weakest, MAX_FAN_IN)
            return arcs_from_steps(steps, node_ids)
        finally:
            self._spent += time.perf_counter() - start

    def _build(self, generation: int, indexed_nodes: int) -> WalkAdjacency | None:
        if not self._building.acquire(blocking=False):
            return None  # another thread builds it: this walk reads the store
        try:
            start = time.perf_counter()
            collecting = gc.isenabled()
            gc.disable()  # millions of row tuples, none of them cyclic garbage
            try:
                adjacency = WalkAdjacency.build(self.store.reads.edge_columns())
            finally:
                if collecting:
                    gc.enable()
            self.seconds_per_node = (time.perf_counter() - start) / max(indexed_nodes, 1)
            if adjacency.generation != generation:
                # Written meanwhile: no second build at this generation (walks at the
                # next one decide), so a store that moves on often never pays twice.
                self._spent = -math.inf
                return None
            self._adjacency = adjacency
            return adjacency
        finally:
            self._building.release()
