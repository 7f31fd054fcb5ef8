"""The walk's steps held in memory: every node's arcs, strongest first, as arrays.

A derived index (rebuilt from the store, never the only copy): :meth:`WalkAdjacency.build`
reads every edge once (``GraphReads.edge_columns``) and applies the rules the store's
``walk_arcs`` applies row by row (a hub of more than ``max_fanout`` edges gives no steps,
a hub's steps are damped by ``sqrt(HUB_DEGREE / degree)``, a node that more than
``max_fan_in`` edges point to gives no steps back). :meth:`WalkAdjacency.arcs` is then a
:data:`~groundgraph.walk.dijkstra.NeighbourFn`: each node's arcs are sorted by weight, so
the arcs that weigh at least the walk's bound are a prefix found by binary search, and a
walk reads no store at all. It gives every arc of ``walk_arcs`` that weighs the bound or
more (no other can lead anywhere the walk keeps), so the walk settles the same nodes with
the same paths.

Building it reads the whole edge table (1.4-1.6 s of CPU at 1.7M edges from SQLite, which
packs them, ``store.sqlite.edge_scan``), the cost of a few hundred walks through the
store: a process keeps one only once it has walked often (``search.walk_source``), and
drops it when the store's generation moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from groundgraph.model import PARENT_CHILD
from groundgraph.store.edge_columns import EdgeColumns
from groundgraph.walk.dijkstra import HUB_DEGREE, HUB_PREFIX, MAX_FAN_IN, MAX_FANOUT, Arc


@dataclass(frozen=True)
class WalkAdjacency:
    """Each node's arcs (node ``i``'s at ``start[i]:start[i + 1]``), heaviest first."""

    generation: int
    node_ids: list[str]
    position: dict[str, int]
    types: list[str]
    start: list[int]
    other: npt.NDArray[np.int32]
    weight: npt.NDArray[np.float64]  # after hub damping
    heaviness: npt.NDArray[np.float64]  # -weight: ascending along each node's arcs
    type_code: npt.NDArray[np.int16]
    upward: npt.NDArray[np.bool_]

    @classmethod
    def build(
        cls,
        columns: EdgeColumns,
        max_fanout: int = MAX_FANOUT,
        hub_prefix: str = HUB_PREFIX,
        max_fan_in: int | None = MAX_FAN_IN,
    ) -> WalkAdjacency:
        """The arcs ``walk_arcs(node_ids, max_fanout, hub_prefix, 0.0, max_fan_in)`` gives
        for every node of ``columns``, damped as ``arcs_from_steps`` damps them."""
        ids = columns.node_ids
        n = len(ids)
        src, dst = columns.source, columns.target
        # Edge counts, valid edges or not (as the store counts them from its indexes).
        fan_in = np.bincount(dst, minlength=n)
        edges = np.bincount(src, minlength=n) + fan_in
        hub = np.fromiter((i.startswith(hub_prefix) for i in ids), bool, count=n)
        is_open = ~hub | (edges <= max_fanout)
        back = is_open & (hub | (max_fan_in is None) | (fan_in <= (max_fan_in or 0)))
        usable = columns.valid & (src != dst)
        ahead = usable & is_open[src]
        behind = usable & back[dst]
        node = np.concatenate([src[ahead], dst[behind]])
        other = np.concatenate([dst[ahead], src[behind]])
        weight = np.concatenate([columns.weight[ahead], columns.weight[behind]])
        kind = np.concatenate([columns.type_code[ahead], columns.type_code[behind]])
        against = np.concatenate([np.zeros(ahead.sum(), bool), np.ones(behind.sum(), bool)])
        # As arcs_from_steps: a hub's degree is the number of its steps.
        degree = np.bincount(node, minlength=n)
        damped = hub & (degree > HUB_DEGREE)
        # math.sqrt(HUB_DEGREE / degree) in numpy: the same correctly rounded operations.
        factor = np.ones(n, dtype=np.float64)
        factor[damped] = np.sqrt(HUB_DEGREE / degree[damped].astype(np.float64))
        keep = ~(damped & (degree > MAX_FANOUT))[node]
        node, other, kind, against = node[keep], other[keep], kind[keep], against[keep]
        weight = weight[keep] * factor[node]
        order = np.lexsort((-weight, node))
        node, other, weight, kind, against = (
            node[order],
            other[order],
            weight[order],
            kind[order],
            against[order],
        )
        start = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(node, minlength=n), out=start[1:])
        codes = columns.types
        parent_child = codes.index(PARENT_CHILD) if PARENT_CHILD in codes else -1
        upward = against & (kind == parent_child)
        position = {node_id: i for i, node_id in enumerate(ids)}
        return cls(
            columns.generation,
            ids,
            position,
            codes,
            start.tolist(),
            other.astype(np.int32),
            weight,
            -weight,
            kind.astype(np.int16),
            upward,
        )

    def arcs(self, node_ids: Sequence[str], weakest: float) -> dict[str, list[Arc]]:
        """The arcs out of each of ``node_ids`` that weigh ``weakest`` or more (a hub's
        weight after damping), heaviest first; a node it does not hold has none."""
        out: dict[str, list[Arc]] = {}
        ids, types = self.node_ids, self.types
        for node_id in node_ids:
            i = self.position.get(node_id)
            if i is None:
                out[node_id] = []
                continue
            first, last = self.start[i], self.start[i + 1]
            # Weights fall along the slice: those at or above ``weakest`` come first.
            cut = first + int(np.searchsorted(self.heaviness[first:last], -weakest, "right"))
            out[node_id] = [
                Arc(ids[o], w, types[k], up)
                for o, w, k, up in zip(
                    self.other[first:cut].tolist(),
                    self.weight[first:cut].tolist(),
                    self.type_code[first:cut].tolist(),
                    self.upward[first:cut].tolist(),
                    strict=True,
                )
            ]
        return out

    def __len__(self) -> int:
        return len(self.node_ids)
