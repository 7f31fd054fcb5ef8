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
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.damage import damage_is_store_error
from groundgraph.store.sqlite.rows import EDGE_FROM as _EDGE_FROM
from groundgraph.store.sqlite.rows import EDGE_SELECT as _EDGE_SELECT
from groundgraph.store.sqlite.rows import KEYS_OF as _KEYS_OF
from groundgraph.store.sqlite.rows import NODE_FROM as _NODE_FROM
from groundgraph.store.sqlite.rows import NODE_SELECT as _NODE_SELECT
from groundgraph.store.sqlite.rows import edge_row as _edge
from groundgraph.store.sqlite.rows import int_of as _int
from groundgraph.store.sqlite.rows import json_list as _json_list
from groundgraph.store.sqlite.rows import node_row as _node

# One statement: the nodes named in ?1 that are not hubs (a hub: ?3 characters of prefix
# ?4 and more than ?5 edges) step along their edges; those that ?6 or fewer edges point to
# (or every one, when ?6 is NULL) also step back along them. ?2 is the weakest weight
# asked for; a hub's steps all come, so that they can be counted. Edge counts come from
# the indexes alone, valid edges or not. Edges name their ends by node key.
_STEPS = """
WITH asked(key, node, hub) AS (
    SELECT key, node_id, substr(node_id, 1, ?3) = ?4 FROM nodes
    WHERE node_id IN (SELECT value FROM json_each(?1))
), open(key, node, hub) AS (
    SELECT key, node, hub FROM asked WHERE NOT hub
    OR (SELECT COUNT(*) FROM edges WHERE src = asked.key)
        + (SELECT COUNT(*) FROM edges WHERE dst = asked.key) <= ?5
), back(key, node, hub) AS (
    SELECT key, node, hub FROM open
    WHERE hub OR ?6 IS NULL OR (SELECT COUNT(*) FROM edges WHERE dst = open.key) <= ?6
)
SELECT o.node, t.node_id, e.type, e.weight, 0
FROM open o JOIN edges e ON e.src = o.key JOIN nodes t ON t.key = e.dst
WHERE e.invalid_at IS NULL AND e.src != e.dst AND (e.weight >= ?2 OR o.hub)
UNION ALL
SELECT b.node, s.node_id, e.type, e.weight, 1
FROM back b JOIN edges e ON e.dst = b.key JOIN nodes s ON s.key = e.src
WHERE e.invalid_at IS NULL AND e.src != e.dst AND (e.weight >= ?2 OR b.hub)
"""

_DOCUMENT_COLUMNS = (
    "d.doc_id, d.title, d.description, d.source, d.content_hash, d.scopes, d.added_at,"
    " d.metadata, d.ingest"
)
# A fact id ("fact:" and 16 hex digits), tested on the primary key's range first, so that
# only facts are read; ltrim() checks the digits many times faster than GLOB.
_FACT = (
    "(d.doc_id >= 'fact:' AND d.doc_id < 'fact;' AND length(d.doc_id) = 21"
    " AND ltrim(substr(d.doc_id, 6), '0123456789abcdef') = '')"
)
# A scope name j.value that one of the names (?) is, or that starts with a prefix (?).
_NAMED = (
    "(j.value IN (SELECT value FROM json_each(?)) OR EXISTS (SELECT 1 FROM json_each(?) p"
    " WHERE substr(j.value, 1, length(p.value)) = p.value))"
)


def _spellings(value: str, closed: bool) -> list[str]:
    """How ``value`` may be written inside a JSON list of scopes: as this store writes it
    (UTF-8) and with escapes (an older writer); a prefix without its closing quote."""
    found = []
    for ascii_only in (False, True):
        spelled = json.dumps(value, ensure_ascii=ascii_only)
        found.append(spelled if closed else spelled[:-1])
    return sorted(set(found))


