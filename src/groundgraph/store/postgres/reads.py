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
from groundgraph.store.postgres.connection import Database
from groundgraph.store.postgres.faults import server_errors_are_store_errors
from groundgraph.store.postgres.rows import EDGE_FROM, EDGE_SELECT, NODE_FROM, NODE_SELECT
from groundgraph.store.postgres.rows import edge_row as _edge
from groundgraph.store.postgres.rows import node_row as _node
from groundgraph.store.postgres.text import unescape_nul

__all__ = ["PostgresGraphReads"]

# The walk's steps (GraphReads.walk_arcs), as the SQLite store's _STEPS: the asked nodes
# that are not hubs step along their edges, and those few enough edges point to (or all,
# when fan_in is NULL) step back along them; a hub gives all its steps, to be counted.
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
    OR (SELECT COUNT(*) FROM edges WHERE src = asked.key)
        + (SELECT COUNT(*) FROM edges WHERE dst = asked.key) <= %(fanout)s
), back AS (
    SELECT key, node, hub FROM open
    WHERE hub OR %(fan_in)s::bigint IS NULL
    OR (SELECT COUNT(*) FROM edges WHERE dst = open.key) <= %(fan_in)s::bigint
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

# Scope names compare and sort by code point (COLLATE "C"), as SQLite and Python do.
_NAMED = (
    "(j = ANY(%(names)s::text[]) OR EXISTS (SELECT 1 FROM unnest(%(prefixes)s::text[]) p"
    " WHERE left(j, length(p)) = p))"
)


def _matching(query: DocumentQuery) -> tuple[str, dict[str, object]]:
    """The WHERE clause of a query over ``documents``, added_until aside."""
    parts: list[str] = []
    params: dict[str, object] = {}
    if query.facts is not None:
        parts.append(("" if query.facts else "NOT ") + "doc_id ~ '^fact:[0-9a-f]{16}$'")
    if query.names is not None:
        parts.append(
            f"EXISTS (SELECT 1 FROM jsonb_array_elements_text(scopes::jsonb) j WHERE {_NAMED})"
        )
        params.update(names=list(query.names), prefixes=list(query.prefixes))
    return " AND ".join(parts) or "TRUE", params


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
        check_page(offset, limit)
        where, params = _matching(query)
        params.update(until=query.added_until, limit=limit, offset=offset)
        held = self._db.query(
            "SELECT COUNT(*) FILTER (WHERE %(until)s::text IS NULL OR added_at <= %(until)s),"
            f" MIN(added_at), MAX(added_at) FROM documents WHERE {where}",
            params,
        )
        total, first, last = held[0]
        page = [where, "(%(until)s::text IS NULL OR added_at <= %(until)s)"]
        if after is not None:
            page.append('(added_at COLLATE "C", doc_id COLLATE "C") > (%(at)s, %(id)s)')
            params.update(at=after[0], id=after[1])
        rows = self._db.query(
            f"{_DOCUMENT} WHERE {' AND '.join(page)}"
            ' ORDER BY added_at COLLATE "C", doc_id COLLATE "C" LIMIT %(limit)s OFFSET %(offset)s',
            params,
        )
        return DocumentPage(
            tuple(_document(r) for r in rows),
            int(total),
            None if first is None else str(first),
            None if last is None else str(last),
        )

    def scope_names(
        self, query: DocumentQuery, after: str | None = None, limit: int | None = None
    ) -> list[str]:
        where, params = _matching(DocumentQuery(facts=query.facts))
        named = "TRUE"
        if query.names is not None:
            named = _NAMED
            params.update(names=list(query.names), prefixes=list(query.prefixes))
        params.update(after=after, until=query.added_until, limit=limit)
        rows = self._db.query(
            'SELECT DISTINCT j COLLATE "C" AS name'
            " FROM documents, jsonb_array_elements_text(scopes::jsonb) j"
            f" WHERE {where} AND {named}"
            ' AND (%(after)s::text IS NULL OR j COLLATE "C" > %(after)s)'
            " AND (%(until)s::text IS NULL OR added_at <= %(until)s)"
            " ORDER BY name LIMIT %(limit)s",
            params,
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

    def edges_touching(self, node_ids: Sequence[str]) -> list[Edge]:
        if not node_ids:
            return []
        rows = self._db.query(
            f"SELECT {EDGE_SELECT} FROM {EDGE_FROM} WHERE e.id IN ("
            " SELECT e2.id FROM edges e2 JOIN nodes k ON k.key = e2.src WHERE k.node_id = ANY(%s)"
            " UNION"
            " SELECT e2.id FROM edges e2 JOIN nodes k ON k.key = e2.dst WHERE k.node_id = ANY(%s)"
            ") ORDER BY e.id",
            (list(node_ids), list(node_ids)),
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
