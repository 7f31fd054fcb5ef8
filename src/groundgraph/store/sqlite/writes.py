"""Document writes of a SQLite store (``DocumentWrites``): one ``BEGIN IMMEDIATE``
transaction (a savepoint inside ``batch``) and one generation bump per document.

This is the indexing path: rows are built in one comprehension per table and written
with ``executemany``; keep per-row work out of it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager

from groundgraph.errors import NotFoundError
from groundgraph.model import Document, Edge, Node
from groundgraph.model.store_records import PendingLink, Removal
from groundgraph.store.sqlite.changes import SQLiteChangeLog
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.rows import NODE_COLUMNS as _NODE_COLUMNS
from groundgraph.store.sqlite.rows import insert_edges, now_iso
from groundgraph.store.sqlite.rows import json_list as _json_list

__all__ = ["SQLiteDocumentWrites"]


class SQLiteDocumentWrites:
    """Replaces, extends and removes whole documents; bumps the change log in the same
    transaction."""

    def __init__(self, db: Database, changes: SQLiteChangeLog) -> None:
        self._db = db
        self._changes = changes

    def batch(self) -> AbstractContextManager[None]:
        return self._db.batch()

    def replace_document(
        self,
        document: Document,
        nodes: Sequence[Node],
        edges: Sequence[Edge],
        pending: Sequence[PendingLink] = (),
        entities: Sequence[Node] = (),
    ) -> tuple[int, Removal | None]:
        stamp = now_iso()
        doc_id = document.doc_id
        with self._db.write() as conn:
            seq, exists = conn.execute(
                "SELECT (SELECT COALESCE(MAX(seq), 0) + 1 FROM documents),"
                " EXISTS (SELECT 1 FROM documents WHERE doc_id = ?)",
                (doc_id,),
            ).fetchone()
            removed = None
            if exists:
                removed = self._delete_document(conn, doc_id)
                seq = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM documents").fetchone()[0]
            conn.execute(
                "INSERT INTO documents(doc_id, title, description, source, content_hash, scopes,"
                " added_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    doc_id,
                    document.title,
                    document.description,
                    document.source,
                    document.content_hash,
                    _json_list(document.scopes),
                    document.added_at or stamp,
                    seq,
                ),
            )
            conn.executemany(
                f"INSERT INTO nodes({_NODE_COLUMNS}, seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (
                        n.node_id,
                        n.doc_id,
                        n.kind,
                        n.title,
                        n.content,
                        n.level,
                        n.parent_id,
                        n.span[0],
                        n.span[1],
                        _json_list(n.scopes),
                        n.created_at or stamp,
                        n.invalid_at,
                        i,
                    )
                    for i, n in enumerate(nodes)
                ],
            )
            insert_edges(conn, doc_id, edges, stamp)
            if entities:
                self._insert_entities(conn, entities, stamp)
            if pending:
                conn.executemany(
                    "INSERT INTO doc_links(node_id, doc_id, target) VALUES (?, ?, ?)",
                    [(p.node_id, p.doc_id, p.target) for p in pending],
                )
            generation = self._changes.bump(conn, doc_id)
        return generation, removed

    @staticmethod
    def _insert_entities(conn: sqlite3.Connection, entities: Sequence[Node], stamp: str) -> None:
        conn.executemany(
            f"INSERT OR IGNORE INTO nodes({_NODE_COLUMNS}, seq) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,(SELECT COALESCE(MAX(seq), 0) + 1 FROM nodes"
            " WHERE doc_id = ''))",
            [
                (
                    n.node_id,
                    "",
                    "entity",
                    n.title,
                    n.content,
                    n.level,
                    None,
                    n.span[0],
                    n.span[1],
                    _json_list(n.scopes),
                    n.created_at or stamp,
                    n.invalid_at,
                )
                for n in entities
            ],
        )

    def add_edges(self, doc_id: str, edges: Sequence[Edge], entities: Sequence[Node] = ()) -> int:
        stamp = now_iso()
        with self._db.write() as conn:
            if (
                conn.execute("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
                is None
            ):
                raise NotFoundError(f"unknown document {doc_id!r}: add it before its edges")
            self._insert_entities(conn, entities, stamp)
            insert_edges(conn, doc_id, edges, stamp)
            return self._changes.bump(conn, doc_id)

    def remove_document(self, doc_id: str) -> Removal | None:
        with self._db.write() as conn:
            removed = self._delete_document(conn, doc_id)
            if removed is not None:
                self._changes.bump(conn, doc_id)
        return removed

    def _delete_document(self, conn: sqlite3.Connection, doc_id: str) -> Removal | None:
        if conn.execute("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone() is None:
            return None
        node_ids = tuple(
            r[0]
            for r in conn.execute(
                "SELECT node_id FROM nodes WHERE doc_id = ? ORDER BY seq", (doc_id,)
            )
        )
        touching = (
            "doc_id = :doc OR source IN (SELECT node_id FROM nodes WHERE doc_id = :doc) "
            "OR target IN (SELECT node_id FROM nodes WHERE doc_id = :doc)"
        )
        edges = tuple(
            (str(s), str(t), str(k))
            for s, t, k in conn.execute(
                f"SELECT source, target, type FROM edges WHERE {touching} ORDER BY id",
                {"doc": doc_id},
            )
        )
        conn.execute(f"DELETE FROM edges WHERE {touching}", {"doc": doc_id})
        conn.execute("DELETE FROM nodes WHERE doc_id = ?", (doc_id,))
        # Entities belong to no document: one goes when no edge touches it any more.
        ends = sorted({s for s, _, _ in edges} | {t for _, t, _ in edges})
        orphans = [
            str(r[0])
            for r in conn.execute(
                "SELECT node_id FROM nodes WHERE kind = 'entity'"
                " AND node_id IN (SELECT value FROM json_each(?))"
                " AND NOT EXISTS (SELECT 1 FROM edges WHERE source = nodes.node_id)"
                " AND NOT EXISTS (SELECT 1 FROM edges WHERE target = nodes.node_id)"
                " ORDER BY seq",
                (_json_list(ends),),
            )
        ]
        conn.execute(
            "DELETE FROM nodes WHERE node_id IN (SELECT value FROM json_each(?))",
            (_json_list(orphans),),
        )
        node_ids = node_ids + tuple(orphans)
        conn.execute("DELETE FROM doc_links WHERE doc_id = ?", (doc_id,))
        conn.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
        return Removal(doc_id, node_ids, edges)
