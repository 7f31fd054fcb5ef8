"""Document writes of a SQLite store (``DocumentWrites``): one ``BEGIN IMMEDIATE``
transaction (a savepoint inside ``batch``) and one generation bump per document.

This is the indexing path: rows are built in one comprehension per table and written
with ``executemany``; keep per-row work out of it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress

import numpy as np

from groundgraph.errors import InputError, NotFoundError, StoreError
from groundgraph.model import Document, Edge, Node
from groundgraph.model.store_records import PendingLink, Removal
from groundgraph.store.sqlite.changes import SQLiteChangeLog
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.damage import damage_is_store_error
from groundgraph.store.sqlite.edge_layout import (
    OWNED_IDS,
    add_runs,
    prune_runs,
    type_codes,
    type_codes_of,
)
from groundgraph.store.sqlite.edge_scan import packed_edges
from groundgraph.store.sqlite.rows import NODE_COLUMNS as _NODE_COLUMNS
from groundgraph.store.sqlite.rows import (
    insert_edges,
    int_of,
    node_keys,
    now_iso,
    pack_hash,
    pack_ingest,
    pack_stamp,
    pack_text,
)
from groundgraph.store.sqlite.rows import json_list as _json_list
from groundgraph.store.sqlite.schema import EDGE_LOOKUP_COLUMNS, EDGE_LOOKUPS

__all__ = ["SQLiteDocumentWrites"]


@damage_is_store_error
class SQLiteDocumentWrites:
    """Replaces, extends and removes whole documents; bumps the change log in the same
    transaction."""

    def __init__(self, db: Database, changes: SQLiteChangeLog) -> None:
        self._db = db
        self._changes = changes

    def batch(self) -> AbstractContextManager[None]:
        return self._db.batch()

    @contextmanager
    def filling(self) -> Iterator[None]:
        # Each edge written into an indexed table is an entry in two b-trees in orders
        # unrelated to the writes (4.7 of the 54 s of writes at 100k sections); one
        # sort at the end builds both in about a second.
        if self._db.read_only:  # nothing to fill: a write in the block says so itself
            yield
            return
        with self._db.write() as conn:
            empty = bool(conn.execute("SELECT NOT EXISTS (SELECT 1 FROM edges)").fetchone()[0])
            if empty:
                for name in EDGE_LOOKUP_COLUMNS:
                    conn.execute(f"DROP INDEX IF EXISTS {name}")
        if not empty:
            yield
            return
        try:
            yield
        except BaseException:
            with suppress(StoreError):  # a closed store: its next opening builds them
                self._restore_lookups()
            raise
        self._restore_lookups()

    def _restore_lookups(self) -> None:
        with self._db.write() as conn:
            for statement in EDGE_LOOKUPS:
                conn.execute(statement)

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
        _check_distinct(doc_id, nodes)
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
                " added_at, seq, metadata, ingest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    doc_id,
                    document.title,
                    document.description,
                    document.source,
                    pack_hash(document.content_hash),
                    _json_list(document.scopes),
                    document.added_at or stamp,
                    seq,
                    pack_text(
                        json.dumps([list(pair) for pair in document.metadata], ensure_ascii=False)
                    ),
                    pack_ingest(document.ingest),
                ),
            )
            added = document.added_at or stamp
            keys = self._insert_nodes(conn, doc_id, seq, added, nodes, stamp)
            if entities:
                self._insert_entities(conn, entities, stamp)
            insert_edges(conn, doc_id, edges, stamp)
            if pending:
                keys |= node_keys(conn, (p.node_id for p in pending if p.node_id not in keys))
                missing = [p.node_id for p in pending if p.node_id not in keys]
                if missing:
                    raise InputError(f"a pending link starts at {missing[0]!r}: no such node")
                # Many links wait for one target: its text is stored once (link_targets).
                conn.executemany(
                    "INSERT OR IGNORE INTO link_targets(target) VALUES (?)",
                    [(t,) for t in dict.fromkeys(p.target for p in pending)],
                )
                conn.executemany(
                    "INSERT INTO doc_links(node, doc, target)"
                    " SELECT ?, ?, key FROM link_targets WHERE target = ?",
                    [(keys[p.node_id], seq, p.target) for p in pending],
                )
            generation = self._changes.bump(conn, doc_id)
        return generation, removed

    @staticmethod
    def _insert_nodes(
        conn: sqlite3.Connection,
        doc_id: str,
        doc: int,
        added: str,
        nodes: Sequence[Node],
        stamp: str,
    ) -> dict[str, int]:
        """Insert a document's nodes under keys of their own; the keys by node id."""
        strays = [n.node_id for n in nodes if n.doc_id != doc_id]
        if strays:
            raise InputError(f"node {strays[0]!r} of document {doc_id!r} names another document")
        base = int_of(conn.execute("SELECT COALESCE(MAX(key), 0) FROM nodes").fetchone()[0])
        keys = {n.node_id: base + 1 + i for i, n in enumerate(nodes)}
        outside = [
            n.parent_id for n in nodes if n.parent_id is not None and n.parent_id not in keys
        ]
        parents = keys | (node_keys(conn, outside) if outside else {})
        lost = [p for p in outside if p not in parents]
        if lost:
            raise InputError(f"a node of {doc_id!r} has parent {lost[0]!r}: no such node")
        conn.executemany(
            f"INSERT INTO nodes({_NODE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    keys[n.node_id],
                    n.node_id,
                    doc,
                    i,
                    n.kind,
                    n.title,
                    pack_text(n.content),
                    n.level,
                    parents[n.parent_id] if n.parent_id else None,
                    n.span[0],
                    n.span[1],
                    _json_list(n.scopes),
                    "" if (n.created_at or stamp) == added else pack_stamp(n.created_at or stamp),
                    n.invalid_at,
                )
                for i, n in enumerate(nodes)
            ],
        )
        return keys

    @staticmethod
    def _insert_entities(conn: sqlite3.Connection, entities: Sequence[Node], stamp: str) -> None:
        """Insert the entities not stored yet (they belong to no document: ``doc`` 0); one
        stored already takes the shortest spelling, the one that sorts first of those
        (``model.ids.spelling_order``), whichever came first."""
        conn.executemany(
            "INSERT INTO nodes(node_id, doc, seq, kind, title, content, level,"
            " span_start, span_end, scopes, created_at, invalid_at)"
            " VALUES (?, 0, (SELECT COALESCE(MAX(seq), 0) + 1 FROM nodes WHERE doc = 0),"
            " 'entity', ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(node_id) DO UPDATE"
            " SET title = excluded.title WHERE (length(excluded.title), excluded.title)"
            " < (length(nodes.title), nodes.title) AND nodes.kind = 'entity'",
            [
                (
                    n.node_id,
                    n.title,
                    pack_text(n.content),
                    n.level,
                    n.span[0],
                    n.span[1],
                    _json_list(n.scopes),
                    pack_stamp(n.created_at or stamp),
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
        stamp = now_iso()
        with self._db.write() as conn:
            found = conn.execute("SELECT seq FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
            if found is None:
                raise NotFoundError(f"unknown document {doc_id!r}: add it before its edges")
            mine = {"doc": found[0], "kinds": json.dumps(type_codes_of(conn, types))}
            typed = f"id IN ({OWNED_IDS}) AND type IN (SELECT value FROM json_each(:kinds))"
            ends = [
                int_of(r[0])
                for r in conn.execute(
                    f"SELECT dst FROM edges WHERE {typed} UNION SELECT src FROM edges"
                    f" WHERE {typed}",
                    mine,
                )
            ]
            conn.execute(f"DELETE FROM edges WHERE {typed}", mine)
            prune_runs(conn, found[0])
            self._insert_entities(conn, entities, stamp)
            insert_edges(conn, doc_id, edges, stamp)
            # Entities belong to no document: one goes when no edge touches it any more.
            conn.execute(
                # by key first (``+doc``: not through nodes_doc, whose doc 0 holds every
                # entity, which made each call cost as much as the whole store has)
                "DELETE FROM nodes WHERE key IN (SELECT value FROM json_each(?))"
                " AND kind = 'entity' AND +doc = 0"
                " AND NOT EXISTS (SELECT 1 FROM edges WHERE src = nodes.key)"
                " AND NOT EXISTS (SELECT 1 FROM edges WHERE dst = nodes.key)",
                (json.dumps(ends),),
            )
            return self._changes.bump(conn, doc_id)

    def replace_node_edges(self, node_id: str, edge_type: str, edges: Sequence[Edge]) -> int:
        _check_node_edges(node_id, edge_type, edges)
        stamp = now_iso()
        with self._db.write() as conn:
            found = conn.execute(
                "SELECT n.key, d.doc_id FROM nodes n JOIN documents d ON d.seq = n.doc"
                " WHERE n.node_id = ?",
                (node_id,),
            ).fetchone()
            if found is None:
                raise NotFoundError(f"unknown node {node_id!r}: add its document first")
            for code in type_codes_of(conn, [edge_type]):
                conn.execute("DELETE FROM edges WHERE src = ? AND type = ?", (found[0], code))
            doc_id = str(found[1])
            insert_edges(conn, doc_id, edges, stamp)
            return self._changes.bump(conn, doc_id)

    def replace_derived_edges(self, edge_type: str, edges: Sequence[Edge]) -> int:
        strays = [e for e in edges if e.type != edge_type]
        if strays:
            raise InputError(f"an edge of type {strays[0].type!r} is not a {edge_type!r} edge")
        with self._db.write() as conn:
            code, usual = type_codes(conn, [edge_type])[edge_type]
            conn.execute("DELETE FROM edges WHERE type = ?", (code,))
            prune_runs(conn)
            ends = json.dumps(sorted({n for e in edges for n in (e.source, e.target)}))
            found = {
                str(n): (int_of(k), int_of(d))
                for n, k, d in conn.execute(
                    "SELECT node_id, key, doc FROM nodes"
                    " WHERE node_id IN (SELECT value FROM json_each(?))",
                    (ends,),
                )
            }
            missing = [n for e in edges for n in (e.source, e.target) if n not in found]
            if missing:
                raise InputError(
                    f"a {edge_type!r} edge ends at {missing[0]!r}, which is not a stored node"
                )
            # The usual sources (the source node) and created_at (the document's) as ''; a
            # pair that another edge joins already (either way) keeps that one.
            rows = []
            shift, joined = _joined_pairs(conn, {key for key, _ in found.values()})
            for e in edges:
                (source, doc), (target, _) = found[e.source], found[e.target]
                if (source << shift) | target in joined:
                    continue
                if (target << shift) | source in joined:
                    continue
                joined.add((source << shift) | target)
                rows.append((doc, source, target, None if e.weight == usual else e.weight))
            del joined, found
            last = int_of(conn.execute("SELECT COALESCE(MAX(id), 0) FROM edges").fetchone()[0])
            conn.executemany(
                "INSERT INTO edges(id, doc, src, dst, type, weight) VALUES (?, ?, ?, ?, ?, ?)",
                ((last + 1 + i, doc, s, t, code, w) for i, (doc, s, t, w) in enumerate(rows)),
            )
            add_runs(conn, [doc for doc, _, _, _ in rows], last + 1)
            return self._changes.bump(conn, "")

    def remove_document(self, doc_id: str) -> Removal | None:
        with self._db.write() as conn:
            removed = self._delete_document(conn, doc_id)
            if removed is not None:
                self._changes.bump(conn, doc_id)
        return removed

    def _delete_document(self, conn: sqlite3.Connection, doc_id: str) -> Removal | None:
        found = conn.execute("SELECT seq FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
        if found is None:
            return None
        seq = int_of(found[0])
        node_ids = tuple(
            r[0]
            for r in conn.execute("SELECT node_id FROM nodes WHERE doc = ? ORDER BY seq", (seq,))
        )
        mine = "(SELECT key FROM nodes WHERE doc = :doc)"
        touched = (
            f"{OWNED_IDS} UNION SELECT id FROM edges WHERE src IN {mine}"
            f" UNION SELECT id FROM edges WHERE dst IN {mine}"
        )
        edges = tuple(
            (str(s), str(t), str(k))
            for s, t, k in conn.execute(
                "SELECT s.node_id, t.node_id, k.name FROM edges e"
                " JOIN nodes s ON s.key = e.src JOIN nodes t ON t.key = e.dst"
                f" JOIN edge_types k ON k.code = e.type WHERE e.id IN ({touched}) ORDER BY e.id",
                {"doc": seq},
            )
        )
        conn.execute(f"DELETE FROM edges WHERE id IN ({touched})", {"doc": seq})
        conn.execute("DELETE FROM edge_runs WHERE doc = ?", (seq,))
        conn.execute("DELETE FROM nodes WHERE doc = ?", (seq,))
        # Entities belong to no document: one goes when no edge touches it any more.
        ends = sorted({s for s, _, _ in edges} | {t for _, t, _ in edges})
        orphans = [
            str(r[0])
            for r in conn.execute(
                "SELECT node_id FROM nodes WHERE kind = 'entity'"
                " AND node_id IN (SELECT value FROM json_each(?))"
                " AND NOT EXISTS (SELECT 1 FROM edges WHERE src = nodes.key)"
                " AND NOT EXISTS (SELECT 1 FROM edges WHERE dst = nodes.key)"
                " ORDER BY seq",
                (_json_list(ends),),
            )
        ]
        conn.execute(
            "DELETE FROM nodes WHERE node_id IN (SELECT value FROM json_each(?))",
            (_json_list(orphans),),
        )
        node_ids = node_ids + tuple(orphans)
        targets = [
            r[0]
            for r in conn.execute("SELECT DISTINCT target FROM doc_links WHERE doc = ?", (seq,))
        ]
        conn.execute("DELETE FROM doc_links WHERE doc = ?", (seq,))
        if targets:
            conn.execute(
                "DELETE FROM link_targets WHERE key IN (SELECT value FROM json_each(?))"
                " AND NOT EXISTS (SELECT 1 FROM doc_links WHERE target = link_targets.key)",
                (json.dumps(targets),),
            )
        conn.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
        return Removal(doc_id, node_ids, edges)


def _check_distinct(doc_id: str, nodes: Sequence[Node]) -> None:
    """A node id twice in one document is the caller's mistake, said before any write."""
    seen: set[str] = set()
    for node in nodes:
        if node.node_id in seen:
            raise InputError(
                f"document {doc_id!r} has the node id {node.node_id!r} twice: ids must be unique"
            )
        seen.add(node.node_id)


# Node keys are positive rowids, so a pair of them is one int exactly: a set of ints
# takes about half the memory of a set of pairs (470k structure edges between linkable
# nodes at 100k sections, read while the semantic edges are written).
_KEY_BITS = 64
#: Pairs are packed by SQLite itself while both keys fit in this many bits each.
_PACKED_KEY_BITS = 31


def _joined_pairs(conn: sqlite3.Connection, keys: set[int]) -> tuple[int, set[int]]:
    """The (src, dst) of the stored edges between two of the nodes ``keys``, each as
    ``src << shift | dst``, and the shift: read in one pass over the edges, many times
    faster than two index probes per new edge (packed by SQLite, ``edge_scan``)."""
    if not keys:
        return _KEY_BITS, set()
    top = int_of(conn.execute("SELECT COALESCE(MAX(key), 0) FROM nodes").fetchone()[0])
    shift = max(top.bit_length(), 1)
    if shift > _PACKED_KEY_BITS:
        rows = conn.execute("SELECT src, dst FROM edges")
        pairs = {(int_of(s) << _KEY_BITS) | int_of(d) for s, d in rows if s in keys and d in keys}
        return _KEY_BITS, pairs
    chosen = np.fromiter(keys, np.int64, count=len(keys))

    def query(sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        return conn.execute(sql, params).fetchall()

    packed = packed_edges(query, f"(src << {shift}) | dst")
    sources, targets = packed >> shift, packed & ((1 << shift) - 1)
    if top <= 8 * len(chosen) + 65_536:  # keys mostly dense: a table, not a search
        wanted = np.zeros(top + 1, dtype=bool)
        wanted[chosen] = True
        ends = wanted[sources] & wanted[targets]
    else:  # a store whose keys grew sparse with churn
        ends = np.isin(sources, chosen) & np.isin(targets, chosen)
    return shift, set(packed[ends].tolist())


def _check_node_edges(node_id: str, edge_type: str, edges: Sequence[Edge]) -> None:
    strays = [e for e in edges if e.source != node_id or e.type != edge_type]
    if strays:
        stray = strays[0]
        raise InputError(
            f"an edge {stray.source!r} -> {stray.target!r} of type {stray.type!r} is not a"
            f" {edge_type!r} edge from {node_id!r}"
        )
