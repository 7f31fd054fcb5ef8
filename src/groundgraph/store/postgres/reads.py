"""Reading the graph back out of PostgreSQL (``GraphReads``): documents, nodes, edges
and walk steps, each one statement, in the orders the SQLite store gives."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from groundgraph.model import Document, Edge, Node
from groundgraph.model.ids import ENTITY_PREFIX
from groundgraph.model.store_records import (
    DocumentPage,
    DocumentQuery,
    PendingLink,
    StoreCounts,
    check_page,
)
from groundgraph.store.edge_columns import EdgeColumns, read_edge_columns
from groundgraph.store.postgres.connection import Database
from groundgraph.store.postgres.edge_scan import read_packed_edge_columns
from groundgraph.store.postgres.faults import server_errors_are_store_errors
from groundgraph.store.postgres.rows import EDGE_FROM, EDGE_SELECT, NODE_FROM, NODE_SELECT
from groundgraph.store.postgres.rows import edge_row as _edge
from groundgraph.store.postgres.rows import node_row as _node
from groundgraph.store.postgres.text import unescape_nul

__all__ = ["PostgresGraphReads"]

# The walk's steps (GraphReads.walk_arcs), as the SQLite store's _STEPS: the asked nodes
# that are not hubs step along their edges, and those few enough edges point to (or all,
# when fan_in is NULL) step back along them; a hub gives all its steps, to be counted.
# Edge counts stop one past the bound they are compared with.
# LATERAL keeps each node's edges an index lookup even before the tables were analysed
# (right after bulk indexing, when the planner still thinks the edges table is empty).
# Each step names its asked node by its place in ``ids`` (``node``), not by its id: a
# step's row then carries one text value, the other end's id, which halves what a hop
# decodes.
_STEPS = """
WITH asked AS (
    SELECT n.key, a.place AS node, left(n.node_id, %(plen)s) = %(prefix)s AS hub
    FROM unnest(%(ids)s::text[]) WITH ORDINALITY AS a(node_id, place)
    JOIN nodes n ON n.node_id = a.node_id
), open AS (
    SELECT key, node, hub FROM asked WHERE NOT hub
    OR (SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE src = asked.key
        LIMIT %(fanout)s + 1) f)
        + (SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE dst = asked.key
        LIMIT %(fanout)s + 1) g) <= %(fanout)s
), back AS (
    SELECT key, node, hub FROM open
    WHERE hub OR %(fan_in)s::bigint IS NULL
    OR (SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE dst = open.key
        LIMIT %(fan_in)s::bigint + 1) h) <= %(fan_in)s::bigint
)
SELECT node, other, type, weight, against FROM (
    SELECT o.node, t.node_id AS other, e.type, e.weight, 0 AS against, o.key, e.id
    FROM open o CROSS JOIN LATERAL (
        SELECT id, dst, type, weight FROM edges WHERE src = o.key
        AND invalid_at IS NULL AND src != dst AND (weight >= %(weakest)s OR o.hub)
    ) e JOIN nodes t ON t.key = e.dst
    UNION ALL
    SELECT b.node, s.node_id, e.type, e.weight, 1, b.key, e.id
    FROM back b CROSS JOIN LATERAL (
        SELECT id, src, type, weight FROM edges WHERE dst = b.key
        AND invalid_at IS NULL AND src != dst AND (weight >= %(weakest)s OR b.hub)
    ) e JOIN nodes s ON s.key = e.src
) steps ORDER BY against, key, id
"""

_DOCUMENT = (
    "SELECT doc_id, title, description, source, content_hash, scopes, added_at, metadata,"
    " ingest FROM documents"
)

_LISTED = (
    "SELECT d.doc_id, d.title, d.description, d.source, d.content_hash, d.scopes, d.added_at,"
    " d.metadata, d.ingest FROM documents d"
)
_UNTIL = "(%(until)s::text IS NULL OR {t}.added_at <= %(until)s)"
_AFTER = '({t}.added_at COLLATE "C", {t}.doc_id) > (%(at)s, %(id)s)'
_ORDER = 'ORDER BY {t}.added_at COLLATE "C", {t}.doc_id'


def _facts(query: DocumentQuery) -> str:
    """The ``fact`` values a query matches (both, when it does not ask)."""
    return "(FALSE, TRUE)" if query.facts is None else f"({query.facts})"


def _scoped(query: DocumentQuery, extra: str) -> str:
    """The ``document_scopes s`` rows of the scope names a query matches (``names`` set),
    ``extra`` further conditions: each name and each prefix an index range of its own.
    Scope names compare by code point (COLLATE "C"), as SQLite and Python do."""
    where = f"s.fact IN {_facts(query)}{extra}"
    return (
        "SELECT s.scope, s.added_at, s.doc_id FROM document_scopes s"
        f" WHERE s.scope = ANY(%(names)s::text[]) AND {where}"
        " UNION ALL SELECT s.scope, s.added_at, s.doc_id"
        " FROM unnest(%(lows)s::text[], %(highs)s::text[]) r(low, high)"
        " CROSS JOIN LATERAL (SELECT * FROM document_scopes s WHERE s.scope >= r.low"
        f" AND s.scope < r.high AND {where}) s"
    )


def _params(query: DocumentQuery, **more: object) -> dict[str, object]:
    ranges = query.prefix_ranges()
    return {
        "names": list(query.names or ()),
        "lows": [low for low, _ in ranges],
        "highs": [high for _, high in ranges],
        "until": query.added_until,
        **more,
    }


@server_errors_are_store_errors
class PostgresGraphReads:
    """The read side of a PostgreSQL store."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def get_document(self, doc_id: str) -> Document | None:
        rows = self._db.query(f"{_DOCUMENT} WHERE doc_id = %s", (doc_id,))
        return _document(rows[0]) if rows else None

    def documents(self) -> list[Document]:
        return [_document(r) for r in self._db.query(f"{_DOCUMENT} ORDER BY seq")]

    def document_page(
        self,
        query: DocumentQuery,
        after: tuple[str, str] | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> DocumentPage:
        # Index range scans (schema version 7), as the SQLite store's.
        check_page(offset, limit)
        at, doc = after if after is not None else (None, None)
        params = _params(query, at=at, id=doc, limit=limit, offset=offset)
        keyed = "" if after is None else " AND " + _AFTER
        if query.names is None:
            plain = "TRUE" if query.facts is None else f"d.fact = {query.facts}"
            held = self._db.query(
                f"SELECT COUNT(*) FILTER (WHERE {_UNTIL.format(t='d')}), MIN(d.added_at"
                f' COLLATE "C"), MAX(d.added_at COLLATE "C") FROM documents d WHERE {plain}',
                params,
            )
            rows = self._db.query(
                f"{_LISTED} WHERE {plain} AND {_UNTIL.format(t='d')}{keyed.format(t='d')}"
                f" {_ORDER.format(t='d')} LIMIT %(limit)s OFFSET %(offset)s",
                params,
            )
        else:
            held = self._db.query(
                f"SELECT COUNT(*) FILTER (WHERE {_UNTIL.format(t='k')}), MIN(k.added_at),"
                f" MAX(k.added_at) FROM (SELECT DISTINCT added_at, doc_id FROM"
                f" ({_scoped(query, '')}) m) k",
                params,
            )
            matches = _scoped(query, f" AND {_UNTIL.format(t='s')}{keyed.format(t='s')}")
            rows = self._db.query(
                f"{_LISTED} JOIN (SELECT DISTINCT added_at, doc_id FROM ({matches}) m"
                " ORDER BY added_at, doc_id LIMIT %(limit)s OFFSET %(offset)s) k"
                " ON d.doc_id = k.doc_id ORDER BY k.added_at, k.doc_id",
                params,
            )
        total, first, last = held[0]
        return DocumentPage(
            tuple(_document(r) for r in rows),
            int(total),
            None if first is None else str(first),
            None if last is None else str(last),
        )

    def scope_names(
        self, query: DocumentQuery, after: str | None = None, limit: int | None = None
    ) -> list[str]:
        params = _params(query, after=after, limit=limit)
        where = f" AND {_UNTIL.format(t='s')} AND (%(after)s::text IS NULL OR s.scope > %(after)s)"
        matches = (
            f"SELECT s.scope FROM document_scopes s WHERE s.fact IN {_facts(query)}{where}"
            if query.names is None
            else f"SELECT scope FROM ({_scoped(query, where)}) m"
        )
        rows = self._db.query(
            f"SELECT DISTINCT scope FROM ({matches}) n ORDER BY scope LIMIT %(limit)s", params
        )
        return [str(r[0]) for r in rows]

    def node_counts(self, doc_ids: Sequence[str] | None = None) -> dict[str, int]:
        if doc_ids is not None:
            rows = self._db.query(
                "SELECT d.doc_id, COUNT(*) FROM documents d JOIN nodes n ON n.doc = d.seq"
                " WHERE d.doc_id = ANY(%s) GROUP BY d.doc_id",
                (list(doc_ids),),
            )
            return {str(d): int(c) for d, c in rows}
        rows = self._db.query(
            "SELECT COALESCE(d.doc_id, ''), COUNT(*) FROM nodes n"
            " LEFT JOIN documents d ON d.seq = n.doc AND n.doc != 0 GROUP BY n.doc, d.doc_id"
        )
        return {str(d): int(c) for d, c in rows}

    def get_nodes(self, node_ids: Sequence[str]) -> dict[str, Node]:
        if not node_ids:
            return {}
        rows = self._db.query(
            f"SELECT {NODE_SELECT} FROM {NODE_FROM} WHERE n.node_id = ANY(%s)",
            (list(node_ids),),
            prepare=True,
        )
        return {str(r[0]): _node(r) for r in rows}

    def entity_nodes(self) -> list[Node]:
        rows = self._db.query(
            f"SELECT {NODE_SELECT} FROM {NODE_FROM}"
            " WHERE n.kind = 'entity' AND n.doc = 0 ORDER BY n.seq"
        )
        return [_node(r) for r in rows]

    def document_nodes(self, doc_id: str) -> list[Node]:
        rows = self._db.query(
            f"SELECT {NODE_SELECT} FROM {NODE_FROM}"
            " WHERE n.doc = (SELECT seq FROM documents WHERE doc_id = %s) ORDER BY n.seq",
            (doc_id,),
        )
        return [_node(r) for r in rows]

    def iter_nodes(self, batch: int = 5000) -> Iterator[Node]:
        # Pages of one snapshot (REPEATABLE READ): a document replaced meanwhile is
        # neither read twice nor half.
        last_doc, last_seq = -1, -1
        with self._db.snapshot() as query:
            while True:
                rows = query(
                    f"SELECT {NODE_SELECT}, n.doc, n.seq FROM {NODE_FROM}"
                    " WHERE n.doc != 0 AND (n.doc, n.seq) > (%s, %s)"
                    " ORDER BY n.doc, n.seq LIMIT %s",
                    (last_doc, last_seq, batch),
                )
                if not rows:
                    return
                for row in rows:
                    yield _node(row)
                last_doc, last_seq = int(rows[-1][-2]), int(rows[-1][-1])

    def edges_touching(
        self, node_ids: Sequence[str], types: Sequence[str] | None = None, *, leaving: bool = False
    ) -> list[Edge]:
        if not node_ids:
            return []
        typed = "" if types is None else " AND e2.type = ANY(%s)"
        ids, kinds = list(node_ids), () if types is None else (list(types),)
        entering = (
            ""
            if leaving
            else " UNION SELECT e2.id FROM edges e2 JOIN nodes k ON k.key = e2.dst"
            f" WHERE k.node_id = ANY(%s){typed}"
        )
        rows = self._db.query(
            f"SELECT {EDGE_SELECT} FROM {EDGE_FROM} WHERE e.id IN ("
            " SELECT e2.id FROM edges e2 JOIN nodes k ON k.key = e2.src"
            f" WHERE k.node_id = ANY(%s){typed}{entering}"
            ") ORDER BY e.id",
            (ids, *kinds) if leaving else (ids, *kinds, ids, *kinds),
        )
        return [_edge(r) for r in rows]

    def owned_edges(self, doc_ids: Sequence[str]) -> list[Edge]:
        if not doc_ids:
            return []
        rows = self._db.query(
            f"SELECT {EDGE_SELECT} FROM {EDGE_FROM} WHERE e.doc IN"
            " (SELECT seq FROM documents WHERE doc_id = ANY(%s)) ORDER BY e.id",
            (list(doc_ids),),
        )
        return [_edge(r) for r in rows]

    def walk_arcs(
        self,
        node_ids: Sequence[str],
        max_fanout: int,
        hub_prefix: str = ENTITY_PREFIX,
        weakest: float = 0.0,
        max_fan_in: int | None = None,
    ) -> list[tuple[str, str, str, float, bool, int]]:
        if not node_ids:
            return []
        asked = list(dict.fromkeys(node_ids))
        rows = self._db.query_plain(
            _STEPS,
            {
                "ids": asked,
                "plen": len(hub_prefix),
                "prefix": hub_prefix,
                "fanout": max_fanout,
                "fan_in": max_fan_in,
                "weakest": weakest,
            },  # type: ignore[arg-type]
        )
        counted: dict[int, int] = {}
        for row in rows:
            counted[row[0]] = counted.get(row[0], 0) + 1
        return [
            (asked[n - 1], unescape_nul(o), unescape_nul(t), w, bool(a), counted[n])
            for n, o, t, w, a in rows
        ]

    def edge_columns(self) -> EdgeColumns:
        with self._db.snapshot() as query:  # the nodes, edges and generation of one state
            packed = read_packed_edge_columns(query)  # None: edges that do not pack
            return packed if packed is not None else read_edge_columns(query, "%s")

    def iter_edges(self, types: Sequence[str] | None = None) -> Iterator[Edge]:
        last = 0
        kinds = list(types or [])
        with self._db.snapshot() as query:  # pages of one state, as iter_nodes
            while True:
                rows = query(
                    f"SELECT {EDGE_SELECT}, e.id FROM {EDGE_FROM} WHERE e.id > %s"
                    + (" AND e.type = ANY(%s)" if types else "")
                    + " ORDER BY e.id LIMIT 5000",
                    (last, kinds) if types else (last,),
                )
                if not rows:
                    return
                yield from (_edge(r) for r in rows)
                last = int(rows[-1][-1])

    def pending_links_to(self, targets: Sequence[str]) -> list[PendingLink]:
        if not targets:
            return []
        rows = self._db.query(
            "SELECT n.node_id, d.doc_id, l.target FROM doc_links l"
            " JOIN nodes n ON n.key = l.node JOIN documents d ON d.seq = l.doc"
            " WHERE l.target = ANY(%s) ORDER BY l.id",
            (list(targets),),
        )
        return [PendingLink(str(n), str(d), str(t)) for n, d, t in rows]

    def counts(self) -> StoreCounts:
        rows = self._db.query(
            "SELECT (SELECT COUNT(*) FROM documents), (SELECT COUNT(*) FROM nodes)"
        )
        docs, nodes = rows[0]
        types = self._db.query("SELECT type, COUNT(*) FROM edges GROUP BY type ORDER BY type")
        by_type = {str(t): int(c) for t, c in types}
        return StoreCounts(int(docs), int(nodes), sum(by_type.values()), by_type)

    def iter_owned_edges(self) -> Iterator[tuple[str, Edge]]:
        """Every edge with the id of the document that owns it, in the order added, of one
        state of the store (what ``groundgraph copy`` reads)."""
        last = 0
        with self._db.snapshot() as query:
            while True:
                rows = query(
                    f"SELECT {EDGE_SELECT}, e.id FROM {EDGE_FROM} WHERE e.id > %s"
                    " ORDER BY e.id LIMIT 5000",
                    (last,),
                )
                if not rows:
                    return
                yield from ((str(r[9]), _edge(r)) for r in rows)
                last = int(rows[-1][-1])

    def pending_links(self) -> list[PendingLink]:
        """Every pending link, in the order written."""
        rows = self._db.query(
            "SELECT n.node_id, d.doc_id, l.target FROM doc_links l"
            " JOIN nodes n ON n.key = l.node JOIN documents d ON d.seq = l.doc ORDER BY l.id"
        )
        return [PendingLink(str(n), str(d), str(t)) for n, d, t in rows]


def _document(row: tuple[Any, ...]) -> Document:
    return Document(
        doc_id=str(row[0]),
        title=str(row[1]),
        description=str(row[2]),
        source=str(row[3]),
        content_hash=str(row[4]),
        scopes=tuple(json.loads(str(row[5]))),
        added_at=str(row[6]),
        metadata=tuple((str(k), str(v)) for k, v in json.loads(str(row[7]))),
        ingest=str(row[8]),
    )
