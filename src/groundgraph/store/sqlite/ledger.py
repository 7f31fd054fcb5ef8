"""What agent memory keeps beside the graph in SQLite (``FactLedger``): fact events, the
conflict ledger and access times (schema version 2)."""

from __future__ import annotations

import json
import sqlite3
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
from groundgraph.store.sqlite.changes import SQLiteChangeLog
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.damage import damage_is_store_error
from groundgraph.store.sqlite.edge_layout import OWNED_IDS
from groundgraph.store.sqlite.rows import generation_in, insert_edges, json_list, now_iso

__all__ = ["SQLiteFactLedger"]

# FactLedger.fact_counts in one statement. An edge's sources are all facts when they are
# its source node (sources '') and that node is a fact, or when each item of its list is
# a fact's id or "" (the root of the edge's document) in a fact's own edge ("#n" items,
# [id] items and a bare "#n" name no fact), or they are "*" (that root alone) in one.
_FACT_COUNTS = """
WITH facts(key) AS (
    SELECT n.key FROM documents d JOIN nodes n ON n.node_id = d.doc_id WHERE d.fact = 1
), touching(id) AS (
    SELECT e.id FROM facts f JOIN edges e ON e.src = f.key
    UNION SELECT e.id FROM facts f JOIN edges e ON e.dst = f.key
), mentioned(key) AS (
    SELECT DISTINCT e.dst FROM touching t JOIN edges e ON e.id = t.id
    JOIN nodes n ON n.key = e.dst
    WHERE e.type = (SELECT code FROM edge_types WHERE name = 'mentions')
    AND substr(n.node_id, 1, 7) = 'entity:'
), candidates(id) AS (
    SELECT id FROM touching
    UNION SELECT e.id FROM mentioned m JOIN edges e ON e.src = m.key
    UNION SELECT e.id FROM mentioned m JOIN edges e ON e.dst = m.key
)
SELECT
    (SELECT COUNT(*) FROM documents WHERE fact = 1),
    (SELECT COUNT(*) FROM mentioned),
    (SELECT COUNT(*) FROM (
        SELECT DISTINCT e.src, e.dst, e.type FROM candidates c JOIN edges e ON e.id = c.id
        WHERE CASE WHEN e.sources = '' THEN e.src IN (SELECT key FROM facts)
        WHEN substr(e.sources, 1, 1) = '#' THEN 0
        WHEN e.sources = '*' THEN EXISTS (
            SELECT 1 FROM documents o WHERE o.seq = e.doc AND o.fact = 1)
        ELSE json_array_length(e.sources) > 0 AND NOT EXISTS (
            SELECT 1 FROM json_each(e.sources) j WHERE NOT (j.type = 'text' AND CASE
                WHEN j.value = '' THEN EXISTS (
                    SELECT 1 FROM documents o WHERE o.seq = e.doc AND o.fact = 1)
                ELSE EXISTS (SELECT 1 FROM documents o WHERE o.doc_id = j.value AND o.fact = 1)
            END)
        ) END
    )),
    (SELECT COUNT(*) FROM (SELECT DISTINCT scope FROM document_scopes WHERE fact = 1))
"""


