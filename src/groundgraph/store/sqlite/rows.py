"""Rows of the SQLite store: column lists, row decoders and the shared write helpers."""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from itertools import chain
from typing import Any, cast

from groundgraph.errors import InputError
from groundgraph.model import Edge, Node
from groundgraph.store.sqlite.edge_layout import add_runs, type_codes

_quote = json.encoder.encode_basestring
_quote_ascii = json.encoder.encode_basestring_ascii

NODE_COLUMNS = (
    "key, node_id, doc, seq, kind, title, content, level, parent, span_start, span_end, "
    "scopes, created_at, invalid_at"
)
# A node row with what decoding it needs: its document's id and added_at, its parent's id.
NODE_SELECT = (
    "n.node_id, COALESCE(d.doc_id, ''), n.kind, n.title, n.content, n.level, p.node_id,"
    " n.span_start, n.span_end, n.scopes, n.created_at, n.invalid_at, d.added_at"
)
NODE_FROM = (
    "nodes n LEFT JOIN documents d ON d.seq = n.doc AND n.doc != 0"
    " LEFT JOIN nodes p ON p.key = n.parent"
)
EDGE_COLUMNS = "id, src, dst, type, weight, label, sources, created_at, invalid_at, spans"
# An edge row with what decoding it needs: its ends' node ids, its type's name and usual
# weight, its document's id and added_at (``edge_row``).
EDGE_SELECT = (
    "s.node_id, t.node_id, k.name, COALESCE(e.weight, k.weight), e.label, e.sources,"
    " e.created_at, e.invalid_at, e.spans, d.doc_id, d.added_at"
)
EDGE_FROM = (
    "edges e JOIN nodes s ON s.key = e.src JOIN nodes t ON t.key = e.dst"
    " JOIN edge_types k ON k.code = e.type JOIN documents d ON d.seq = e.doc"
)
# The keys of the nodes whose ids are the JSON list bound to ?1.
KEYS_OF = "SELECT key FROM nodes WHERE node_id IN (SELECT value FROM json_each(?1))"


