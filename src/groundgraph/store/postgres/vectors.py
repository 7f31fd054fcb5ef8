"""Node vectors of a PostgreSQL store (``NodeVectors``): a pgvector ``vector`` column
(float4, so a float32 row reads back exactly), one row per node key, removed with its
node by a cascading foreign key in the deleting transaction.

The protocol reads vectors back whole (the graph searches them in memory, as with
SQLite), so no query here cuts a top-k. For a server-side nearest-neighbour query the
store keeps an HNSW index (``vector_cosine_ops``) per dimension saved: pgvector indexes a
fixed dimension, so it is an expression index on ``vector::vector(d)``, made (once, under
the write lock) when vectors of dimension ``d`` are first saved.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from pgvector import Vector

from groundgraph.errors import InputError
from groundgraph.store.postgres.connection import Connection, Database
from groundgraph.store.postgres.faults import server_errors_are_store_errors
from groundgraph.store.postgres.rows import node_keys
from groundgraph.store.vectors import StoredVectors

__all__ = ["PostgresNodeVectors"]

#: pgvector's HNSW index takes at most this many dimensions.
_HNSW_MAX_DIM = 2000


@server_errors_are_store_errors
class PostgresNodeVectors:
    """Vectors in a ``vector`` column, keyed by the node's integer key."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def save_vectors(self, node_ids: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        if len(vectors) != len(node_ids):
            raise InputError(f"{len(node_ids)} node ids need as many vectors, not {len(vectors)}")
        rows = np.ascontiguousarray(vectors, dtype=np.float32)

        def work(conn: Connection) -> None:
            keys = node_keys(conn, node_ids)
            missing = [n for n in node_ids if n not in keys]
            if missing:
                raise InputError(f"a vector for {missing[0]!r}: no such node; add it first")
            if not len(node_ids):
                return
            _index_dimension(conn, rows.shape[1])
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO node_vectors(node, vector) VALUES (%s, %s)"
                    " ON CONFLICT(node) DO UPDATE SET vector = excluded.vector",
                    [(keys[n], Vector(rows[i])) for i, n in enumerate(node_ids)],
                )

        self._db.transact(work)

    def load_vectors(self, doc_ids: Sequence[str] | None = None) -> StoredVectors:
        sql = (
            "SELECT n.node_id, COALESCE(d.doc_id, ''), v.vector FROM node_vectors v"
            " JOIN nodes n ON n.key = v.node LEFT JOIN documents d ON d.seq = n.doc"
        )
        params: tuple[object, ...] = ()
        if doc_ids is not None:
            sql += " WHERE d.doc_id = ANY(%s)"
            params = (list(doc_ids),)
        rows = self._db.query(sql + " ORDER BY n.doc, n.seq", params)
        if not rows:
            return [], [], np.zeros((0, 0), dtype=np.float32)
        matrix = np.vstack([np.asarray(_array(r[2]), dtype=np.float32) for r in rows])
        return [str(r[0]) for r in rows], [str(r[1]) for r in rows], matrix

    def vector_count(self) -> int:
        return int(self._db.query("SELECT COUNT(*) FROM node_vectors")[0][0])


def _array(value: object) -> npt.NDArray[np.float32]:
    if isinstance(value, Vector):
        return np.asarray(value.to_numpy(), dtype=np.float32)
    return np.asarray(value, dtype=np.float32)


def _index_dimension(conn: Connection, dim: int) -> None:
    """Make the HNSW cosine index for vectors of ``dim`` dimensions, if not made yet."""
    if not 0 < dim <= _HNSW_MAX_DIM:
        return
    name = f"node_vectors_hnsw_{dim}"
    found = conn.execute(
        "SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = %s",
        (name,),
    ).fetchone()
    if found is None:
        conn.execute(
            f"CREATE INDEX {name} ON node_vectors USING hnsw"
            f" ((vector::vector({dim})) vector_cosine_ops) WHERE vector_dims(vector) = {dim}"
        )