def _matching(query: DocumentQuery) -> tuple[str, list[object]]:
    """The WHERE clause (over ``documents d``) of a query, added_until aside."""
    parts: list[str] = []
    params: list[object] = []
    if query.facts is not None:
        parts.append(("" if query.facts else "NOT ") + _FACT)
    if query.names is not None:
        # instr() over the raw text first, so that json_each reads only the candidates
        spelled = [s for n in query.names for s in _spellings(n, True)]
        spelled += [s for p in query.prefixes for s in _spellings(p, False)]
        if not spelled:
            return "0", []
        parts.append("(" + " OR ".join(["instr(d.scopes, ?) > 0"] * len(spelled)) + ")")
        params += spelled
        parts.append(f"EXISTS (SELECT 1 FROM json_each(d.scopes) j WHERE {_NAMED})")
        params += [_json_list(query.names), _json_list(query.prefixes)]
    return " AND ".join(parts) or "1", params


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
            content_hash=str(row[4]),
            scopes=tuple(json.loads(str(row[5]))),
            added_at=str(row[6]),
            metadata=tuple((str(k), str(v)) for k, v in json.loads(str(row[7]))),
            ingest=str(row[8]),
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
        check_page(offset, limit)
        where, params = _matching(query)
        until = query.added_until
        held = self._db.query(
            "SELECT COALESCE(SUM(? IS NULL OR d.added_at <= ?), 0), MIN(d.added_at),"
            f" MAX(d.added_at) FROM documents d WHERE {where}",
            (until, until, *params),
        )
        total, first, last = held[0]
        page = [where, "(? IS NULL OR d.added_at <= ?)"]
        keys: list[object] = [*params, until, until]
        if after is not None:
            page.append("(d.added_at, d.doc_id) > (?, ?)")
            keys += list(after)
        rows = self._db.query(
            f"SELECT {_DOCUMENT_COLUMNS} FROM documents d WHERE {' AND '.join(page)}"
            " ORDER BY d.added_at, d.doc_id LIMIT ? OFFSET ?",
            (*keys, limit, offset),
        )
        return DocumentPage(
            tuple(self._document(r) for r in rows),
            _int(total),
            None if first is None else str(first),
            None if last is None else str(last),
        )

    def scope_names(
        self, query: DocumentQuery, after: str | None = None, limit: int | None = None
    ) -> list[str]:
        where, params = _matching(DocumentQuery(facts=query.facts))
        named, more = (
            ("1", [])
            if query.names is None
            else (_NAMED, [_json_list(query.names), _json_list(query.prefixes)])
        )
        rows = self._db.query(
            f"SELECT DISTINCT j.value FROM documents d, json_each(d.scopes) j WHERE {where}"
            f" AND {named} AND (? IS NULL OR j.value > ?)"
            " AND (? IS NULL OR d.added_at <= ?) ORDER BY j.value LIMIT ?",
            (
                *params,
                *more,
                after,
                after,
                query.added_until,
                query.added_until,
                -1 if limit is None else limit,
            ),
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

    def edges_touching(self, node_ids: Sequence[str]) -> list[Edge]:
        if not node_ids:
            return []
        ids = _json_list(node_ids)
        rows = self._db.query(
            f"SELECT {_EDGE_SELECT}, e.id AS id FROM {_EDGE_FROM}"
            f" WHERE e.src IN ({_KEYS_OF})"
            f" UNION SELECT {_EDGE_SELECT}, e.id AS id FROM {_EDGE_FROM}"
            f" WHERE e.dst IN ({_KEYS_OF}) ORDER BY id",
            (ids,),
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

    def iter_edges(self, types: Sequence[str] | None = None) -> Iterator[Edge]:
        last = 0
        kinds = _json_list(types or [])
        with self._db.snapshot() as query:  # pages of one state, as iter_nodes
            while True:
                rows = query(
                    f"SELECT {_EDGE_SELECT}, e.id FROM {_EDGE_FROM} WHERE e.id > ?"
                    + (" AND e.type IN (SELECT value FROM json_each(?))" if types else "")
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
            "SELECT n.node_id, d.doc_id, l.target FROM doc_links l"
            " JOIN nodes n ON n.key = l.node JOIN documents d ON d.seq = l.doc"
            " WHERE l.target IN (SELECT value FROM json_each(?)) ORDER BY l.rowid",
            (_json_list(targets),),
        )
        return [PendingLink(str(n), str(d), str(t)) for n, d, t in rows]

    def counts(self) -> StoreCounts:
        docs = self._db.query("SELECT COUNT(*) FROM documents")[0][0]
        nodes = self._db.query("SELECT COUNT(*) FROM nodes")[0][0]
        types = self._db.query("SELECT type, COUNT(*) FROM edges GROUP BY type ORDER BY type")
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
            "SELECT n.node_id, d.doc_id, l.target FROM doc_links l"
            " JOIN nodes n ON n.key = l.node JOIN documents d ON d.seq = l.doc ORDER BY l.rowid"
        )
        return [PendingLink(str(n), str(d), str(t)) for n, d, t in rows]
