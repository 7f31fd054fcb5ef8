"""The lexical index as bytes and back: numpy arrays and a JSON header, never pickle.

Saved in the store (tagged with its generation) so a new process starts without
re-tokenising every node. :func:`dump_index` writes what ``LexicalIndex.to_arrays`` gives,
:func:`load_index` hands the arrays back to ``LexicalIndex.from_arrays``, and refuses
(None) a snapshot made with other settings.
"""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np

from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.index.index_arrays import IndexArrays
from groundgraph.text import Analyzer

__all__ = ["SNAPSHOT_VERSION", "dump_index", "load_index", "read_snapshot", "snapshot_bytes"]

SNAPSHOT_VERSION = 2
_FORMAT = "groundgraph-bm25"


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
    """``arrays`` as bytes: an ``.npz`` of the arrays with the JSON header as one of them."""
    docs: dict[str, int] = {}
    doc_index = np.fromiter(
        (docs.setdefault(d, len(docs)) for d in arrays.doc_of), np.int32, len(arrays.doc_of)
    )
    header = {
        "format": _FORMAT,
        "version": SNAPSHOT_VERSION,
        "params": list(arrays.params),
        "language": arrays.language,
        "terms": list(arrays.terms),
        "docs": list(docs),
        "nodeIds": [_relative(n, d) for n, d in zip(arrays.node_ids, arrays.doc_of, strict=True)],
    }
    buffer = io.BytesIO()
    np.savez(
        buffer,
        header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
        doc_index=doc_index,
        indptr=arrays.indptr,
        pos=arrays.pos,
        tf=arrays.tf,
        df=arrays.df,
        length=arrays.length,
        alive=arrays.alive,
        blank=arrays.blank,
    )
    return buffer.getvalue()


def read_snapshot(data: bytes) -> IndexArrays | None:
    """The arrays of :func:`snapshot_bytes` bytes; None for another format or version, and
    for bytes that are damaged (the index is derived: its owner rebuilds it from the store)."""
    try:
        arrays = _read(data)
    except (ValueError, KeyError, TypeError, IndexError, OSError, EOFError, zipfile.BadZipFile):
        return None  # damaged: numpy, zipfile and json say so in their own ways
    return arrays if arrays is not None and _consistent(arrays) else None


def _consistent(a: IndexArrays) -> bool:
    """Whether the arrays fit together, so that scoring over them cannot index outside."""
    n, terms = len(a.node_ids), len(a.terms)
    postings = len(a.pos)
    return (
        len(a.doc_of) == n == len(a.length) == len(a.alive) == len(a.blank)
        and len(a.indptr) == terms + 1
        and len(a.df) == terms
        and postings == len(a.tf) == int(a.indptr[-1])
        and int(a.indptr[0]) == 0
        and bool(np.all(np.diff(a.indptr) >= 0))
        and (postings == 0 or 0 <= int(a.pos.min()) <= int(a.pos.max()) < n)
        and len(a.params) == 3
    )


def _read(data: bytes) -> IndexArrays | None:
    stored = np.load(io.BytesIO(data), allow_pickle=False)
    header = json.loads(stored["header"].tobytes())
    if header.get("format") != _FORMAT or header.get("version") != SNAPSHOT_VERSION:
        return None
    docs = header["docs"]
    doc_of = [docs[i] for i in stored["doc_index"].tolist()]
    return IndexArrays(
        language=header["language"],
        params=tuple(header["params"]),
        terms=header["terms"],
        node_ids=[_absolute(n, d) for n, d in zip(header["nodeIds"], doc_of, strict=True)],
        doc_of=doc_of,
        indptr=np.asarray(stored["indptr"], dtype=np.int64),
        pos=np.asarray(stored["pos"], dtype=np.int32),
        tf=np.asarray(stored["tf"], dtype=np.uint16),
        df=np.asarray(stored["df"], dtype=np.int64),
        length=np.asarray(stored["length"], dtype=np.float64),
        alive=np.asarray(stored["alive"], dtype=bool),
        blank=np.asarray(stored["blank"], dtype=bool),
    )


# Node ids are written relative to their document (most are ``doc#n``): ``""`` for the
# document's own node, ``"#n"`` for ``doc#n``, and any other id as it is, behind ``=``
# when it could be read as one of those (it is empty or starts with ``#`` or ``=``).
def _relative(node_id: str, doc_id: str) -> str:
    if node_id == doc_id:
        return ""
    if node_id.startswith(doc_id) and node_id[len(doc_id) : len(doc_id) + 1] == "#":
        return node_id[len(doc_id) :]
    if node_id[:1] in ("", "#", "="):
        return "=" + node_id
    return node_id


def _absolute(written: str, doc_id: str) -> str:
    if written == "":
        return doc_id
    if written[0] == "#":
        return doc_id + written
    return written[1:] if written[0] == "=" else written
