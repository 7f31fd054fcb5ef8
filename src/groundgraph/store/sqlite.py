"""The embedded default store: one SQLite file (or ``:memory:``).

WAL journal, ``synchronous=NORMAL``, one ``BEGIN IMMEDIATE`` transaction per document
write, so readers never wait for writers and a crash leaves the store as it was before
the document. All SQLite-specific SQL lives in this module.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from groundgraph.errors import NotFoundError, SchemaVersionError, StoreBusyError, StoreError
from groundgraph.records import Document, Edge, Node
from groundgraph.store.base import (
    ConflictRecord,
    FactEvent,
    FactSnapshot,
    FactUpdate,
    PendingLink,
    Removal,
    StoreCounts,
)
from groundgraph.store.schema import MIGRATIONS, SCHEMA_VERSION

_NODE_COLUMNS = (
    "node_id, doc_id, kind, title, content, level, parent_id, span_start, span_end, "
    "scopes, created_at, invalid_at"
)
_EDGE_COLUMNS = "source, target, type, weight, label, sources, created_at, invalid_at, spans"
# SQLite allows a bounded number of host parameters; larger id lists go through json_each.
_CHANGES_KEPT = 50_000
# Steps out of a set of nodes, over valid edges, in both directions.
_STEPS = """
SELECT source, target, type, weight, 0 FROM edges
WHERE source IN (SELECT value FROM json_each(?1)) AND invalid_at IS NULL AND source != target
UNION ALL
SELECT target, source, type, weight, 1 FROM edges
WHERE target IN (SELECT value FROM json_each(?1)) AND invalid_at IS NULL AND source != target
"""
_DEGREES = """
SELECT node, COUNT(*) FROM (
    SELECT source AS node FROM edges WHERE source IN (SELECT value FROM json_each(?1))
    UNION ALL
    SELECT target FROM edges WHERE target IN (SELECT value FROM json_each(?1))
) GROUP BY node
"""


def now_iso() -> str:
    """The current time, ISO-8601 UTC with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _int(value: object) -> int:
    return int(cast(Any, value))


def _json_list(values: Sequence[str]) -> str:
    if not values:
        return "[]"
    return json.dumps(list(values), ensure_ascii=False)


def _node(row: sqlite3.Row | tuple[object, ...]) -> Node:
    return Node(
        node_id=str(row[0]),
        doc_id=str(row[1]),
        kind=str(row[2]),
        title=str(row[3]),
        content=str(row[4]),
        level=_int(row[5]),
        parent_id=None if row[6] is None else str(row[6]),
        span=(_int(row[7]), _int(row[8])),
        scopes=tuple(json.loads(str(row[9]))),
        created_at=str(row[10]),
        invalid_at=None if row[11] is None else str(row[11]),
    )


def _edge(row: sqlite3.Row | tuple[object, ...]) -> Edge:
    return Edge(
        source=str(row[0]),
        target=str(row[1]),
        type=str(row[2]),
        weight=float(cast(Any, row[3])),
        label=None if row[4] is None else str(row[4]),
        sources=tuple(json.loads(str(row[5]))),
        created_at=str(row[6]),
        invalid_at=None if row[7] is None else str(row[7]),
        spans=tuple((str(n), int(a), int(b)) for n, a, b in json.loads(str(row[8]))),
    )


