"""Node vectors of a SQLite store (``NodeVectors``): the ``node_vectors`` table, one
float32 blob per node key; a trigger removes a node's vector with the node."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
import numpy.typing as npt

from groundgraph.errors import InputError
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.damage import damage_is_store_error
from groundgraph.store.sqlite.rows import int_of, json_list, node_keys
from groundgraph.store.vectors import StoredVectors

__all__ = ["SQLiteNodeVectors"]


@damage_is_store_error
class SQLiteNodeVectors:
    """Vectors as little-endian float32 blobs, keyed by the node's integer key."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def save_vectors(self, node_ids: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        if len(vectors) != len(node_ids):
            raise InputError(f"{len(node_ids)} node ids need as many vectors, not {len(vectors)}")
        rows = np.ascontiguousarray(vectors, dtype="<f4")
        with self._db.write() as conn:
            keys = node_keys(conn, node_ids)
            missing = [n for n in node_ids if n not in keys]
            if missing:
                raise InputError(f"a vector for {missing[0]!r}: no such node; add it first")
            conn.executemany(
                "INSERT OR REPLACE INTO node_vectors(node, vector) VALUES (?, ?)",
                [(keys[n], rows[i].tobytes()) for i, n in enumerate(node_ids)],
            )

    def load_vectors(self, doc_ids: Sequence[str] | None = None) -> StoredVectors:
        sql = (
            "SELECT n.node_id, COALESCE(d.doc_id, ''), v.vector FROM node_vectors v"
            " JOIN nodes n ON n.key = v.node LEFT JOIN documents d ON d.seq = n.doc"
        )
        params: tuple[object, ...] = ()
        if doc_ids is not None:
            sql += " WHERE d.doc_id IN (SELECT value FROM json_each(?))"
            params = (json_list(list(doc_ids)),)
        rows = self._db.query(sql + " ORDER BY n.doc, n.seq", params)
        if not rows:
            return [], [], np.zeros((0, 0), dtype=np.float32)
        matrix = np.vstack([np.frombuffer(cast(bytes, r[2]), dtype="<f4") for r in rows])
        return [str(r[0]) for r in rows], [str(r[1]) for r in rows], matrix.astype(np.float32)

    def vector_count(self) -> int:
        return int_of(self._db.query("SELECT COUNT(*) FROM node_vectors")[0][0])
