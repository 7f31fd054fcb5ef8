"""The lexical index as bytes and back: numpy arrays and a JSON header, never pickle.

Saved in the store (tagged with its generation) so a new process starts without
re-tokenising every node. :func:`dump_index` writes what ``LexicalIndex.to_arrays`` gives,
:func:`load_index` hands the arrays back to ``LexicalIndex.from_arrays``, and refuses
(None) a snapshot made with other settings.

The layout (version 3) is made to be read without copying: 8 bytes of magic, the JSON
header's length and an Adler-32 of all that follows them (8 bytes each, little-endian),
the header, then the arrays, each at an 8-byte boundary, little-endian, at the offset the
header gives. Damage makes the snapshot refused (the index is rebuilt from the store).
The arrays are views of the bytes read from the store. Version 2 (an ``.npz``) is read.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import numpy as np
import numpy.typing as npt

from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.index.index_arrays import IndexArrays
from groundgraph.index.node_table import DocColumn, RelativeIds, relative_id
from groundgraph.text import Analyzer

__all__ = ["SNAPSHOT_VERSION", "dump_index", "load_index", "read_snapshot", "snapshot_bytes"]

SNAPSHOT_VERSION = 3
_FORMAT = "groundgraph-bm25"
_MAGIC = b"GGBM25\x00\x03"
#: Every array of a snapshot and its type (fixed here, never read from the bytes).
_ARRAYS: dict[str, np.dtype[Any]] = {
    "doc_index": np.dtype("<i4"),
    "term_order": np.dtype("<i4"),
    "indptr": np.dtype("<i8"),
    "pos": np.dtype("<i4"),
    "tf": np.dtype("<u2"),
    "df": np.dtype("<i8"),
    "length": np.dtype("<f8"),
    "alive": np.dtype("?"),
    "blank": np.dtype("?"),
}
_ALIGN = 8
#: Where the header starts: after the magic, its length and the checksum.
_START = len(_MAGIC) + 16


def dump_index(index: LexicalIndex) -> bytes:
    """The index as bytes (numpy arrays and JSON, no pickle), for a fast cold start."""
    return snapshot_bytes(index.to_arrays())


def load_index(data: bytes, analyzer: Analyzer, params: BM25Params) -> LexicalIndex | None:
    """An index from :func:`dump_index` bytes; None if made with other settings or format."""
    arrays = read_snapshot(data)
    settings = (params.k1, params.b, params.title_boost)
    if arrays is None or arrays.language != analyzer.language or arrays.params != settings:
        return None
    return LexicalIndex.from_arrays(arrays, analyzer, params)


def snapshot_bytes(arrays: IndexArrays) -> bytes:
    """``arrays`` as bytes in the layout of the module docstring."""
    docs: dict[str, int] = {}
    doc_index = np.fromiter(
        (docs.setdefault(d, len(docs)) for d in arrays.doc_of), np.int32, len(arrays.doc_of)
    )
    written = [relative_id(n, d) for n, d in zip(arrays.node_ids, arrays.doc_of, strict=True)]
    terms = list(arrays.terms)
    columns = {
        "doc_index": doc_index,
        "term_order": np.array(sorted(range(len(terms)), key=terms.__getitem__), np.int32),
        "indptr": arrays.indptr,
        "pos": arrays.pos,
        "tf": arrays.tf,
        "df": arrays.df,
        "length": arrays.length,
        "alive": arrays.alive,
        "blank": arrays.blank,
    }
    body, places = bytearray(), {}
    for name, dtype in _ARRAYS.items():
        raw = np.ascontiguousarray(columns[name], dtype=dtype).tobytes()
        places[name] = [len(body), len(raw) // dtype.itemsize]
        body += raw + bytes(-len(raw) % _ALIGN)
    header = {
        "format": _FORMAT,
        "version": SNAPSHOT_VERSION,
        "params": list(arrays.params),
        "language": arrays.language,
        "terms": terms,
        "docs": list(docs),
        "nodeIds": written,
        # Positions of the ids written whole: a lookup by id needs them before any other.
        "whole": [p for p, w in enumerate(written) if w[:1] not in ("", "#")],
        "arrays": places,
    }
    encoded = json.dumps(header).encode()
    encoded += b" " * (-(_START + len(encoded)) % _ALIGN)
    checksum = zlib.adler32(body, zlib.adler32(encoded))
    parts = [_MAGIC, len(encoded).to_bytes(8, "little"), checksum.to_bytes(8, "little")]
    return b"".join([*parts, encoded, bytes(body)])


def read_snapshot(data: bytes) -> IndexArrays | None:
    """The arrays of :func:`snapshot_bytes` bytes; None for another format or version, and
    for bytes that are damaged (the index is derived: its owner rebuilds it from the store)."""
    try:
        arrays = _read(data) if data[: len(_MAGIC)] == _MAGIC else _read_npz(data)
    except (ValueError, KeyError, TypeError, IndexError, OSError, EOFError):
        return None  # damaged: numpy, zipfile and json say so in their own ways
    return arrays if arrays is not None and _consistent(arrays) else None


def _consistent(a: IndexArrays) -> bool:
    """Whether the arrays fit together, so that scoring over them cannot index outside."""
    n, terms = len(a.node_ids), len(a.terms)
    postings = len(a.pos)
    order = a.term_order
    return (
        len(a.doc_of) == n == len(a.length) == len(a.alive) == len(a.blank)
        and len(a.indptr) == terms + 1
        and len(a.df) == terms
        and postings == len(a.tf) == int(a.indptr[-1])
        and int(a.indptr[0]) == 0
        and bool(np.all(np.diff(a.indptr) >= 0))
        and (postings == 0 or 0 <= int(a.pos.min()) <= int(a.pos.max()) < n)
        and len(a.params) == 3
        and (order is None or len(order) == terms)
        and (order is None or terms == 0 or 0 <= int(order.min()) <= int(order.max()) < terms)
    )


def _read(data: bytes) -> IndexArrays | None:
    size = int.from_bytes(data[len(_MAGIC) : len(_MAGIC) + 8], "little")
    start = _START + size
    if size <= 0 or start > len(data):
        raise ValueError("the snapshot's header runs past its end")
    if zlib.adler32(memoryview(data)[_START:]) != int.from_bytes(data[16:_START], "little"):
        raise ValueError("the snapshot does not match its checksum")
    header = json.loads(data[_START:start])
    if header.get("format") != _FORMAT or header.get("version") != SNAPSHOT_VERSION:
        return None
    body = memoryview(data)[start:]
    places = header["arrays"]
    column = {name: _array(body, dtype, places[name]) for name, dtype in _ARRAYS.items()}
    whole = header["whole"]
    if not set(map(type, whole)) <= {int}:
        raise ValueError("the snapshot's whole-id positions are not all numbers")
    return _arrays(header, column, whole)


def _array(body: memoryview, dtype: np.dtype[Any], place: list[int]) -> npt.NDArray[Any]:
    offset, count = int(place[0]), int(place[1])
    if offset < 0 or count < 0 or offset + count * dtype.itemsize > len(body):
        raise ValueError("an array of the snapshot runs past its end")
    return np.frombuffer(body, dtype=dtype, count=count, offset=offset)


def _read_npz(data: bytes) -> IndexArrays | None:
    """A version 2 snapshot (an ``.npz`` with the header as one of its arrays)."""
    import io
    import zipfile  # only here: version 3, the one written, is read without it

    try:
        stored = np.load(io.BytesIO(data), allow_pickle=False)
        header = json.loads(stored["header"].tobytes())
        if header.get("format") != _FORMAT or header.get("version") != 2:
            return None
        column = {name: stored[name] for name in _ARRAYS if name != "term_order"}
    except zipfile.BadZipFile as damaged:
        raise ValueError(f"the snapshot is not a readable .npz: {damaged}") from damaged
    return _arrays(header, column, None)


def _all_text(values: list[Any]) -> bool:
    """Whether every value is a str: ``str.join`` checks each in C, a third of what
    ``set(map(type, values))`` costs over the 100k ids of a large index."""
    try:
        "".join(values)
    except TypeError:
        return False
    return True


def _arrays(
    header: dict[str, Any], column: dict[str, npt.NDArray[Any]], whole: list[int] | None
) -> IndexArrays:
    docs, written = header["docs"], header["nodeIds"]
    doc_index = np.asarray(column["doc_index"], dtype=np.int32)
    # Checked now, as making them whole used to: they are made whole only when used.
    if len(doc_index) and not (0 <= int(doc_index.min()) <= int(doc_index.max()) < len(docs)):
        raise ValueError("a node's document is not in the snapshot's list")
    if not _all_text(written) or not _all_text(docs):
        raise ValueError("the snapshot's ids are not all text")
    if whole is not None and any(not 0 <= p < len(written) for p in whole):
        raise ValueError("a whole-id position is outside the snapshot's nodes")
    doc_of = DocColumn(doc_index, docs)
    order = column.get("term_order")
    return IndexArrays(
        language=header["language"],
        params=tuple(header["params"]),
        terms=header["terms"],
        node_ids=RelativeIds(written, doc_of, whole),
        doc_of=doc_of,
        indptr=np.asarray(column["indptr"], dtype=np.int64),
        pos=np.asarray(column["pos"], dtype=np.int32),
        tf=np.asarray(column["tf"], dtype=np.uint16),
        df=np.asarray(column["df"], dtype=np.int64),
        length=np.asarray(column["length"], dtype=np.float64),
        alive=np.asarray(column["alive"], dtype=bool),
        blank=np.asarray(column["blank"], dtype=bool),
        term_order=None if order is None else np.asarray(order, dtype=np.int32),
    )
