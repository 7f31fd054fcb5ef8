"""The lexical index as bytes and back: numpy arrays and a JSON header, never pickle.

Saved in the store (tagged with its generation) so a new process starts without
re-tokenising every node. ``LexicalIndex.to_arrays`` gives the ``IndexArrays`` written
here and ``LexicalIndex.from_arrays`` takes them back; the index refuses a snapshot made
with other settings (``LexicalIndex.load`` gives None).
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

SNAPSHOT_VERSION = 1
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


def snapshot_bytes(arrays: IndexArrays) -> bytes:
    """``arrays`` as bytes: an ``.npz`` of the arrays with the JSON header as one of them."""
    header = {
        "format": _FORMAT,
        "version": SNAPSHOT_VERSION,
        "params": list(arrays.params),
        "language": arrays.language,
        "terms": list(arrays.terms),
        "nodeIds": list(arrays.node_ids),
        "docOf": list(arrays.doc_of),
    }
    buffer = io.BytesIO()
    np.savez(
        buffer,
        header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
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
    return IndexArrays(
        language=header["language"],
        params=tuple(header["params"]),
        terms=header["terms"],
        node_ids=header["nodeIds"],
        doc_of=header["docOf"],
        indptr=np.asarray(stored["indptr"], dtype=np.int64),
        pos=np.asarray(stored["pos"], dtype=np.int32),
        tf=np.asarray(stored["tf"], dtype=np.uint16),
        df=np.asarray(stored["df"], dtype=np.int64),
        length=np.asarray(stored["length"], dtype=np.float64),
        alive=np.asarray(stored["alive"], dtype=bool),
        blank=np.asarray(stored["blank"], dtype=bool),
    )
