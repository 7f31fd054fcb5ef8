"""Reading the graph back out of SQLite (``GraphReads``): documents, nodes, edges and
walk steps."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, cast

from groundgraph.model import Document, Edge, Node
from groundgraph.model.ids import ENTITY_PREFIX
from groundgraph.model.store_records import PendingLink, StoreCounts
from groundgraph.store.sqlite.connection import Database
from groundgraph.store.sqlite.rows import EDGE_COLUMNS as _EDGE_COLUMNS
from groundgraph.store.sqlite.rows import NODE_COLUMNS as _NODE_COLUMNS
from groundgraph.store.sqlite.rows import edge_row as _edge
from groundgraph.store.sqlite.rows import int_of as _int
from groundgraph.store.sqlite.rows import json_list as _json_list
from groundgraph.store.sqlite.rows import node_row as _node

# One statement: the ids of ?1 that are not hubs (a hub: ?3 characters of prefix ?4 and
# more than ?5 edges) step along their edges; those that ?6 or fewer edges point to (or
# every one, when ?6 is NULL) also step back along them. ?2 is the weakest weight asked
# for; a hub's steps all come, so that they can be counted. Edge counts come from the
# indexes alone, valid edges or not.
_STEPS = """
WITH asked(node, hub) AS (
    SELECT value, substr(value, 1, ?3) = ?4 FROM json_each(?1)
), open(node, hub) AS (
    SELECT node, hub FROM asked WHERE NOT hub
    OR (SELECT COUNT(*) FROM edges WHERE source = node)
        + (SELECT COUNT(*) FROM edges WHERE target = node) <= ?5
), back(node) AS (
    SELECT node FROM open
    WHERE hub OR ?6 IS NULL OR (SELECT COUNT(*) FROM edges WHERE target = node) <= ?6
)
SELECT source, target, type, weight, 0 FROM edges
WHERE source IN (SELECT node FROM open) AND invalid_at IS NULL AND source != target
AND (weight >= ?2 OR substr(source, 1, ?3) = ?4)
UNION ALL
SELECT target, source, type, weight, 1 FROM edges
WHERE target IN back AND invalid_at IS NULL AND source != target
AND (weight >= ?2 OR substr(target, 1, ?3) = ?4)
"""


__all__ = ["SQLiteGraphReads"]


class SQLiteGraphReads:
    """The read side of a SQLite store; every query is one statement."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def get_document(self, doc_id: str) -> Document | None:
        rows = self._db.query(
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
        rows = self._db.query(
            "SELECT doc_id, title, description, source, content_hash, scopes, added_at "
            "FROM documents ORDER BY seq"
        )
        return [self._document(r) for r in rows]

    def node_counts(self) -> dict[str, int]:
        rows = self._db.query("SELECT doc_id, COUNT(*) FROM nodes GROUP BY doc_id")
        return {str(d): _int(c) for d, c in rows}

    def get_nodes(self, node_ids: Sequence[str]) -> dict[str, Node]:
        if not node_ids:
            return {}
        rows = self._db.query(
            f"SELECT {_NODE_COLUMNS} FROM nodes WHERE node_id IN (SELECT value FROM json_each(?))",
            (_json_list(node_ids),),
        )
        return {str(r[0]): _node(r) for r in rows}

    def entity_nodes(self) -> list[Node]:
        rows = self._db.query(
            f"SELECT {_NODE_COLUMNS} FROM nodes WHERE kind = 'entity' AND doc_id = '' ORDER BY seq"
        )
        return [_node(r) for r in rows]

    def document_nodes(self, doc_id: str) -> list[Node]:
        rows = self._db.query(
            f"SELECT {_NODE_COLUMNS} FROM nodes WHERE doc_id = ? ORDER BY seq", (doc_id,)
        )
        return [_node(r) for r in rows]

    def iter_nodes(self, batch: int = 5000) -> Iterator[Node]:
        last_doc, last_seq = -1, -1
        while True:
            rows = self._db.query(
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
        rows = self._db.query(
            f"SELECT {_EDGE_COLUMNS}, id FROM edges"
            " WHERE source IN (SELECT value FROM json_each(?1))"
            f" UNION SELECT {_EDGE_COLUMNS}, id FROM edges"
            " WHERE target IN (SELECT value FROM json_each(?1)) ORDER BY id",
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
        while True:
            rows = self._db.query(
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
        rows = self._db.query(
            "SELECT node_id, doc_id, target FROM doc_links "
            "WHERE target IN (SELECT value FROM json_each(?)) ORDER BY rowid",
            (_json_list(targets),),
        )
        return [PendingLink(str(n), str(d), str(t)) for n, d, t in rows]

    def counts(self) -> StoreCounts:
        docs = self._db.query("SELECT COUNT(*) FROM documents")[0][0]
        nodes = self._db.query("SELECT COUNT(*) FROM nodes")[0][0]
        types = self._db.query("SELECT type, COUNT(*) FROM edges GROUP BY type ORDER BY type")
        by_type = {str(t): _int(c) for t, c in types}
        return StoreCounts(_int(docs), _int(nodes), sum(by_type.values()), by_type)