@damage_is_store_error
class SQLiteFactLedger:
    """Fact events, conflicts and access times; fact updates bump the change log in
    their own transaction."""

    def __init__(self, db: Database, changes: SQLiteChangeLog) -> None:
        self._db = db
        self._changes = changes

    def update_facts(
        self,
        updates: Sequence[FactUpdate],
        edges: Sequence[tuple[str, Edge]] = (),
        conflicts: Sequence[ConflictRecord] = (),
    ) -> int:
        stamp = now_iso()
        with self._db.write() as conn:
            touched: list[str] = []
            for update in updates:
                self._require_document(conn, update.doc_id)
                scopes = json_list(update.scopes)
                conn.execute(
                    "UPDATE documents SET scopes = ? WHERE doc_id = ?", (scopes, update.doc_id)
                )
                conn.execute(
                    "UPDATE nodes SET scopes = ?, invalid_at = ?"
                    " WHERE doc = (SELECT seq FROM documents WHERE doc_id = ?)",
                    (scopes, update.invalid_at, update.doc_id),
                )
                conn.execute(
                    f"UPDATE edges SET invalid_at = :at WHERE id IN ({OWNED_IDS})",
                    {
                        "at": update.invalid_at,
                        "doc": conn.execute(
                            "SELECT seq FROM documents WHERE doc_id = ?", (update.doc_id,)
                        ).fetchone()[0],
                    },
                )
                conn.executemany(
                    "INSERT INTO fact_events(fact_id, kind, at, scopes, other)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [
                        (e.fact_id, e.kind, e.at, json_list(e.scopes), e.other)
                        for e in update.events
                    ],
                )
                touched.append(update.doc_id)
            for owner, edge in edges:
                self._require_document(conn, owner)
                insert_edges(conn, owner, [edge], stamp)
                touched.append(owner)
            conn.executemany(
                "INSERT INTO conflicts(at, new_fact, old_fact, rule, detail, resolver, snapshot)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
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

    @staticmethod
    def _require_document(conn: sqlite3.Connection, doc_id: str) -> None:
        if conn.execute("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone() is None:
            raise NotFoundError(f"unknown document {doc_id!r}: add it before updating it")

    def fact_events(
        self, fact_ids: Sequence[str] | None = None, kinds: Sequence[str] | None = None
    ) -> list[FactEvent]:
        sql = "SELECT fact_id, kind, at, scopes, other FROM fact_events"
        where: list[str] = []
        params: tuple[object, ...] = ()
        if fact_ids is not None:
            where.append("fact_id IN (SELECT value FROM json_each(?))")
            params += (json_list(fact_ids),)
        if kinds is not None:
            where.append("kind IN (SELECT value FROM json_each(?))")
            params += (json_list(kinds),)
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
            sql += " WHERE new_fact = ?1 OR old_fact = ?1"
            params = (fact_id,)
        out = []
        for at, rule, detail, resolver, snapshot in self._db.query(sql + " ORDER BY id", params):
            new, old = (_snapshot(item) for item in json.loads(str(snapshot)))
            out.append(ConflictRecord(str(at), new, old, str(rule), str(detail), str(resolver)))
        return out

    def forget_fact_records(self, fact_ids: Sequence[str], ledger: bool = False) -> int:
        ids = json_list(fact_ids)
        inside = "IN (SELECT value FROM json_each(?))"
        with self._db.write() as conn:
            conn.execute(f"DELETE FROM fact_events WHERE fact_id {inside}", (ids,))
            conn.execute(f"DELETE FROM access WHERE node_id {inside}", (ids,))
            if not ledger:
                return 0
            cursor = conn.execute(
                f"DELETE FROM conflicts WHERE new_fact {inside} OR old_fact {inside}", (ids, ids)
            )
            return int(cursor.rowcount)

    def touch(self, node_ids: Sequence[str], at: str) -> None:
        if not node_ids or self._db.read_only:  # a read-only open reads, it notes nothing
            return
        with self._db.write() as conn:
            conn.executemany(
                "INSERT INTO access(node_id, at) VALUES (?, ?) "
                "ON CONFLICT(node_id) DO UPDATE SET at = MAX(at, excluded.at)",
                [(n, at) for n in dict.fromkeys(node_ids)],
            )

    def access_times(self, node_ids: Sequence[str] | None = None) -> dict[str, str]:
        if node_ids is None:
            rows = self._db.query("SELECT node_id, at FROM access")
        else:
            rows = self._db.query(
                "SELECT node_id, at FROM access WHERE node_id IN (SELECT value FROM json_each(?))",
                (json_list(node_ids),),
            )
        return {str(n): str(a) for n, a in rows}

    def fact_counts(self) -> FactCounts:
        facts, entities, edges, sessions = self._db.query(_FACT_COUNTS)[0]
        return FactCounts(int(str(facts)), int(str(entities)), int(str(edges)), int(str(sessions)))


def _snapshot(item: dict[str, Any]) -> FactSnapshot:
    return FactSnapshot(
        str(item["factId"]),
        str(item["text"]),
        tuple(str(s) for s in item["scopes"]),
        str(item["createdAt"]),
        str(item["source"]),
    )
