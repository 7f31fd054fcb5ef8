"""What agent memory keeps beside the graph in PostgreSQL (``FactLedger``): fact events,
the conflict ledger and access times."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from groundgraph.errors import NotFoundError
from groundgraph.model import Edge
from groundgraph.model.store_records import (
    ConflictRecord,
    FactCounts,
    FactEvent,
    FactSnapshot,
    FactUpdate,
)
from groundgraph.store.postgres.changes import PostgresChangeLog
from groundgraph.store.postgres.connection import Connection, Database
from groundgraph.store.postgres.faults import server_errors_are_store_errors
from groundgraph.store.postgres.rows import generation_in, insert_edges, json_list, now_iso

__all__ = ["PostgresFactLedger"]


@server_errors_are_store_errors
class PostgresFactLedger:
    """Fact events, conflicts and access times; fact updates bump the change log in
    their own transaction."""

    def __init__(self, db: Database, changes: PostgresChangeLog) -> None:
        self._db = db
        self._changes = changes

    def update_facts(
        self,
        updates: Sequence[FactUpdate],
        edges: Sequence[tuple[str, Edge]] = (),
        conflicts: Sequence[ConflictRecord] = (),
    ) -> int:
        return self._db.transact(lambda conn: self._update(conn, updates, edges, conflicts))

    def _update(
        self,
        conn: Connection,
        updates: Sequence[FactUpdate],
        edges: Sequence[tuple[str, Edge]],
        conflicts: Sequence[ConflictRecord],
    ) -> int:
        stamp = now_iso()
        touched: list[str] = []
        for update in updates:
            _require_document(conn, update.doc_id)
            scopes = json_list(update.scopes)
            conn.execute(
                "UPDATE documents SET scopes = %s WHERE doc_id = %s", (scopes, update.doc_id)
            )
            conn.execute(
                "UPDATE nodes SET scopes = %s, invalid_at = %s"
                " WHERE doc = (SELECT seq FROM documents WHERE doc_id = %s)",
                (scopes, update.invalid_at, update.doc_id),
            )
            conn.execute(
                "UPDATE edges SET invalid_at = %s"
                " WHERE doc = (SELECT seq FROM documents WHERE doc_id = %s)",
                (update.invalid_at, update.doc_id),
            )
            if update.events:
                with conn.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO fact_events(fact_id, kind, at, scopes, other)"
                        " VALUES (%s, %s, %s, %s, %s)",
                        [
                            (e.fact_id, e.kind, e.at, json_list(e.scopes), e.other)
                            for e in update.events
                        ],
                    )
            touched.append(update.doc_id)
        for owner, edge in edges:
            _require_document(conn, owner)
            insert_edges(conn, owner, [edge], stamp)
            touched.append(owner)
        if conflicts:
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO conflicts(at, new_fact, old_fact, rule, detail, resolver,"
                    " snapshot) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    [
                        (
                            c.at,
                            c.new.fact_id,
                            c.old.fact_id,
                            c.rule,
                            c.detail,
                            c.resolver,
                            json.dumps([c.new.to_dict(), c.old.to_dict()]),
                        )
                        for c in conflicts
                    ],
                )
        generation = generation_in(conn)
        for doc_id in dict.fromkeys(touched):
            generation = self._changes.bump(conn, doc_id)
        return generation

    def fact_events(
        self, fact_ids: Sequence[str] | None = None, kinds: Sequence[str] | None = None
    ) -> list[FactEvent]:
        sql = "SELECT fact_id, kind, at, scopes, other FROM fact_events"
        where: list[str] = []
        params: tuple[object, ...] = ()
        if fact_ids is not None:
            where.append("fact_id = ANY(%s)")
            params += (list(fact_ids),)
        if kinds is not None:
            where.append("kind = ANY(%s)")
            params += (list(kinds),)
        if where:
            sql += " WHERE " + " AND ".join(where)
        rows = self._db.query(sql + " ORDER BY id", params)
        return [
            FactEvent(
                str(f), str(k), str(a), tuple(json.loads(str(s))), None if o is None else str(o)
            )
            for f, k, a, s, o in rows
        ]

    def conflict_records(self, fact_id: str | None = None) -> list[ConflictRecord]:
        sql = "SELECT at, rule, detail, resolver, snapshot FROM conflicts"
        params: tuple[object, ...] = ()
        if fact_id is not None:
            sql += " WHERE new_fact = %s OR old_fact = %s"
            params = (fact_id, fact_id)
        out = []
        for at, rule, detail, resolver, snapshot in self._db.query(sql + " ORDER BY id", params):
            new, old = (_snapshot(item) for item in json.loads(str(snapshot)))
            out.append(ConflictRecord(str(at), new, old, str(rule), str(detail), str(resolver)))
        return out

    def forget_fact_records(self, fact_ids: Sequence[str], ledger: bool = False) -> int:
        ids = list(fact_ids)

        def work(conn: Connection) -> int:
            conn.execute("DELETE FROM fact_events WHERE fact_id = ANY(%s)", (ids,))
            conn.execute("DELETE FROM access WHERE node_id = ANY(%s)", (ids,))
            if not ledger:
                return 0
            cursor = conn.execute(
                "DELETE FROM conflicts WHERE new_fact = ANY(%s) OR old_fact = ANY(%s)", (ids, ids)
            )
            return int(cursor.rowcount)

        return self._db.transact(work)

    def touch(self, node_ids: Sequence[str], at: str) -> None:
        if not node_ids or self._db.read_only:  # a read-only open reads, it notes nothing
            return
        # Sorted, so two processes touching the same nodes lock them in one order.
        rows = [(n, at) for n in sorted(set(node_ids))]

        def work(conn: Connection) -> None:
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO access(node_id, at) VALUES (%s, %s) ON CONFLICT(node_id)"
                    " DO UPDATE SET at = GREATEST(access.at, excluded.at)",
                    rows,
                )

        self._db.transact(work)

    def access_times(self, node_ids: Sequence[str] | None = None) -> dict[str, str]:
        if node_ids is None:
            rows = self._db.query("SELECT node_id, at FROM access")
        else:
            rows = self._db.query(
                "SELECT node_id, at FROM access WHERE node_id = ANY(%s)", (list(node_ids),)
            )
        return {str(n): str(a) for n, a in rows}

    def fact_counts(self) -> FactCounts:
        facts, entities, edges, sessions = self._db.query(_FACT_COUNTS)[0]
        return FactCounts(int(facts), int(entities), int(edges), int(sessions))


# FactLedger.fact_counts in one statement, as the SQLite store's; a list of sources is read
# as jsonb with its NULs escaped as the store escapes text (jsonb holds no NUL).
_SOURCES = (
    "replace(replace(e.sources, '\\u0001', '\\u0001\\u0001'), '\\u0000', '\\u0001\\u0002')::jsonb"
)
_FACT_COUNTS = f"""
WITH facts AS (
    SELECT n.key FROM documents d JOIN nodes n ON n.node_id = d.doc_id WHERE d.fact
), touching AS (
    SELECT e.id FROM facts f JOIN edges e ON e.src = f.key
    UNION SELECT e.id FROM facts f JOIN edges e ON e.dst = f.key
), mentioned AS (
    SELECT DISTINCT e.dst AS key FROM touching t JOIN edges e ON e.id = t.id
    JOIN nodes n ON n.key = e.dst WHERE e.type = 'mentions' AND left(n.node_id, 7) = 'entity:'
), candidates AS (
    SELECT id FROM touching
    UNION SELECT e.id FROM mentioned m JOIN edges e ON e.src = m.key
    UNION SELECT e.id FROM mentioned m JOIN edges e ON e.dst = m.key
)
SELECT
    (SELECT COUNT(*) FROM documents WHERE fact),
    (SELECT COUNT(*) FROM mentioned),
    (SELECT COUNT(*) FROM (
        SELECT DISTINCT e.src, e.dst, e.type FROM candidates c JOIN edges e ON e.id = c.id
        WHERE CASE WHEN e.sources = '' THEN e.src IN (SELECT key FROM facts)
        ELSE jsonb_array_length({_SOURCES}) > 0 AND NOT EXISTS (
            SELECT 1 FROM jsonb_array_elements({_SOURCES}) j WHERE NOT (
                jsonb_typeof(j) = 'string' AND CASE
                WHEN j #>> '{{}}' = '' THEN EXISTS (
                    SELECT 1 FROM documents o WHERE o.seq = e.doc AND o.fact)
                ELSE EXISTS (SELECT 1 FROM documents o WHERE o.doc_id = j #>> '{{}}' AND o.fact)
            END)
        ) END
    ) asserted),
    (SELECT COUNT(DISTINCT scope) FROM document_scopes WHERE fact)
"""


def _require_document(conn: Connection, doc_id: str) -> None:
    if conn.execute("SELECT 1 FROM documents WHERE doc_id = %s", (doc_id,)).fetchone() is None:
        raise NotFoundError(f"unknown document {doc_id!r}: add it before updating it")


def _snapshot(item: dict[str, Any]) -> FactSnapshot:
    return FactSnapshot(
        str(item["factId"]),
        str(item["text"]),
        tuple(str(s) for s in item["scopes"]),
        str(item["createdAt"]),
        str(item["source"]),
    )