def now_iso() -> str:
    """The current time, ISO-8601 UTC with microseconds."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def pack_stamp(stamp: str) -> str | bytes:
    """A node's created_at as stored: a time as :func:`now_iso` writes it (ISO-8601 UTC
    with microseconds, 32 characters) as a BLOB of 8 bytes, its microseconds since 1970
    (schema version 9: an entity stores its own time, about 2.5 MB at 100k sections);
    any other text as it is."""
    if len(stamp) != 32 or not stamp.endswith("+00:00"):
        return stamp
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.isoformat(timespec="microseconds") != stamp:
        return stamp
    return ((moment - _EPOCH) // _MICROSECOND).to_bytes(8, "big", signed=True)


def unpack_stamp(stored: object) -> str:
    """The created_at :func:`pack_stamp` stored."""
    if isinstance(stored, bytes):
        micro = int.from_bytes(stored, "big", signed=True)
        return (_EPOCH + micro * _MICROSECOND).isoformat(timespec="microseconds")
    return str(stored)


def int_of(value: object) -> int:
    return int(cast(Any, value))


def json_list(values: Sequence[str]) -> str:
    """``json.dumps(list(values), ensure_ascii=False)``, without its per-call set-up."""
    if not values:
        return "[]"
    if len(values) == 1:  # most edges have one source: skip map and join
        return f"[{_quote(values[0])}]"
    return "[" + ", ".join(map(_quote, values)) + "]"


# Text (a node's content, a document's metadata) of this many characters or more is stored
# deflated (schema version 8); shorter text gains too little for the time it costs.
_DEFLATE_FROM = 128


def pack_text(text: str) -> str | bytes:
    """A node's content or a document's metadata as stored: raw deflate (a BLOB) when that
    is shorter, else the text itself. Level 1 takes markdown sections to about half their
    bytes (issue 12, a compact store); level 6 saves 1.5 % more in twice the time."""
    if len(text) < _DEFLATE_FROM:
        return text
    data = text.encode()
    packer = zlib.compressobj(1, zlib.DEFLATED, -15)
    packed = packer.compress(data) + packer.flush()
    return packed if len(packed) < len(data) else text


def unpack_text(stored: object) -> str:
    """The text :func:`pack_text` stored (a BLOB is deflated text, a TEXT is as is)."""
    if isinstance(stored, bytes):
        return zlib.decompress(stored, -15).decode()
    return str(stored)


# The preset dictionary an ingest key is deflated against: the default key, so a
# document made the default way stores its 97 characters in 5 bytes (schema version 9).
# Fixed for good: changing it would misread every key stored with it.
_INGEST_WORDS = (
    b"groundgraph-ingest/1 language=english chunk=2000 title-boost=3 entities=default"
    b" relations=default"
)
_HEX = frozenset("0123456789abcdef")


def pack_ingest(key: str) -> str | bytes:
    """A document's ingest key as stored: raw deflate against ``_INGEST_WORDS`` (a BLOB)
    when that is shorter, else the text itself."""
    if not key:
        return key
    data = key.encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=_INGEST_WORDS)
    packed = packer.compress(data) + packer.flush()
    return packed if len(packed) < len(data) else key


def unpack_ingest(stored: object) -> str:
    """The ingest key :func:`pack_ingest` stored."""
    if isinstance(stored, bytes):
        unpacker = zlib.decompressobj(-15, zdict=_INGEST_WORDS)
        return (unpacker.decompress(stored) + unpacker.flush()).decode()
    return str(stored)


def pack_hash(digest: str) -> str | bytes:
    """A document's content hash as stored: 64 lowercase hex digits (a SHA-256, as the
    readers write them) as their 32 bytes, anything else as it is (schema version 9)."""
    if len(digest) == 64 and _HEX.issuperset(digest):
        return bytes.fromhex(digest)
    return digest


def unpack_hash(stored: object) -> str:
    """The content hash :func:`pack_hash` stored."""
    return stored.hex() if isinstance(stored, bytes) else str(stored)


def node_row(row: sqlite3.Row | tuple[object, ...]) -> Node:
    """A node from ``NODE_SELECT``."""
    return Node(
        node_id=str(row[0]),
        doc_id=str(row[1]),
        kind=str(row[2]),
        title=str(row[3]),
        content=unpack_text(row[4]),
        level=int_of(row[5]),
        parent_id=None if row[6] is None else str(row[6]),
        span=(int_of(row[7]), int_of(row[8])),
        scopes=tuple(json.loads(str(row[9]))),
        created_at=unpack_stamp(row[10]) or str(row[12] or ""),
        invalid_at=None if row[11] is None else str(row[11]),
    )


def edge_row(row: sqlite3.Row | tuple[object, ...]) -> Edge:
    """An edge from ``EDGE_SELECT``: its columns, then its document's id and added_at."""
    source, doc_id = str(row[0]), str(row[9])
    created = str(row[6])
    sources = unpack_sources(str(row[5]), source, doc_id)
    return Edge(
        source=source,
        target=str(row[1]),
        type=str(row[2]),
        weight=float(cast(Any, row[3])),
        label=None if row[4] is None else str(row[4]),
        sources=sources,
        created_at=created or str(row[10]),
        invalid_at=None if row[7] is None else str(row[7]),
        spans=unpack_spans(str(row[8]), source, doc_id, sources[0] if sources else None),
    )


def pack_sources(sources: Sequence[str], source: str, doc_id: str, bare: bool = False) -> str:
    """An edge's sources as stored: ``''`` for the usual one, the edge's own source node;
    with ``bare`` (SQLite's schema version 8), one node ``doc_id#n`` of the edge's document
    as ``#n`` (an entity's co-occurrence in a section); else a JSON list of node ids, those
    of the edge's document written as ``"#n"`` (its root as ``""``) and an id that is empty
    or starts with ``#`` as ``[id]``; with ``bare``, the document's root alone as ``*``
    (schema version 9: an entity's co-occurrence in a document's first lines)."""
    if len(sources) == 1:
        node = sources[0]
        if node == source:
            return ""
        if bare and node.startswith(doc_id):
            if len(node) == len(doc_id):
                return "*"
            if node[len(doc_id)] == "#":
                return node[len(doc_id) :]
    return "[" + ", ".join(_pack_ref(node, doc_id) for node in sources) + "]"


def _pack_ref(node: str, doc_id: str) -> str:
    if node == doc_id:
        return '""'
    if node.startswith(doc_id) and node[len(doc_id) : len(doc_id) + 1] == "#":
        return _quote(node[len(doc_id) :])
    if node == "" or node.startswith("#"):
        return f"[{_quote(node)}]"
    return _quote(node)


def _unpack_ref(item: object, doc_id: str) -> str:
    if isinstance(item, list):
        return str(item[0])
    ref = str(item)
    return doc_id + ref if ref == "" or ref.startswith("#") else ref


def unpack_sources(text: str, source: str, doc_id: str) -> tuple[str, ...]:
    if text == "":
        return (source,)
    if text[0] == "#":
        return (doc_id + text,)
    if text == "*":
        return (doc_id,)
    return tuple(_unpack_ref(item, doc_id) for item in json.loads(text))


