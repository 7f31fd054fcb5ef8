"""Document writes of a PostgreSQL store (``DocumentWrites``): one transaction holding
the store's write lock (a savepoint inside ``batch``) and one generation bump per
document, with the rows the SQLite store writes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Any

from groundgraph.errors import InputError, NotFoundError
from groundgraph.model import Document, Edge, Node
from groundgraph.model.ids import spelling_order
from groundgraph.model.store_records import PendingLink, Removal
from groundgraph.store.postgres.changes import PostgresChangeLog
from groundgraph.store.postgres.connection import Connection, Database
from groundgraph.store.postgres.faults import server_errors_are_store_errors
from groundgraph.store.postgres.rows import (
    NODE_COLUMNS,
    copy_rows,
    insert_edges,
    json_list,
    node_keys,
    now_iso,
)

__all__ = ["PostgresDocumentWrites"]


@server_errors_are_store_errors
class PostgresDocumentWrites:
    """Replaces, extends and removes whole documents; bumps the change log in the same
    transaction."""

    def __init__(self, db: Database, changes: PostgresChangeLog) -> None:
        self._db = db
        self._changes = changes

    def batch(self) -> AbstractContextManager[None]:
        return self._db.batch()

    def filling(self) -> AbstractContextManager[None]:
        # Other processes write and read the same tables meanwhile: the indexes stay.
        return nullcontext()

    def replace_document(
        self,
        document: Document,
        nodes: Sequence[Node],
        edges: Sequence[Edge],
        pending: Sequence[PendingLink] = (),
        entities: Sequence[Node] = (),
    ) -> tuple[int, Removal | None]:
        _check_distinct(document.doc_id, nodes)
        return self._db.transact(
            lambda conn: self._replace(conn, document, nodes, edges, pending, entities)
        )

    def _replace(
        self,
        conn: Connection,
        document: Document,
        nodes: Sequence[Node],
        edges: Sequence[Edge],
        pending: Sequence[PendingLink],
        entities: Sequence[Node],
    ) -> tuple[int, Removal | None]:
        stamp = now_iso()
        doc_id = document.doc_id
        removed = self._delete_document(conn, doc_id)
        added = document.added_at or stamp
        # One round trip: the document after every other, and where node keys go on.
        row = conn.execute(
            "INSERT INTO documents(doc_id, title, description, source, content_hash, scopes,"
            " added_at, seq, metadata, ingest) VALUES (%s,%s,%s,%s,%s,%s,%s,"
            " (SELECT COALESCE(MAX(seq), 0) + 1 FROM documents), %s,%s)"
            " RETURNING seq, (SELECT COALESCE(MAX(key), 0) FROM nodes)",
            (
                doc_id,
                document.title,
                document.description,
                document.source,
                document.content_hash,
                json_list(document.scopes),
                added,
                json.dumps([list(pair) for pair in document.metadata], ensure_ascii=False),
                document.ingest,
            ),
        ).fetchone()
        assert row is not None
        seq, base = int(row[0]), int(row[1])
        keys = self._insert_nodes(conn, doc_id, seq, added, nodes, stamp, base)
        if entities:
            self._insert_entities(conn, entities, stamp)
        insert_edges(conn, doc_id, edges, stamp, (seq, added, keys))
        if pending:
            keys |= node_keys(conn, (p.node_id for p in pending if p.node_id not in keys))
            missing = [p.node_id for p in pending if p.node_id not in keys]
            if missing:
                raise InputError(f"a pending link starts at {missing[0]!r}: no such node")
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO doc_links(node, doc, target) VALUES (%s, %s, %s)",
                    [(keys[p.node_id], seq, p.target) for p in pending],
                )
        return self._changes.bump(conn, doc_id), removed

    @staticmethod
    def _insert_nodes(
        conn: Connection,
        doc_id: str,
        doc: int,
        added: str,
        nodes: Sequence[Node],
        stamp: str,
        base: int,
    ) -> dict[str, int]:
        """Insert a document's nodes under the keys after ``base``; the keys by node id."""
        strays = [n.node_id for n in nodes if n.doc_id != doc_id]
        if strays:
            raise InputError(f"node {strays[0]!r} of document {doc_id!r} names another document")
        keys = {n.node_id: base + 1 + i for i, n in enumerate(nodes)}
        outside = [
            n.parent_id for n in nodes if n.parent_id is not None and n.parent_id not in keys
        ]
        parents = keys | (node_keys(conn, outside) if outside else {})
        lost = [p for p in outside if p not in parents]
        if lost:
            raise InputError(f"a node of {doc_id!r} has parent {lost[0]!r}: no such node")
        rows: list[tuple[Any, ...]] = [
            (
                keys[n.node_id],
                n.node_id,
                doc,
                i,
                n.kind,
                n.title,
                n.content,
                n.level,
                parents[n.parent_id] if n.parent_id else None,
                n.span[0],
                n.span[1],
                json_list(n.scopes),
                "" if (n.created_at or stamp) == added else (n.created_at or stamp),
                n.invalid_at,
            )
            for i, n in enumerate(nodes)
        ]
        copy_rows(conn, f"nodes({NODE_COLUMNS})", rows)
        return keys

    @staticmethod
    def _insert_entities(conn: Connection, entities: Sequence[Node], stamp: str) -> None:
        """Insert the entities not stored yet (``doc`` 0, keys and seqs after the last, in
        the order given); one stored already, or given twice, takes the shortest spelling,
        the one that sorts first of those (``model.ids.spelling_order``), whichever came first. Two
        statements, whatever the number of entities."""
        if not entities:
            return
        first: dict[str, Node] = {}
        for n in entities:
            held = first.get(n.node_id)
            if held is None or spelling_order(n.title) < spelling_order(held.title):
                first[n.node_id] = n if held is None else replace(held, title=n.title)
        given = list(first.values())
        conn.execute(
            "UPDATE nodes SET title = t.title FROM unnest(%s::text[], %s::text[]) AS t(id, title)"
            " WHERE nodes.node_id = t.id AND (length(t.title), t.title)"
            " < (length(nodes.title), nodes.title) AND nodes.kind = 'entity'",
            ([n.node_id for n in given], [n.title for n in given]),
        )
        columns = list(
            zip(
                *(
                    (
                        n.node_id,
                        n.title,
                        n.content,
                        n.level,
                        n.span[0],
                        n.span[1],
                        json_list(n.scopes),
                        n.created_at or stamp,
                        n.invalid_at,
                    )
                    for n in given
                ),
                strict=True,
            )
        )
        conn.execute(
            "WITH t AS (SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::int[],"
            " %s::bigint[], %s::bigint[], %s::text[], %s::text[], %s::text[]) WITH ORDINALITY"
            " AS t(node_id, title, content, level, span_start, span_end, scopes, created_at,"
            " invalid_at, ord)),"
            " fresh AS (SELECT t.*, row_number() OVER (ORDER BY t.ord) AS rn FROM t"
            " WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.node_id = t.node_id)),"
            " base AS (SELECT (SELECT COALESCE(MAX(key), 0) FROM nodes) AS k,"
            " (SELECT COALESCE(MAX(seq), 0) FROM nodes WHERE doc = 0) AS s)"
            " INSERT INTO nodes(key, node_id, doc, seq, kind, title, content, level,"
            " span_start, span_end, scopes, created_at, invalid_at)"
            " SELECT base.k + fresh.rn, fresh.node_id, 0, base.s + fresh.rn, 'entity',"
            " fresh.title, fresh.content, fresh.level, fresh.span_start, fresh.span_end,"
            " fresh.scopes, fresh.created_at, fresh.invalid_at FROM fresh, base ORDER BY fresh.rn"
            # another writer's entity stored since the check: the spelling that sorts first
            " ON CONFLICT(node_id) DO UPDATE SET title = excluded.title"
            " WHERE (length(excluded.title), excluded.title) < (length(nodes.title), nodes.title)"
            " AND nodes.kind = 'entity'",
            [list(c) for c in columns],
        )

    def add_edges(self, doc_id: str, edges: Sequence[Edge], entities: Sequence[Node] = ()) -> int:
        def work(conn: Connection) -> int:
            stamp = now_iso()
            if (
                conn.execute("SELECT 1 FROM documents WHERE doc_id = %s", (doc_id,)).fetchone()
                is None
            ):
                raise NotFoundError(f"unknown document {doc_id!r}: add it before its edges")
            self._insert_entities(conn, entities, stamp)
            insert_edges(conn, doc_id, edges, stamp)
            return self._changes.bump(conn, doc_id)

        return self._db.transact(work)

    def replace_typed_edges(
        self,
        doc_id: str,
        types: Sequence[str],
        edges: Sequence[Edge],
        entities: Sequence[Node] = (),
    ) -> int:
        strays = [e for e in edges if e.type not in types]
        if strays:
            raise InputError(f"an edge of type {strays[0].type!r} is not one of {list(types)}")
        kinds = list(types)

        def work(conn: Connection) -> int:
            stamp = now_iso()
            found = conn.execute(
                "SELECT seq FROM documents WHERE doc_id = %s", (doc_id,)
            ).fetchone()
            if found is None:
                raise NotFoundError(f"unknown document {doc_id!r}: add it before its edges")
            ends = [
                int(r[0])
                for r in conn.execute(
                    "SELECT dst FROM edges WHERE doc = %s AND type = ANY(%s)"
                    " UNION SELECT src FROM edges WHERE doc = %s AND type = ANY(%s)",
                    (found[0], kinds, found[0], kinds),
                )
            ]
            conn.execute("DELETE FROM edges WHERE doc = %s AND type = ANY(%s)", (found[0], kinds))
            self._insert_entities(conn, entities, stamp)
            insert_edges(conn, doc_id, edges, stamp)
            # Entities belong to no document: one goes when no edge touches it any more.
            conn.execute(
                "DELETE FROM nodes WHERE kind = 'entity' AND doc = 0 AND key = ANY(%s)"
                " AND NOT EXISTS (SELECT 1 FROM edges WHERE src = nodes.key)"
                " AND NOT EXISTS (SELECT 1 FROM edges WHERE dst = nodes.key)",
                (ends,),
            )
            return self._changes.bump(conn, doc_id)

        return self._db.transact(work)

    def replace_node_edges(self, node_id: str, edge_type: str, edges: Sequence[Edge]) -> int:
        strays = [e for e in edges if e.source != node_id or e.type != edge_type]
        if strays:
            stray = strays[0]
            raise InputError(
                f"an edge {stray.source!r} -> {stray.target!r} of type {stray.type!r} is not a"
                f" {edge_type!r} edge from {node_id!r}"
            )

        def work(conn: Connection) -> int:
            stamp = now_iso()
            found = conn.execute(
                "SELECT n.key, d.doc_id FROM nodes n JOIN documents d ON d.seq = n.doc"
                " WHERE n.node_id = %s",
                (node_id,),
            ).fetchone()
            if found is None:
                raise NotFoundError(f"unknown node {node_id!r}: add its document first")
            conn.execute("DELETE FROM edges WHERE src = %s AND type = %s", (found[0], edge_type))
            doc_id = str(found[1])
            insert_edges(conn, doc_id, edges, stamp)
            return self._changes.bump(conn, doc_id)

        return self._db.transact(work)

    def replace_derived_edges(self, edge_type: str, edges: Sequence[Edge]) -> int:
        strays = [e for e in edges if e.type != edge_type]
        if strays:
            raise InputError(f"an edge of type {strays[0].type!r} is not a {edge_type!r} edge")

        def work(conn: Connection) -> int:
            conn.execute("DELETE FROM edges WHERE type = %s", (edge_type,))
            ends = sorted({n for e in edges for n in (e.source, e.target)})
            found = {
                str(n): (int(k), int(d))
                for n, k, d in conn.execute(
                    "SELECT node_id, key, doc FROM nodes WHERE node_id = ANY(%s)", (ends,)
                )
            }
            missing = [n for e in edges for n in (e.source, e.target) if n not in found]
            if missing:
                raise InputError(
                    f"a {edge_type!r} edge ends at {missing[0]!r}, which is not a stored node"
                )
            # The usual sources and created_at as ''; a pair another edge joins keeps that one.
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO edges(doc, src, dst, type, weight)"
                    " SELECT %(doc)s, %(src)s, %(dst)s, %(type)s, %(weight)s"
                    " WHERE NOT EXISTS (SELECT 1 FROM edges WHERE src = %(src)s AND dst = %(dst)s)"
                    " AND NOT EXISTS (SELECT 1 FROM edges WHERE src = %(dst)s AND dst = %(src)s)",
                    [
                        {
                            "doc": found[e.source][1],
                            "src": found[e.source][0],
                            "dst": found[e.target][0],
                            "type": e.type,
                            "weight": e.weight,
                        }
                        for e in edges
                    ],
                )
            return self._changes.bump(conn, "")

        return self._db.transact(work)

    def remove_document(self, doc_id: str) -> Removal | None:
        def work(conn: Connection) -> Removal | None:
            removed = self._delete_document(conn, doc_id)
            if removed is not None:
                self._changes.bump(conn, doc_id)
            return removed

        return self._db.transact(work)

    @staticmethod
    def _delete_document(conn: Connection, doc_id: str) -> Removal | None:
        found = conn.execute("SELECT seq FROM documents WHERE doc_id = %s", (doc_id,)).fetchone()
        if found is None:
            return None
        seq = int(found[0])
        node_ids = tuple(
            str(r[0])
            for r in conn.execute("SELECT node_id FROM nodes WHERE doc = %s ORDER BY seq", (seq,))
        )
        mine = "(SELECT key FROM nodes WHERE doc = %(seq)s)"
        edges = tuple(
            (str(s), str(t), str(k))
            for s, t, k in conn.execute(
                "SELECT s.node_id, t.node_id, e.type FROM edges e"
                " JOIN nodes s ON s.key = e.src JOIN nodes t ON t.key = e.dst"
                f" WHERE e.doc = %(seq)s OR e.src IN {mine} OR e.dst IN {mine} ORDER BY e.id",
                {"seq": seq},
            )
        )
        conn.execute(
            f"DELETE FROM edges WHERE doc = %(seq)s OR src IN {mine} OR dst IN {mine}",
            {"seq": seq},
        )
        conn.execute("DELETE FROM nodes WHERE doc = %s", (seq,))
        # Entities belong to no document: one goes when no edge touches it any more.
        ends = sorted({s for s, _, _ in edges} | {t for _, t, _ in edges})
        gone = conn.execute(
            "DELETE FROM nodes WHERE kind = 'entity' AND node_id = ANY(%s)"
            " AND NOT EXISTS (SELECT 1 FROM edges WHERE src = nodes.key)"
            " AND NOT EXISTS (SELECT 1 FROM edges WHERE dst = nodes.key)"
            " RETURNING node_id, seq",
            (ends,),
        ).fetchall()
        orphans = [str(n) for n, _ in sorted(gone, key=lambda row: int(row[1]))]
        conn.execute("DELETE FROM doc_links WHERE doc = %s", (seq,))
        conn.execute("DELETE FROM documents WHERE doc_id = %s", (doc_id,))
        return Removal(doc_id, node_ids + tuple(orphans), edges)


def _check_distinct(doc_id: str, nodes: Sequence[Node]) -> None:
    """A node id twice in one document is the caller's mistake, said before any write."""
    seen: set[str] = set()
    for node in nodes:
        if node.node_id in seen:
            raise InputError(
                f"document {doc_id!r} has the node id {node.node_id!r} twice: ids must be unique"
            )
        seen.add(node.node_id)
