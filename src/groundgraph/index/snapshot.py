"""The lexical index as bytes and back: numpy arrays and a JSON header, never pickle.

Saved in the store (tagged with its generation) so a new process starts without
re-tokenising every node; a snapshot made with other settings is refused (None).
"""

from __future__ import annotations

import io
import json

import numpy as np

from groundgraph.index.bm25 import SNAPSHOT_VERSION, BM25Params, LexicalIndex
from groundgraph.text import Analyzer

# This module reads and writes LexicalIndex's arrays directly: it is the index's own
# serialisation, kept apart only to keep bm25.py about scoring.


def dump_index(index: LexicalIndex) -> bytes:
    """The index as bytes (numpy arrays and JSON, no pickle), for a fast cold start."""
    index.compact()
    base = index._postings.base()
    indptr = base.indptr
    if len(indptr) != len(index.terms) + 1:  # terms added with no live postings left
        indptr = np.concatenate(
            [indptr, np.full(len(index.terms) + 1 - len(indptr), indptr[-1], dtype=np.int64)]
        )
    n = len(index.node_ids)
    header = {
        "format": "groundgraph-bm25",
        "version": SNAPSHOT_VERSION,
        "params": [index.params.k1, index.params.b, index.params.title_boost],
        "language": index.analyzer.language,
        "terms": index.terms,
        "nodeIds": index.node_ids,
        "docOf": index.doc_of,
    }
    buffer = io.BytesIO()
    np.savez(
        buffer,
        header=np.frombuffer(json.dumps(header).encode(), dtype=np.uint8),
        indptr=indptr,
        pos=base.pos,
        tf=base.tf,
        df=index._df[: len(index.terms)],
        length=index._length[:n],
        alive=index._alive[:n],
        blank=index._blank[:n],
    )
    return buffer.getvalue()


def load_index(data: bytes, analyzer: Analyzer, params: BM25Params) -> LexicalIndex | None:
    """An index from :func:`dump_index` bytes; None if they were made with other settings."""
    arrays = np.load(io.BytesIO(data), allow_pickle=False)
    header = json.loads(arrays["header"].tobytes())
    if (
        header.get("format") != "groundgraph-bm25"
        or header.get("version") != SNAPSHOT_VERSION
        or header.get("language") != analyzer.language
        or header.get("params") != [params.k1, params.b, params.title_boost]
    ):
        return None
    index = LexicalIndex(analyzer, params)
    index.terms = header["terms"]
    index.vocab = {t: i for i, t in enumerate(index.terms)}
    index.node_ids = header["nodeIds"]
    index.doc_of = header["docOf"]
    n = len(index.node_ids)
    index._df = np.array(arrays["df"], dtype=np.int64)
    index._grow_nodes(n)
    index._length[:n] = arrays["length"]
    index._alive[:n] = arrays["alive"]
    index._blank[:n] = arrays["blank"]
    indptr = np.asarray(arrays["indptr"], dtype=np.int64)
    index._postings.load_base(
        indptr,
        np.asarray(arrays["pos"], dtype=np.int32),
        np.asarray(arrays["tf"], dtype=np.uint16),
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