class SQLiteStore:
    """A :class:`~groundgraph.store.base.Store` in a SQLite file."""

    def __init__(self, path: str | Path = ":memory:", timeout: float = 10.0) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            parent = Path(self.path).expanduser().resolve().parent
            if not parent.is_dir():
                raise StoreError(f"cannot create the store {self.path}: folder {parent} is missing")
        try:
            self._conn = sqlite3.connect(
                self.path, timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store {self.path}: {exc}") from exc
        self._lock = threading.RLock()
        self._closed = False
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=OFF")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StoreError(
                f"{self.path} is not a groundgraph store ({exc}); name another file with --db"
            ) from exc

    # ----------------------------------------------------------------- plumbing
    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._check_open()
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StoreBusyError(
                    f"the store {self.path} is locked by another writer ({exc}); try again"
                ) from exc
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            self._check_open()
            return self._conn.execute(sql, params).fetchall()

    def _migrate(self) -> None:
        with self._write() as conn:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise SchemaVersionError(
                    f"{self.path} has schema version {version}, newer than this groundgraph "
                    f"understands ({SCHEMA_VERSION}): upgrade groundgraph"
                )
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[target]:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {target}")

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()

    def schema_version(self) -> int:
        return _int(self._query("PRAGMA user_version")[0][0])

    # ----------------------------------------------------------------- settings
    def get_setting(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM settings WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_setting(self, key: str, value: str) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO settings(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def generation(self) -> int:
        value = self.get_setting("generation")
        return int(value) if value else 0

    def _bump(self, conn: sqlite3.Connection, doc_id: str) -> int:
        row = conn.execute("SELECT value FROM settings WHERE key = 'generation'").fetchone()
        generation = (_int(row[0]) if row else 0) + 1
        conn.execute(
            "INSERT INTO settings(key, value) VALUES ('generation', ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (str(generation),),
        )
        conn.execute("INSERT INTO changes(generation, doc_id) VALUES (?, ?)", (generation, doc_id))
        conn.execute("DELETE FROM changes WHERE generation <= ?", (generation - _CHANGES_KEPT,))
        return generation

    def changed_documents(self, since: int) -> list[str]:
        rows = self._query(
            "SELECT MIN(generation) FROM changes",
        )
        oldest = rows[0][0]
        if since < self.generation() and (oldest is None or _int(oldest) > since + 1):
            raise StoreError("the change log no longer reaches that generation; rebuild")
        rows = self._query(
            "SELECT doc_id FROM changes WHERE generation > ? ORDER BY generation", (since,)
        )
        return list(dict.fromkeys(str(r[0]) for r in rows))

    # ----------------------------------------------------------------- writing
    def replace_document(
        self,
        document: Document,
        nodes: Sequence[Node],
        edges: Sequence[Edge],
        pending: Sequence[PendingLink] = (),
        entities: Sequence[Node] = (),
    ) -> tuple[int, Removal | None]:
        stamp = now_iso()
        with self._write() as conn:
            removed = self._delete_document(conn, document.doc_id)
            seq_row = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM documents").fetchone()
            conn.execute(
                "INSERT INTO documents(doc_id, title, description, source, content_hash, scopes,"
                " added_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    document.doc_id,
                    document.title,
                    document.description,
                    document.source,
                    document.content_hash,
                    _json_list(document.scopes),
                    document.added_at or stamp,
                    int(seq_row[0]),
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
            self._insert_edges(conn, document.doc_id, edges, stamp)
            self._insert_entities(conn, entities, stamp)
            conn.executemany(
                "INSERT INTO doc_links(node_id, doc_id, target) VALUES (?, ?, ?)",
                [(p.node_id, p.doc_id, p.target) for p in pending],
            )
            generation = self._bump(conn, document.doc_id)
        return generation, removed

    @staticmethod
    def _insert_edges(
        conn: sqlite3.Connection, doc_id: str, edges: Sequence[Edge], stamp: str
    ) -> None:
        conn.executemany(
            f"INSERT INTO edges(doc_id, {_EDGE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    doc_id,
                    e.source,
                    e.target,
                    e.type,
                    e.weight,
                    e.label,
                    _json_list(e.sources),
                    e.created_at or stamp,
                    e.invalid_at,
                    json.dumps([list(x) for x in e.spans]) if e.spans else "[]",
                )
                for e in edges
            ],
        )

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
        with self._write() as conn:
            if (
                conn.execute("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
                is None
            ):
                raise NotFoundError(f"unknown document {doc_id!r}: add it before its edges")
            self._insert_entities(conn, entities, stamp)
            self._insert_edges(conn, doc_id, edges, stamp)
            return self._bump(conn, doc_id)

    def remove_document(self, doc_id: str) -> Removal | None:
        with self._write() as conn:
            removed = self._delete_document(conn, doc_id)
            if removed is not None:
                self._bump(conn, doc_id)
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

    # ----------------------------------------------------------------- reading
    def get_document(self, doc_id: str) -> Document | None:
        rows = self._query(
            "SELECT doc_id, title, description, source, content_hash, scopes, added_at "
            "FROM documents WHERE doc_id = ?",
            (doc_id,),
        )
        return self._document(rows[0]) if rows else None

    @staticmethod
    def _document(row: tuple[object, ...]) -> Document:
        return Document(
            doc_id=str(row[0]),
            title=str(row[1]),
            description=str(row[2]),
            source=str(row[3]),
            content_hash=str(row[4]),
            scopes=tuple(json.loads(str(row[5]))),
            added_at=str(row[6]),
        )

    def documents(self) -> list[Document]:
        rows = self._query(
            "SELECT doc_id, title, description, source, content_hash, scopes, added_at "
            "FROM documents ORDER BY seq"
        )
        return [self._document(r) for r in rows]

    def node_counts(self) -> dict[str, int]:
        rows = self._query("SELECT doc_id, COUNT(*) FROM nodes GROUP BY doc_id")
        return {str(d): _int(c) for d, c in rows}

    def get_nodes(self, node_ids: Sequence[str]) -> dict[str, Node]:
        if not node_ids:
            return {}
        rows = self._query(
            f"SELECT {_NODE_COLUMNS} FROM nodes WHERE node_id IN (SELECT value FROM json_each(?))",
            (_json_list(node_ids),),
        )
        return {str(r[0]): _node(r) for r in rows}

    def entity_nodes(self) -> list[Node]:
        rows = self._query(
            f"SELECT {_NODE_COLUMNS} FROM nodes WHERE kind = 'entity' AND doc_id = '' ORDER BY seq"
        )
        return [_node(r) for r in rows]

    def document_nodes(self, doc_id: str) -> list[Node]:
        rows = self._query(
            f"SELECT {_NODE_COLUMNS} FROM nodes WHERE doc_id = ? ORDER BY seq", (doc_id,)
        )
        return [_node(r) for r in rows]

    def iter_nodes(self, batch: int = 5000) -> Iterator[Node]:
        last_doc, last_seq = -1, -1
        while True:
            rows = self._query(
                f"SELECT {', '.join('n.' + c.strip() for c in _NODE_COLUMNS.split(','))}, "
                "d.seq, n.seq FROM nodes n JOIN documents d ON d.doc_id = n.doc_id "
                "WHERE (d.seq, n.seq) > (?, ?) ORDER BY d.seq, n.seq LIMIT ?",
                (last_doc, last_seq, batch),
            )
            if not rows:
                return
            for row in rows:
                yield _node(row)
            last_doc, last_seq = _int(rows[-1][-2]), _int(rows[-1][-1])

    def edges_touching(self, node_ids: Sequence[str]) -> list[Edge]:
        if not node_ids:
            return []
        ids = _json_list(node_ids)
        rows = self._query(
            f"SELECT {_EDGE_COLUMNS}, id FROM edges"
            " WHERE source IN (SELECT value FROM json_each(?1))"
            f" UNION SELECT {_EDGE_COLUMNS}, id FROM edges"
            " WHERE target IN (SELECT value FROM json_each(?1)) ORDER BY id",
            (ids,),
        )
        return [_edge(r) for r in rows]

    def walk_arcs(
        self, node_ids: Sequence[str], max_fanout: int, hub_prefix: str = "entity:"
    ) -> list[tuple[str, str, str, float, bool, int]]:
        hubs = [n for n in node_ids if n.startswith(hub_prefix)]
        degree: dict[str, int] = {}
        if hubs:
            degree = {str(n): _int(c) for n, c in self._query(_DEGREES, (_json_list(hubs),))}
        wanted = [n for n in node_ids if degree.get(n, 0) <= max_fanout]
        if not wanted:
            return []
        rows = self._query(_STEPS, (_json_list(wanted),))
        counted = dict.fromkeys(wanted, 0)
        for row in rows:
            counted[str(row[0])] += 1
        return [
            (str(n), str(o), str(t), float(cast(Any, w)), bool(a), counted[str(n)])
            for n, o, t, w, a in rows
        ]

    def iter_edges(self, types: Sequence[str] | None = None) -> Iterator[Edge]:
        last = 0
        kinds = _json_list(types or [])
        while True:
            rows = self._query(
                f"SELECT {_EDGE_COLUMNS}, id FROM edges WHERE id > ?"
                + (" AND type IN (SELECT value FROM json_each(?))" if types else "")
                + " ORDER BY id LIMIT 5000",
                (last, kinds) if types else (last,),
            )
            if not rows:
                return
            yield from (_edge(r) for r in rows)
            last = _int(rows[-1][-1])

    def pending_links_to(self, targets: Sequence[str]) -> list[PendingLink]:
        if not targets:
            return []
        rows = self._query(
            "SELECT node_id, doc_id, target FROM doc_links "
            "WHERE target IN (SELECT value FROM json_each(?)) ORDER BY rowid",
            (_json_list(targets),),
        )
        return [PendingLink(str(n), str(d), str(t)) for n, d, t in rows]

    def counts(self) -> StoreCounts:
        docs = self._query("SELECT COUNT(*) FROM documents")[0][0]
        nodes = self._query("SELECT COUNT(*) FROM nodes")[0][0]
        types = self._query("SELECT type, COUNT(*) FROM edges GROUP BY type ORDER BY type")
        by_type = {str(t): _int(c) for t, c in types}
        return StoreCounts(_int(docs), _int(nodes), sum(by_type.values()), by_type)

    # ----------------------------------------------------------------- blobs
    def load_blob(self, name: str) -> tuple[int, bytes] | None:
        rows = self._query("SELECT generation, data FROM blobs WHERE name = ?", (name,))
        if not rows:
            return None
        return _int(rows[0][0]), bytes(cast(bytes, rows[0][1]))

    def save_blob(self, name: str, generation: int, data: bytes) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO blobs(name, generation, data) VALUES (?, ?, ?) ON CONFLICT(name) "
                "DO UPDATE SET generation = excluded.generation, data = excluded.data",
                (name, generation, data),
            )

    # ----------------------------------------------------------------- memory facts
    def update_facts(
        self,
        updates: Sequence[FactUpdate],
        edges: Sequence[tuple[str, Edge]] = (),
        conflicts: Sequence[ConflictRecord] = (),
    ) -> int:
        stamp = now_iso()
        with self._write() as conn:
            touched: list[str] = []
            for update in updates:
                self._require_document(conn, update.doc_id)
                scopes = _json_list(update.scopes)
                conn.execute(
                    "UPDATE documents SET scopes = ? WHERE doc_id = ?", (scopes, update.doc_id)
                )
                conn.execute(
                    "UPDATE nodes SET scopes = ?, invalid_at = ? WHERE doc_id = ?",
                    (scopes, update.invalid_at, update.doc_id),
                )
                conn.execute(
                    "UPDATE edges SET invalid_at = ? WHERE doc_id = ?",
                    (update.invalid_at, update.doc_id),
                )
                conn.executemany(
                    "INSERT INTO fact_events(fact_id, kind, at, scopes, other)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [
                        (e.fact_id, e.kind, e.at, _json_list(e.scopes), e.other)
                        for e in update.events
                    ],
                )
                touched.append(update.doc_id)
            for owner, edge in edges:
                self._require_document(conn, owner)
                self._insert_edges(conn, owner, [edge], stamp)
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
                        json.dumps([_snapshot_json(c.new), _snapshot_json(c.old)]),
                    )
                    for c in conflicts
                ],
            )
            generation = self._generation_in(conn)
            for doc_id in dict.fromkeys(touched):
                generation = self._bump(conn, doc_id)
        return generation

    @staticmethod
    def _require_document(conn: sqlite3.Connection, doc_id: str) -> None:
        if conn.execute("SELECT 1 FROM documents WHERE doc_id = ?", (doc_id,)).fetchone() is None:
            raise NotFoundError(f"unknown document {doc_id!r}: add it before updating it")

    @staticmethod
    def _generation_in(conn: sqlite3.Connection) -> int:
        row = conn.execute("SELECT value FROM settings WHERE key = 'generation'").fetchone()
        return _int(row[0]) if row else 0

    def fact_events(self, fact_ids: Sequence[str] | None = None) -> list[FactEvent]:
        sql = "SELECT fact_id, kind, at, scopes, other FROM fact_events"
        params: tuple[object, ...] = ()
        if fact_ids is not None:
            sql += " WHERE fact_id IN (SELECT value FROM json_each(?))"
            params = (_json_list(fact_ids),)
        rows = self._query(sql + " ORDER BY id", params)
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
        for at, rule, detail, resolver, snapshot in self._query(sql + " ORDER BY id", params):
            new, old = (_snapshot(item) for item in json.loads(str(snapshot)))
            out.append(ConflictRecord(str(at), new, old, str(rule), str(detail), str(resolver)))
        return out

    def forget_fact_records(self, fact_ids: Sequence[str], ledger: bool = False) -> int:
        ids = _json_list(fact_ids)
        inside = "IN (SELECT value FROM json_each(?))"
        with self._write() as conn:
            conn.execute(f"DELETE FROM fact_events WHERE fact_id {inside}", (ids,))
            conn.execute(f"DELETE FROM access WHERE node_id {inside}", (ids,))
            if not ledger:
                return 0
            cursor = conn.execute(
                f"DELETE FROM conflicts WHERE new_fact {inside} OR old_fact {inside}", (ids, ids)
            )
            return int(cursor.rowcount)

    def touch(self, node_ids: Sequence[str], at: str) -> None:
        if not node_ids:
            return
        with self._write() as conn:
            conn.executemany(
                "INSERT INTO access(node_id, at) VALUES (?, ?) "
                "ON CONFLICT(node_id) DO UPDATE SET at = MAX(at, excluded.at)",
                [(n, at) for n in dict.fromkeys(node_ids)],
            )

    def access_times(self, node_ids: Sequence[str] | None = None) -> dict[str, str]:
        if node_ids is None:
            rows = self._query("SELECT node_id, at FROM access")
        else:
            rows = self._query(
                "SELECT node_id, at FROM access WHERE node_id IN (SELECT value FROM json_each(?))",
                (_json_list(node_ids),),
            )
        return {str(n): str(a) for n, a in rows}


def _snapshot_json(snapshot: FactSnapshot) -> dict[str, object]:
    return {
        "factId": snapshot.fact_id,
        "text": snapshot.text,
        "scopes": list(snapshot.scopes),
        "createdAt": snapshot.created_at,
        "source": snapshot.source,
    }


def _snapshot(item: dict[str, Any]) -> FactSnapshot:
    return FactSnapshot(
        str(item["factId"]),
        str(item["text"]),
        tuple(str(s) for s in item["scopes"]),
        str(item["createdAt"]),
        str(item["source"]),
    )
