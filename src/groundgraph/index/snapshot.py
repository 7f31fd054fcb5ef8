"""The lexical index as bytes and back: numpy arrays and a JSON header, never pickle.

Saved in the store (tagged with its generation) so a new process starts without
re-tokenising every node. ``LexicalIndex.to_arrays`` gives the ``IndexArrays`` written
here (:func:`index_arrays`) and ``LexicalIndex.from_arrays`` takes them back
(:func:`restore_arrays`); the index refuses a snapshot made with other settings
(``LexicalIndex.load`` gives None). Those two read and write the index's own arrays: they
are its snapshot half, kept here with the format they fill.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from groundgraph.index.bm25 import LexicalIndex

SNAPSHOT_VERSION = 2
_FORMAT = "groundgraph-bm25"


@dataclass(frozen=True)
class IndexArrays:
    """A lexical index as plain data: its settings, vocabulary, nodes and CSR postings."""

    language: str
    params: tuple[float, ...]  # k1, b, title_boost
    terms: Sequence[str]
    node_ids: Sequence[str]
    doc_of: Sequence[str]
    indptr: npt.NDArray[np.int64]  # postings of term t: pos/tf[indptr[t]:indptr[t + 1]]
    pos: npt.NDArray[np.int32]
    tf: npt.NDArray[np.uint16]
    df: npt.NDArray[np.int64]
    length: npt.NDArray[np.float64]
    alive: npt.NDArray[np.bool_]
    blank: npt.NDArray[np.bool_]


def index_arrays(index: LexicalIndex) -> IndexArrays:
    """``index`` as plain arrays, compacted first (``LexicalIndex.to_arrays``)."""
    index.compact()
    base = index._postings.base()
    indptr = base.indptr
    if len(indptr) != len(index.terms) + 1:  # terms added with no live postings left
        indptr = np.concatenate(
            [indptr, np.full(len(index.terms) + 1 - len(indptr), indptr[-1], dtype=np.int64)]
        )
    n = len(index.node_ids)
    return IndexArrays(
        language=index.analyzer.language,
        params=(index.params.k1, index.params.b, index.params.title_boost),
        terms=index.terms,
        node_ids=index.node_ids,
        doc_of=index.doc_of,
        indptr=indptr,
        pos=base.pos,
        tf=base.tf,
        df=index._df[: len(index.terms)],
        length=index._length[:n],
        alive=index._alive[:n],
        blank=index._blank[:n],
    )


def restore_arrays(index: LexicalIndex, arrays: IndexArrays) -> LexicalIndex:
    """Fill a new, empty ``index`` from ``arrays`` (``LexicalIndex.from_arrays``)."""
    index.terms = list(arrays.terms)
    index.vocab = {t: i for i, t in enumerate(index.terms)}
    index.node_ids = list(arrays.node_ids)
    index.doc_of = list(arrays.doc_of)
    n = len(index.node_ids)
    index._df = np.array(arrays.df, dtype=np.int64)
    index._grow_nodes(n)
    index._length[:n] = arrays.length
    index._alive[:n] = arrays.alive
    index._blank[:n] = arrays.blank
    indptr = np.asarray(arrays.indptr, dtype=np.int64)
    index._postings.load_base(
        indptr, np.asarray(arrays.pos, dtype=np.int32), np.asarray(arrays.tf, dtype=np.uint16)
    )
    index._posting_total = int(indptr[-1])
    alive = index._alive
    live = np.flatnonzero(alive[:n]).tolist()
    ids = index.node_ids
    index.position = dict(zip([ids[p] for p in live], live, strict=True))
    index._doc_positions = None
    index.live_count = len(live)
    index.total_length = float(index._length[:n][alive[:n]].sum())
    return index


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
    """The arrays of :func:`snapshot_bytes` bytes; None for another format or version."""
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
