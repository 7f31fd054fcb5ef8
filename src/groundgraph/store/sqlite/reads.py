"""Reading the graph back out of SQLite (``GraphReads``): documents, nodes, edges and
walk steps."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, cast

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
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.damage import damage_is_store_error
from groundgraph.store.sqlite.edge_scan import read_packed_edge_columns
from groundgraph.store.sqlite.rows import EDGE_FROM as _EDGE_FROM
from groundgraph.store.sqlite.rows import EDGE_SELECT as _EDGE_SELECT
from groundgraph.store.sqlite.rows import KEYS_OF as _KEYS_OF
from groundgraph.store.sqlite.rows import NODE_FROM as _NODE_FROM
from groundgraph.store.sqlite.rows import NODE_SELECT as _NODE_SELECT
from groundgraph.store.sqlite.rows import edge_row as _edge
from groundgraph.store.sqlite.rows import int_of as _int
from groundgraph.store.sqlite.rows import json_list as _json_list
from groundgraph.store.sqlite.rows import node_row as _node
from groundgraph.store.sqlite.rows import unpack_hash, unpack_ingest, unpack_text

# One statement: the nodes named in ?1 that are not hubs (a hub: ?3 characters of prefix
# ?4 and more than ?5 edges) step along their edges; those that ?6 or fewer edges point to
# (or every one, when ?6 is NULL) also step back along them. ?2 is the weakest weight
# asked for; a hub's steps all come, so that they can be counted. Edge counts come from
# the indexes alone, valid edges or not, and stop one past the bound they are compared
# with (a hub's thousands of edges are not counted to the end: 2.9 -> 2.1 ms of CPU a
# search at 100k sections). Edges name their ends by node key.
_STEPS = """
WITH asked(key, node, hub) AS (
    SELECT key, node_id, substr(node_id, 1, ?3) = ?4 FROM nodes
    WHERE node_id IN (SELECT value FROM json_each(?1))
), open(key, node, hub) AS (
    SELECT key, node, hub FROM asked WHERE NOT hub
    OR (SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE src = asked.key LIMIT ?5 + 1))
        + (SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE dst = asked.key LIMIT ?5 + 1))
        <= ?5
), back(key, node, hub) AS (
    SELECT key, node, hub FROM open
    WHERE hub OR ?6 IS NULL
    OR (SELECT COUNT(*) FROM (SELECT 1 FROM edges WHERE dst = open.key
        LIMIT COALESCE(?6, 0) + 1)) <= ?6
)
SELECT o.node, t.node_id, k.name, COALESCE(e.weight, k.weight), 0
FROM open o JOIN edges e ON e.src = o.key JOIN edge_types k ON k.code = e.type
JOIN nodes t ON t.key = e.dst
WHERE e.invalid_at IS NULL AND e.src != e.dst AND (COALESCE(e.weight, k.weight) >= ?2 OR o.hub)
UNION ALL
SELECT b.node, s.node_id, k.name, COALESCE(e.weight, k.weight), 1
FROM back b JOIN edges e ON e.dst = b.key JOIN edge_types k ON k.code = e.type
JOIN nodes s ON s.key = e.src
WHERE e.invalid_at IS NULL AND e.src != e.dst AND (COALESCE(e.weight, k.weight) >= ?2 OR b.hub)
"""
# The codes of the type names in the JSON list bound to ?2.
# The edge table as read_edge_columns reads it (schema 8): type names, usual weights.
_EDGE_COLUMNS_FROM = (
    "(SELECT e.id AS id, e.src AS src, e.dst AS dst, k.name AS type,"
    " COALESCE(e.weight, k.weight) AS weight, e.invalid_at AS invalid_at"
    " FROM edges e JOIN edge_types k ON k.code = e.type)"
)
_CODES_OF = "SELECT code FROM edge_types WHERE name IN (SELECT value FROM json_each(?2))"

_DOCUMENT_COLUMNS = (
    "d.doc_id, d.title, d.description, d.source, d.content_hash, d.scopes, d.added_at,"
    " d.metadata, d.ingest"
)
_UNTIL = "(:until IS NULL OR {t}.added_at <= :until)"
_AFTER = "({t}.added_at, {t}.doc_id) > (:at, :id)"


def _facts(query: DocumentQuery) -> str:
    """The ``fact`` values a query matches (both, when it does not ask)."""
    return "(0, 1)" if query.facts is None else f"({int(query.facts)})"


def _scoped(query: DocumentQuery, extra: str) -> str:
    """The ``document_scopes s`` rows of the scope names a query matches (``names`` set),
    ``extra`` further conditions: each name and each prefix an index range of its own."""
    where = f"s.fact IN {_facts(query)}{extra}"
    return (
        "SELECT s.scope, s.added_at, s.doc_id FROM document_scopes s"
        f" WHERE s.scope IN (SELECT value FROM json_each(:names)) AND {where}"
        " UNION ALL SELECT s.scope, s.added_at, s.doc_id FROM json_each(:ranges) r"
        " CROSS JOIN document_scopes s WHERE s.scope >= json_extract(r.value, '$[0]')"
        f" AND s.scope < json_extract(r.value, '$[1]') AND {where}"
    )


def _params(query: DocumentQuery, **more: object) -> dict[str, object]:
    return {
        "names": _json_list(query.names or ()),
        "ranges": json.dumps(query.prefix_ranges(), ensure_ascii=False),
        "until": query.added_until,
        **more,
    }


__all__ = ["SQLiteGraphReads"]


@damage_is_store_error
class SQLiteGraphReads:
    """The read side of a SQLite store; every query is one statement."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def get_document(self, doc_id: str) -> Document | None:
        rows = self._db.query(
            "SELECT doc_id, title, description, source, content_hash, scopes, added_at,"
            " metadata, ingest "
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
            content_hash=unpack_hash(row[4]),
            scopes=tuple(json.loads(str(row[5]))),
            added_at=str(row[6]),
            metadata=tuple((str(k), str(v)) for k, v in json.loads(unpack_text(row[7]))),
            ingest=unpack_ingest(row[8]),
        )

    def documents(self) -> list[Document]:
        rows = self._db.query(
            "SELECT doc_id, title, description, source, content_hash, scopes, added_at,"
            " metadata, ingest "
            "FROM documents ORDER BY seq"
        )
        return [self._document(r) for r in rows]

    def document_page(
        self,
        query: DocumentQuery,
        after: tuple[str, str] | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> DocumentPage:
        # Index range scans (schema version 7): documents in listing order, or the
        # document_scopes rows of the names asked for; only their matches are read.
        check_page(offset, limit)
        at, doc = after if after is not None else (None, None)
        params = _params(query, at=at, id=doc, limit=limit, offset=offset)
        keyed = "" if after is None else " AND " + _AFTER
        if query.names is None:
            plain = "TRUE" if query.facts is None else f"d.fact = {int(query.facts)}"
            held = self._db.query(
                f"SELECT COALESCE(SUM({_UNTIL.format(t='d')}), 0), MIN(d.added_at),"
                f" MAX(d.added_at) FROM documents d WHERE {plain}",
                params,
            )
            rows = self._db.query(
                f"SELECT {_DOCUMENT_COLUMNS} FROM documents d"
                f" WHERE {plain} AND {_UNTIL.format(t='d')}{keyed.format(t='d')}"
                " ORDER BY d.added_at, d.doc_id LIMIT :limit OFFSET :offset",
                params,
            )
        else:
            held = self._db.query(
                f"SELECT COALESCE(SUM({_UNTIL.format(t='k')}), 0), MIN(k.added_at),"
                f" MAX(k.added_at) FROM (SELECT DISTINCT added_at, doc_id FROM"
                f" ({_scoped(query, '')})) k",
                params,
            )
            matches = _scoped(query, f" AND {_UNTIL.format(t='s')}{keyed.format(t='s')}")
            rows = self._db.query(
                f"SELECT {_DOCUMENT_COLUMNS} FROM (SELECT DISTINCT added_at, doc_id"
                f" FROM ({matches}) ORDER BY added_at, doc_id LIMIT :limit OFFSET :offset) k"
                " JOIN documents d ON d.doc_id = k.doc_id ORDER BY k.added_at, k.doc_id",
                params,
            )
        total, first, last = held[0]
        return DocumentPage(
            tuple(self._document(r) for r in rows),
            _int(total),
            None if first is None else str(first),
            None if last is None else str(last),
        )

    def scope_names(
        self, query: DocumentQuery, after: str | None = None, limit: int | None = None
    ) -> list[str]:
        params = _params(query, after=after, limit=-1 if limit is None else limit)
        where = f" AND {_UNTIL.format(t='s')} AND (:after IS NULL OR s.scope > :after)"
        matches = (
            f"SELECT s.scope FROM document_scopes s WHERE s.fact IN {_facts(query)}{where}"
            if query.names is None
            else f"SELECT scope FROM ({_scoped(query, where)})"
        )
        rows = self._db.query(
            f"SELECT DISTINCT scope FROM ({matches}) ORDER BY scope LIMIT :limit", params
        )
        return [str(r[0]) for r in rows]

    def node_counts(self, doc_ids: Sequence[str] | None = None) -> dict[str, int]:
        if doc_ids is not None:
            rows = self._db.query(
                "SELECT d.doc_id, COUNT(*) FROM documents d JOIN nodes n ON n.doc = d.seq"
                " WHERE d.doc_id IN (SELECT value FROM json_each(?)) GROUP BY d.doc_id",
                (_json_list(doc_ids),),
            )
            return {str(d): _int(c) for d, c in rows}
        rows = self._db.query(
            "SELECT COALESCE(d.doc_id, ''), COUNT(*) FROM nodes n"
            " LEFT JOIN documents d ON d.seq = n.doc AND n.doc != 0 GROUP BY n.doc"
        )
        return {str(d): _int(c) for d, c in rows}

    def get_nodes(self, node_ids: Sequence[str]) -> dict[str, Node]:
        if not node_ids:
            return {}
        rows = self._db.query(
            f"SELECT {_NODE_SELECT} FROM {_NODE_FROM}"
            " WHERE n.node_id IN (SELECT value FROM json_each(?))",
            (_json_list(node_ids),),
        )
        return {str(r[0]): _node(r) for r in rows}

    def entity_nodes(self) -> list[Node]:
        rows = self._db.query(
            f"SELECT {_NODE_SELECT} FROM {_NODE_FROM}"
            " WHERE n.kind = 'entity' AND n.doc = 0 ORDER BY n.seq"
        )
        return [_node(r) for r in rows]

    def document_nodes(self, doc_id: str) -> list[Node]:
        rows = self._db.query(
            f"SELECT {_NODE_SELECT} FROM {_NODE_FROM}"
            " WHERE n.doc = (SELECT seq FROM documents WHERE doc_id = ?) ORDER BY n.seq",
            (doc_id,),
        )
        return [_node(r) for r in rows]

    def iter_nodes(self, batch: int = 5000) -> Iterator[Node]:
        # Pages of one snapshot: a document replaced meanwhile (its nodes move to a new
        # seq) is neither read twice nor read half old and half new.
        last_doc, last_seq = -1, -1
        with self._db.snapshot() as query:
            while True:
                rows = query(
                    f"SELECT {_NODE_SELECT}, n.doc, n.seq FROM {_NODE_FROM}"
                    " WHERE n.doc != 0 AND (n.doc, n.seq) > (?, ?) ORDER BY n.doc, n.seq LIMIT ?",
                    (last_doc, last_seq, batch),
                )
                if not rows:
                    return
                for row in rows:
                    yield _node(row)
                last_doc, last_seq = _int(rows[-1][-2]), _int(rows[-1][-1])

    def edges_touching(
        self, node_ids: Sequence[str], types: Sequence[str] | None = None, *, leaving: bool = False
    ) -> list[Edge]:
        if not node_ids:
            return []
        ids = _json_list(node_ids)
        typed = "" if types is None else f" AND e.type IN ({_CODES_OF})"
        kinds = () if types is None else (_json_list(types),)
        entering = (
            ""
            if leaving
            else f" UNION SELECT {_EDGE_SELECT}, e.id AS id FROM {_EDGE_FROM}"
            f" WHERE e.dst IN ({_KEYS_OF}){typed}"
        )
        rows = self._db.query(
            f"SELECT {_EDGE_SELECT}, e.id AS id FROM {_EDGE_FROM}"
            f" WHERE e.src IN ({_KEYS_OF}){typed}{entering} ORDER BY id",
            (ids, *kinds),
        )
        return [_edge(r) for r in rows]

    def owned_edges(self, doc_ids: Sequence[str]) -> list[Edge]:
        if not doc_ids:
            return []
        rows = self._db.query(
            f"SELECT {_EDGE_SELECT} FROM {_EDGE_FROM} WHERE e.id IN (SELECT o.id FROM"
            " documents m JOIN edge_runs r ON r.doc = m.seq JOIN edges o ON o.id BETWEEN"
            " r.first AND r.last AND o.doc = m.seq"
            " WHERE m.doc_id IN (SELECT value FROM json_each(?))) ORDER BY e.id",
            (_json_list(doc_ids),),
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
        ids = _json_list(node_ids)
        query = (ids, weakest, len(hub_prefix), hub_prefix, max_fanout, max_fan_in)
        rows = self._db.query(_STEPS, query)
        counted: dict[str, int] = {}
        for row in rows:
            node = str(row[0])
            counted[node] = counted.get(node, 0) + 1
        return [
            (str(n), str(o), str(t), float(cast(Any, w)), bool(a), counted[str(n)])
            for n, o, t, w, a in rows
        ]

    def edge_columns(self) -> EdgeColumns:
        with self._db.snapshot() as query:  # the nodes, edges and generation of one state
            packed = read_packed_edge_columns(query)  # None: keys too wide to pack
            if packed is not None:
                return packed
            return read_edge_columns(query, "?", _EDGE_COLUMNS_FROM)

    def iter_edges(self, types: Sequence[str] | None = None) -> Iterator[Edge]:
        last = 0
        kinds = _json_list(types or [])
        with self._db.snapshot() as query:  # pages of one state, as iter_nodes
            while True:
                rows = query(
                    f"SELECT {_EDGE_SELECT}, e.id FROM {_EDGE_FROM} WHERE e.id > ?1"
                    + (f" AND e.type IN ({_CODES_OF})" if types else "")
                    + " ORDER BY e.id LIMIT 5000",
                    (last, kinds) if types else (last,),
                )
                if not rows:
                    return
                yield from (_edge(r) for r in rows)
                last = _int(rows[-1][-1])

    def pending_links_to(self, targets: Sequence[str]) -> list[PendingLink]:
        if not targets:
            return []
        rows = self._db.query(
            "SELECT n.node_id, d.doc_id, t.target FROM link_targets t"
            " JOIN doc_links l ON l.target = t.key"
            " JOIN nodes n ON n.key = l.node JOIN documents d ON d.seq = l.doc"
            " WHERE t.target IN (SELECT value FROM json_each(?)) ORDER BY l.rowid",
            (_json_list(targets),),
        )
        return [PendingLink(str(n), str(d), str(t)) for n, d, t in rows]

    def counts(self) -> StoreCounts:
        docs = self._db.query("SELECT COUNT(*) FROM documents")[0][0]
        nodes = self._db.query("SELECT COUNT(*) FROM nodes")[0][0]
        types = self._db.query(
            "SELECT k.name, c.n FROM (SELECT type, COUNT(*) AS n FROM edges GROUP BY type) c"
            " JOIN edge_types k ON k.code = c.type ORDER BY k.name"
        )
        by_type = {str(t): _int(c) for t, c in types}
        return StoreCounts(_int(docs), _int(nodes), sum(by_type.values()), by_type)

    def iter_owned_edges(self) -> Iterator[tuple[str, Edge]]:
        """Every edge with the id of the document that owns it, in the order added, of one
        state of the store (what ``groundgraph copy`` reads)."""
        last = 0
        with self._db.snapshot() as query:
            while True:
                rows = query(
                    f"SELECT {_EDGE_SELECT}, e.id FROM {_EDGE_FROM} WHERE e.id > ?"
                    " ORDER BY e.id LIMIT 5000",
                    (last,),
                )
                if not rows:
                    return
                yield from ((str(r[9]), _edge(r)) for r in rows)
                last = _int(rows[-1][-1])

    def pending_links(self) -> list[PendingLink]:
        """Every pending link, in the order written."""
        rows = self._db.query(
            "SELECT n.node_id, d.doc_id, t.target FROM doc_links l"
            " JOIN link_targets t ON t.key = l.target"
            " JOIN nodes n ON n.key = l.node JOIN documents d ON d.seq = l.doc ORDER BY l.rowid"
        )
        return [PendingLink(str(n), str(d), str(t)) for n, d, t in rows]
