"""Every edge of a SQLite store as columns, read fast: what ``edge_columns`` hands the
walk's in-memory adjacency.

Reading 1.7M edges as rows of six values costs the sqlite3 module a Python tuple and six
objects per row (2.3 s at 100k sections). Here SQLite packs each edge into one integer
(source key, target key, type code, valid, whether it carries its own weight) and joins a
page of them into one text, which numpy parses at once; only the edges that carry their
own weight (semantic links: a fifth of them) are read as rows, for the exact value. At
100k sections that is 0.6 s. The columns are those of ``read_edge_columns`` (the same
edges, types and weights, in another order: no order is promised).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from groundgraph.store.edge_columns import EdgeColumns, Query, columns_of_keys

__all__ = ["PAGE_IDS", "packed_edges", "read_packed_edge_columns"]

#: Edge ids per statement: the text of one page is about 12 bytes an edge.
PAGE_IDS = 1_000_000
#: The packed integer must stay a signed 64-bit one.
_BITS = 62


def read_packed_edge_columns(query: Query) -> EdgeColumns | None:
    """The store's edges through ``query`` (one read transaction), or None when its keys
    or type codes are too large to pack (the caller then reads rows)."""
    (top_key,), *_ = query("SELECT MAX(key) FROM nodes", ())
    kinds = query("SELECT code, name, weight FROM edge_types ORDER BY code", ())
    top_code = max((int(k[0]) for k in kinds), default=0)
    key_bits = max(int(top_key or 0).bit_length(), 1)
    code_bits = max(top_code.bit_length(), 1)
    if 2 * key_bits + code_bits + 2 > _BITS or min((int(k[0]) for k in kinds), default=0) < 0:
        return None
    packed = packed_edges(query, _pack(key_bits, code_bits))
    own = query(
        f"SELECT {_pack(key_bits, code_bits)}, weight FROM edges WHERE weight IS NOT NULL", ()
    )
    weighted = np.fromiter((row[0] for row in own), np.int64, count=len(own))
    rows = np.concatenate([packed[(packed & 1) == 0], weighted])  # own weights: as rows
    del packed
    code = (rows >> 2) & ((1 << code_bits) - 1)
    target = (rows >> (2 + code_bits)) & ((1 << key_bits) - 1)
    source = rows >> (2 + code_bits + key_bits)
    types = [""] * (top_code + 1)
    usual = np.full(top_code + 1, np.nan)
    for kind_code, name, weight in kinds:
        types[int(kind_code)] = str(name)
        usual[int(kind_code)] = np.nan if weight is None else float(weight)
    weight = usual[code]
    weight[len(rows) - len(own) :] = np.fromiter((float(r[1]) for r in own), float, len(own))
    valid = (rows & 2) != 0
    return columns_of_keys(query, types, source, target, code, weight, valid)


def _pack(key_bits: int, code_bits: int) -> str:
    """One edge as one integer: source, target, type code, valid, own weight (low bit)."""
    return (
        f"(((((src << {key_bits}) | dst) << {code_bits}) | type) << 2)"
        " | ((invalid_at IS NULL) << 1) | (weight IS NOT NULL)"
    )


def packed_edges(query: Query, expression: str) -> npt.NDArray[np.int64]:
    """``expression`` (an integer of an edge's columns) of every edge, read a page of ids
    at a time as one text each."""
    (low_id, top_id), *_ = query("SELECT MIN(id), MAX(id) FROM edges", ())
    pages: list[npt.NDArray[np.int64]] = []
    sql = f"SELECT group_concat({expression}) FROM edges WHERE id BETWEEN ? AND ?"
    for first in range(int(low_id or 0), int(top_id or 0) + 1, PAGE_IDS):
        (text,), *_ = query(sql, (first, first + PAGE_IDS - 1))
        if text:
            pages.append(np.fromstring(str(text), dtype=np.int64, sep=","))
    if len(pages) == 1:
        return pages[0]
    return np.concatenate(pages) if pages else np.zeros(0, dtype=np.int64)
