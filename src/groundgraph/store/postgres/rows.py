"""Rows of the PostgreSQL store: the shared edge writer and key lookups.

Rows mean what the SQLite store's mean (``groundgraph.store.sqlite.rows``: the compact
edge columns, node ids relative to their edge, ``''`` for the usual values), so the same
encoders and decoders serve both; only the SQL differs (``%s`` parameters, ``= ANY(%s)``
for a list). An edge's type is its name here and its weight always stored (SQLite's
schema version 8 codes them, ``store.sqlite.edge_layout``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain
from typing import Any

from groundgraph.errors import InputError
from groundgraph.model import Edge
from groundgraph.store.postgres.connection import Connection
from groundgraph.store.sqlite.rows import (
    NODE_COLUMNS,
    NODE_FROM,
    NODE_SELECT,
    edge_row,
    int_of,
    json_list,
    node_row,
    now_iso,
    pack_sources,
    pack_spans,
)

EDGE_COLUMNS = "src, dst, type, weight, label, sources, created_at, invalid_at, spans"
# An edge row as ``edge_row`` decodes it: its ends' node ids, its document's id and added_at.
EDGE_SELECT = (
    "s.node_id, t.node_id, e.type, e.weight, e.label, e.sources, e.created_at, e.invalid_at,"
    " e.spans, d.doc_id, d.added_at"
)
EDGE_FROM = (
    "edges e JOIN nodes s ON s.key = e.src JOIN nodes t ON t.key = e.dst"
    " JOIN documents d ON d.seq = e.doc"
)

__all__ = [
    "EDGE_FROM",
    "EDGE_SELECT",
    "NODE_COLUMNS",
    "NODE_FROM",
    "NODE_SELECT",
    "edge_row",
    "insert_edges",
    "int_of",
    "json_list",
    "node_keys",
    "node_row",
    "now_iso",
]


def node_keys(conn: Connection, node_ids: Iterable[str]) -> dict[str, int]:
    """The integer key of each of ``node_ids`` that is a stored node."""
    wanted = list(dict.fromkeys(node_ids))
    if not wanted:
        return {}
    rows = conn.execute(
        "SELECT node_id, key FROM nodes WHERE node_id = ANY(%s)", (wanted,)
    ).fetchall()
    return {str(n): int(k) for n, k in rows}


def insert_edges(
    conn: Connection,
    doc_id: str,
    edges: Sequence[Edge],
    stamp: str,
    owner: tuple[int, str, dict[str, int]] | None = None,
) -> None:
    """Store edges owned by document ``doc_id`` (which must be stored) between stored nodes
    (InputError otherwise, and the caller's transaction rolls back), compact as SQLite's.
    ``owner``, when the caller just wrote the document: its seq, added_at and node keys,
    which then need no lookup."""
    if not edges:
        return
    if owner is None:
        found = conn.execute(
            "SELECT seq, added_at FROM documents WHERE doc_id = %s", (doc_id,)
        ).fetchone()
        assert found is not None
        known: dict[str, int] = {}
        doc, added = int(found[0]), str(found[1])
    else:
        doc, added, known = owner
    ends = chain.from_iterable((e.source, e.target) for e in edges)
    keys = dict(known)
    keys |= node_keys(conn, (n for n in ends if n not in known))
    missing = [n for e in edges for n in (e.source, e.target) if n not in keys]
    if missing:
        raise InputError(
            f"an edge of {doc_id!r} ends at {missing[0]!r}, which is not a stored node: "
            "store the node (with its document, or as an entity) before the edge"
        )
    rows: list[tuple[Any, ...]] = [
        (
            doc,
            keys[e.source],
            keys[e.target],
            e.type,
            e.weight,
            e.label,
            pack_sources(e.sources, e.source, doc_id),
            "" if (e.created_at or stamp) == added else (e.created_at or stamp),
            e.invalid_at,
            pack_spans(e.spans, e.source, doc_id, e.sources[0] if e.sources else None),
        )
        for e in edges
    ]
    copy_rows(conn, f"edges(doc, {EDGE_COLUMNS})", rows)


def copy_rows(conn: Connection, table: str, rows: Sequence[tuple[Any, ...]]) -> None:
    """Write ``rows`` into ``table`` (a name and its column list) with one COPY: a
    document's thousands of edges cost one round trip, not a statement each."""
    with conn.cursor() as cursor, cursor.copy(f"COPY {table} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def generation_in(conn: Connection) -> int:
    row = conn.execute("SELECT value FROM settings WHERE key = 'generation'").fetchone()
    return int_of(row[0]) if row else 0
