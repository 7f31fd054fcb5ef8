"""Rows of the SQLite store: column lists, row decoders and the shared write helpers."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, cast

from groundgraph.model import Edge, Node

_quote = json.encoder.encode_basestring
_quote_ascii = json.encoder.encode_basestring_ascii

NODE_COLUMNS = (
    "node_id, doc_id, kind, title, content, level, parent_id, span_start, span_end, "
    "scopes, created_at, invalid_at"
)
EDGE_COLUMNS = "source, target, type, weight, label, sources, created_at, invalid_at, spans"


def now_iso() -> str:
    """The current time, ISO-8601 UTC with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def int_of(value: object) -> int:
    return int(cast(Any, value))


def json_list(values: Sequence[str]) -> str:
    """``json.dumps(list(values), ensure_ascii=False)``, without its per-call set-up."""
    if not values:
        return "[]"
    if len(values) == 1:  # most edges have one source: skip map and join
        return f"[{_quote(values[0])}]"
    return "[" + ", ".join(map(_quote, values)) + "]"


def json_spans(spans: Sequence[tuple[str, int, int]]) -> str:
    """``json.dumps([list(s) for s in spans])``: ids escaped as json does by default."""
    if not spans:
        return "[]"
    return "[" + ", ".join(f"[{_quote_ascii(n)}, {int(a)}, {int(b)}]" for n, a, b in spans) + "]"


def node_row(row: sqlite3.Row | tuple[object, ...]) -> Node:
    return Node(
        node_id=str(row[0]),
        doc_id=str(row[1]),
        kind=str(row[2]),
        title=str(row[3]),
        content=str(row[4]),
        level=int_of(row[5]),
        parent_id=None if row[6] is None else str(row[6]),
        span=(int_of(row[7]), int_of(row[8])),
        scopes=tuple(json.loads(str(row[9]))),
        created_at=str(row[10]),
        invalid_at=None if row[11] is None else str(row[11]),
    )


def edge_row(row: sqlite3.Row | tuple[object, ...]) -> Edge:
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


def insert_edges(conn: sqlite3.Connection, doc_id: str, edges: Sequence[Edge], stamp: str) -> None:
    conn.executemany(
        f"INSERT INTO edges(doc_id, {EDGE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
        [
            (
                doc_id,
                e.source,
                e.target,
                e.type,
                e.weight,
                e.label,
                json_list(e.sources),
                e.created_at or stamp,
                e.invalid_at,
                json_spans(e.spans),
            )
            for e in edges
        ],
    )


def generation_in(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM settings WHERE key = 'generation'").fetchone()
    return int_of(row[0]) if row else 0
