"""Every edge of a store as arrays, read in one state (``GraphReads.edge_columns``): what
an in-memory index of the whole graph (the walk's adjacency) is built from. One reading,
shared by the SQLite and PostgreSQL stores: both hand it a query function of one read
transaction."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from groundgraph.errors import StoreError
from groundgraph.model import EDGE_TYPES

__all__ = [
    "EDGE_PAGE",
    "EdgeColumns",
    "Query",
    "columns_of_keys",
    "node_places",
    "read_edge_columns",
]


@dataclass(frozen=True)
class EdgeColumns:
    """Every edge of one state of the store as columns, valid or not (an in-memory
    adjacency is built from them): each end as an index into ``node_ids``, the type as an
    index into ``types``, the weight, and whether it is valid (no ``invalid_at``), with
    the store's ``generation`` they are of."""

    generation: int
    node_ids: list[str]
    types: list[str]
    source: npt.NDArray[np.int64]
    target: npt.NDArray[np.int64]
    type_code: npt.NDArray[np.int64]
    weight: npt.NDArray[np.float64]
    valid: npt.NDArray[np.bool_]


#: A statement and its parameters, run in a read transaction of one state of the store.
Query = Callable[[str, Sequence[object]], list[tuple[Any, ...]]]
#: Edges read per statement: the rows of one page are made into an array, then dropped.
EDGE_PAGE = 100_000


def read_edge_columns(query: Query, mark: str, edges: str = "edges") -> EdgeColumns:
    """:meth:`GraphReads.edge_columns` through ``query`` (one state of the store), whose
    parameters are marked ``mark`` (``?`` or ``%s``); ``edges`` names the edge table, or
    a subquery with its columns ``id, src, dst, type, weight, invalid_at`` (the SQLite
    store's codes and usual weights turned back into names and numbers)."""
    # Types as their place among the known ones (a number reads faster than text); a
    # store holding another type is read again with its own list.
    types = list(EDGE_TYPES)
    table = _edge_table(query, mark, types, edges)
    if table is None:
        types = sorted(str(t) for (t,) in query(f"SELECT DISTINCT type FROM {edges}", ()))
        table = _edge_table(query, mark, types, edges)
    assert table is not None  # every type is in the list now
    return columns_of_keys(
        query,
        types,
        table[:, 0].astype(np.int64),
        table[:, 1].astype(np.int64),
        table[:, 2].astype(np.int64),
        table[:, 3].copy(),
        table[:, 4] != 0,
    )


def columns_of_keys(
    query: Query,
    types: list[str],
    source: npt.NDArray[np.int64],
    target: npt.NDArray[np.int64],
    type_code: npt.NDArray[np.int64],
    weight: npt.NDArray[np.float64],
    valid: npt.NDArray[np.bool_],
) -> EdgeColumns:
    """The columns of edges whose ends are given as store keys, with the generation and
    the node ids read through ``query`` (the same state the edges were read in)."""
    held = query("SELECT value FROM settings WHERE key = 'generation'", ())
    nodes = query("SELECT key, node_id FROM nodes", ())
    keys = np.fromiter((node[0] for node in nodes), np.int64, count=len(nodes))
    return EdgeColumns(
        generation=int(held[0][0]) if held and held[0][0] else 0,
        node_ids=[str(node[1]) for node in nodes],
        types=types,
        source=node_places(keys, source),
        target=node_places(keys, target),
        type_code=type_code,
        weight=weight,
        valid=valid,
    )


def _edge_table(
    query: Query, mark: str, types: list[str], edges: str
) -> npt.NDArray[np.float64] | None:
    """Every edge as a row of (source key, target key, place of its type in ``types``,
    weight, valid), page by page; None if a type is not in ``types``. Keys, places and
    flags are integers well inside a double's 53 bits: one float array holds them all
    exactly, with the weights."""
    case = " ".join(f"WHEN {mark} THEN {i}" for i in range(len(types)))
    sql = (
        f"SELECT src, dst, CASE type {case} ELSE -1 END, weight,"
        f" CASE WHEN invalid_at IS NULL THEN 1 ELSE 0 END, id FROM {edges}"
        f" WHERE id > {mark} ORDER BY id LIMIT {EDGE_PAGE}"
    )
    pages = [np.zeros((0, 6), dtype=np.float64)]
    last: object = -(2**62)
    while True:
        rows = query(sql, (*types, last))
        if not rows:
            break
        page = np.array(rows, dtype=np.float64)
        if (page[:, 2] < 0).any():
            return None
        pages.append(page)
        last = rows[-1][5]
        if len(rows) < EDGE_PAGE:
            break
    return np.concatenate(pages)[:, :5]


def node_places(keys: npt.NDArray[np.int64], ends: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The place in ``keys`` of each of the keys ``ends`` (every one must be there)."""
    wanted = ends.astype(np.int64, copy=False)  # the packed reads pass int64 already
    top = int(max(keys.max(initial=0), wanted.max(initial=0)))
    if keys.min(initial=0) >= 0 and top <= 2 * len(keys) + 1024:
        # Row ids, mostly dense: a lookup table instead of a binary search per edge.
        table = np.full(top + 1, -1, dtype=np.int64)
        table[keys] = np.arange(len(keys))
        found = table[wanted]
    elif len(keys):
        order = np.argsort(keys, kind="stable")
        at = np.minimum(np.searchsorted(keys[order], wanted), len(keys) - 1)
        found = np.where(keys[order[at]] == wanted, order[at], -1)
    else:
        found = np.full(len(wanted), -1, dtype=np.int64)
    if (found < 0).any():
        raise StoreError("an edge names a node that the store does not hold: the store is damaged")
    return found