def pack_spans(
    spans: Sequence[tuple[str, int, int]], source: str, doc_id: str, home: str | None = None
) -> str:
    """An edge's sentence spans as stored: ``''`` for none; spans all in node ``home``
    (the edge's first source; its source node when not given) as bare integers, each
    span's start and length (``"14 3 377 3"``, schema version 8); else a JSON list whose
    items are ``[start, end]`` in the edge's source node, ``["#n", start, end]`` in node
    ``doc_id#n`` of the edge's document (``["", ...]``: its root), or ``[node, start, end]``
    (``[node, start, end, 0]`` for an id that is empty or starts with ``#``, which no
    document gives: document ids hold no ``#``)."""
    if not spans:
        return ""
    home = source if home is None else home
    bare = []
    for node, start, end in spans:
        if node != home:
            break
        bare.append(f"{int(start)} {int(end) - int(start)}")
    else:
        return " ".join(bare)
    items = []
    for node, start, end in spans:
        if node == source:
            items.append(f"[{int(start)}, {int(end)}]")
            continue
        if node == doc_id:
            ref = ""
        elif node.startswith(doc_id) and node[len(doc_id) : len(doc_id) + 1] == "#":
            ref = node[len(doc_id) :]
        elif node == "" or node.startswith("#"):  # not an id a document gives: verbatim
            items.append(f"[{_quote_ascii(node)}, {int(start)}, {int(end)}, 0]")
            continue
        else:
            ref = node
        items.append(f"[{_quote_ascii(ref)}, {int(start)}, {int(end)}]")
    return "[" + ", ".join(items) + "]"


def unpack_spans(
    text: str, source: str, doc_id: str, home: str | None = None
) -> tuple[tuple[str, int, int], ...]:
    """The spans :func:`pack_spans` wrote (with the same ``home``)."""
    if text == "" or text == "[]":
        return ()
    if text[0] != "[":
        numbers = [int(n) for n in text.split()]
        node = source if home is None else home
        return tuple(
            (node, start, start + length)
            for start, length in zip(numbers[::2], numbers[1::2], strict=True)
        )
    spans = []
    for item in json.loads(text):
        if len(item) == 2:
            spans.append((source, int(item[0]), int(item[1])))
            continue
        ref = str(item[0])
        relative = len(item) == 3 and (ref == "" or ref.startswith("#"))
        node = doc_id + ref if relative else ref
        spans.append((node, int(item[1]), int(item[2])))
    return tuple(spans)


def node_keys(conn: sqlite3.Connection, node_ids: Iterable[str]) -> dict[str, int]:
    """The integer key of each of ``node_ids`` that is a stored node."""
    wanted = json_list(list(dict.fromkeys(node_ids)))
    return {
        str(n): int_of(k)
        for n, k in conn.execute(
            "SELECT node_id, key FROM nodes WHERE node_id IN (SELECT value FROM json_each(?))",
            (wanted,),
        )
    }


def insert_edges(conn: sqlite3.Connection, doc_id: str, edges: Sequence[Edge], stamp: str) -> None:
    """Store edges owned by document ``doc_id`` (which must be stored) between stored nodes
    (InputError otherwise, and the caller's transaction rolls back): a created_at equal to
    the document's added_at is kept as ``''``, and so are the usual sources and no spans."""
    if not edges:
        return
    doc, added, last = conn.execute(
        "SELECT seq, added_at, (SELECT COALESCE(MAX(id), 0) FROM edges) FROM documents"
        " WHERE doc_id = ?",
        (doc_id,),
    ).fetchone()
    keys = node_keys(conn, chain.from_iterable((e.source, e.target) for e in edges))
    missing = [n for e in edges for n in (e.source, e.target) if n not in keys]
    if missing:
        raise InputError(
            f"an edge of {doc_id!r} ends at {missing[0]!r}, which is not a stored node: "
            "store the node (with its document, or as an entity) before the edge"
        )
    codes = type_codes(conn, {e.type for e in edges})
    conn.executemany(
        f"INSERT INTO edges(doc, {EDGE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        [
            (
                doc,
                last + 1 + i,
                keys[e.source],
                keys[e.target],
                codes[e.type][0],
                None if e.weight == codes[e.type][1] else e.weight,
                e.label,
                pack_sources(e.sources, e.source, doc_id, bare=True),
                "" if (e.created_at or stamp) == added else (e.created_at or stamp),
                e.invalid_at,
                pack_spans(e.spans, e.source, doc_id, e.sources[0] if e.sources else None),
            )
            for i, e in enumerate(edges)
        ],
    )
    add_runs(conn, [doc] * len(edges), last + 1)


def generation_in(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM settings WHERE key = 'generation'").fetchone()
    return int_of(row[0]) if row else 0
