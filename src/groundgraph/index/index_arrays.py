"""A lexical index as plain data: what ``LexicalIndex.to_arrays`` gives and takes back.

The snapshot (``snapshot.py``) writes these arrays as bytes; the index alone reads and
fills its own arrays (``LexicalIndex.to_arrays`` / ``from_arrays``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt


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
    #: Term ids sorted by their term, when the snapshot kept them (a lookup without a dict).
    term_order: npt.NDArray[np.int32] | None = None
