"""Postings of the lexical index: per term, the nodes that hold it and how often.

A term's postings are the positions of its nodes, ascending, and its frequency in each.
They are kept term-major, oldest first, in

- runs: flat arrays sorted by term with an offset per term (CSR). After a compaction or a
  snapshot load there is one, the base. A run is merged with the one before it when that
  one is no larger (a log-structured merge), so at most log2(n / buffer) + 1 runs exist
  and each posting is copied that many times at most;
- the buffer: the latest additions in the order they came, until it fills and is sorted
  into a run.

Positions only grow, so a term's slices read run by run are ascending, and merging two
runs puts each term's older postings before its newer ones. Appending a batch is a few
numpy copies, whatever its number of terms; a merge is linear; reading a term costs two
offsets per run and, if the term is in the buffer, a scan of it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

Int32Array = npt.NDArray[np.int32]
UInt16Array = npt.NDArray[np.uint16]
IntArray = npt.NDArray[np.int64]

EMPTY_POS: Int32Array = np.zeros(0, dtype=np.int32)
EMPTY_TF: UInt16Array = np.zeros(0, dtype=np.uint16)
BUFFER_POSTINGS = 16_384


class Run(NamedTuple):
    """Postings sorted by term id: term t's are ``pos[indptr[t]:indptr[t + 1]]``."""

    terms: int  # term ids below this may have postings here
    indptr: IntArray
    pos: Int32Array
    tf: UInt16Array

    def term_ids(self) -> IntArray:
        return np.repeat(np.arange(self.terms, dtype=np.int64), np.diff(self.indptr))


class TermPostings:
    """The postings of every term, removed nodes included until :meth:`compact`."""

    def __init__(self, buffer: int = BUFFER_POSTINGS) -> None:
        self._runs: list[Run] = []
        self._buf_tids = np.empty(buffer, dtype=np.int32)
        self._buf_pos = np.empty(buffer, dtype=np.int32)
        self._buf_tf = np.empty(buffer, dtype=np.uint16)
        self._buffered = 0
        self._in_buffer = np.zeros(1024, dtype=bool)  # by term id

    def base(self) -> Run:
        """The one run left by :meth:`compact` or :meth:`load_base`."""
        if not self._runs:
            return _csr(np.zeros(0, dtype=np.int64), EMPTY_POS, EMPTY_TF, 0)
        if len(self._runs) > 1 or self._buffered:
            raise RuntimeError("compact the postings first")
        return self._runs[0]

    def load_base(self, indptr: IntArray, pos: Int32Array, tf: UInt16Array) -> None:
        """Start from sorted base arrays (a snapshot); nothing added since."""
        self._runs = [Run(len(indptr) - 1, indptr, pos, tf)]
        self._clear_buffer()

    def has_recent(self) -> bool:
        """Whether anything was added since the base was built."""
        return len(self._runs) > 1 or self._buffered > 0

    def add(self, tids: Int32Array, pos: Int32Array, tf: UInt16Array) -> None:
        """Append postings; their positions must exceed every position added before."""
        n, size = len(tids), len(self._buf_tids)
        if not n:
            return
        if self._buffered + n > size:
            self._flush()
        if n > size:
            self._push(_sorted_run(tids, pos, tf))
            return
        a, b = self._buffered, self._buffered + n
        self._buf_tids[a:b] = tids
        self._buf_pos[a:b] = pos
        self._buf_tf[a:b] = tf
        self._buffered = b
        last = int(tids.max())
        if last >= len(self._in_buffer):
            grown = np.zeros(max(last + 1, 2 * len(self._in_buffer)), dtype=bool)
            grown[: len(self._in_buffer)] = self._in_buffer
            self._in_buffer = grown
        self._in_buffer[tids] = True

    def _flush(self) -> None:
        n = self._buffered
        if n:
            run = _sorted_run(self._buf_tids[:n], self._buf_pos[:n], self._buf_tf[:n])
            self._clear_buffer()
            self._push(run)

    def _clear_buffer(self) -> None:
        self._in_buffer[self._buf_tids[: self._buffered]] = False
        self._buffered = 0

    def _push(self, run: Run) -> None:
        runs = self._runs
        runs.append(run)
        while len(runs) > 1 and len(runs[-2].pos) <= len(runs[-1].pos):
            newer = runs.pop()
            runs.append(_merge(runs.pop(), newer))

    def get(self, tid: int) -> tuple[Int32Array, UInt16Array]:
        """Positions (ascending) and frequencies of one term's postings."""
        pos_parts: list[Int32Array] = []
        tf_parts: list[UInt16Array] = []
        for run in self._runs:
            if tid < run.terms:
                a, b = run.indptr[tid], run.indptr[tid + 1]
                if b > a:
                    pos_parts.append(run.pos[a:b])
                    tf_parts.append(run.tf[a:b])
        if tid < len(self._in_buffer) and self._in_buffer[tid]:
            hits = np.flatnonzero(self._buf_tids[: self._buffered] == tid)
            pos_parts.append(self._buf_pos[hits])
            tf_parts.append(self._buf_tf[hits])
        if len(pos_parts) == 1:
            return pos_parts[0], tf_parts[0]
        if not pos_parts:
            return EMPTY_POS, EMPTY_TF
        return np.concatenate(pos_parts), np.concatenate(tf_parts)

    def arrays(self) -> tuple[IntArray, IntArray, IntArray]:
        """Every posting as (position, term id, frequency) arrays, oldest first."""
        n = self._buffered
        runs = self._runs
        return (
            _concat64([*(r.pos for r in runs), self._buf_pos[:n]]),
            _concat64([*(r.term_ids() for r in runs), self._buf_tids[:n]]),
            _concat64([*(r.tf for r in runs), self._buf_tf[:n]]),
        )

    def compact(self, alive: npt.NDArray[np.bool_], n_terms: int) -> int:
        """Fold everything into one base run without the postings of dead positions.

        The base has an offset for each of ``n_terms`` terms; returns its posting count.
        """
        self._flush()
        merged = _csr(np.zeros(0, dtype=np.int64), EMPTY_POS, EMPTY_TF, n_terms)
        for run in self._runs:
            merged = _merge(merged, run)
        keep = alive[merged.pos]
        if not keep.all():
            kept_before = np.zeros(len(keep) + 1, dtype=np.int64)
            np.cumsum(keep, out=kept_before[1:])
            merged = Run(
                merged.terms, kept_before[merged.indptr], merged.pos[keep], merged.tf[keep]
            )
        self._runs = [merged]
        return len(merged.pos)


def node_terms_of(
    pos: IntArray, tid: IntArray, tf: IntArray, nodes: int
) -> dict[int, tuple[Int32Array, UInt16Array]]:
    """The forward view of postings (as ``TermPostings.arrays`` gives them): for each of
    positions ``0..nodes-1``, its term ids (ascending) and their frequencies."""
    order = np.lexsort((tid, pos))
    pos, tids, tfs = pos[order], tid[order].astype(np.int32), tf[order].astype(np.uint16)
    cuts = np.flatnonzero(pos[1:] != pos[:-1]) + 1
    starts, ends = np.r_[0, cuts], np.r_[cuts, len(pos)]
    found: dict[int, tuple[Int32Array, UInt16Array]] = {}
    if len(pos):
        for p, a, b in zip(pos[starts].tolist(), starts.tolist(), ends.tolist(), strict=True):
            found[p] = (tids[a:b], tfs[a:b])
    for p in range(nodes):
        if p not in found:
            found[p] = (np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.uint16))
    return found


def _csr(tids: IntArray, pos: Int32Array, tf: UInt16Array, terms: int) -> Run:
    """A run of postings already sorted by term."""
    terms = max(terms, int(tids[-1]) + 1 if len(tids) else 0)
    indptr = np.zeros(terms + 1, dtype=np.int64)
    np.cumsum(np.bincount(tids, minlength=terms), out=indptr[1:])
    return Run(terms, indptr, pos, tf)


def _sorted_run(tids: Int32Array, pos: Int32Array, tf: UInt16Array) -> Run:
    order = np.argsort(tids, kind="stable")
    return _csr(tids[order].astype(np.int64), pos[order], tf[order], 0)


def _merge(older: Run, newer: Run) -> Run:
    """One run holding both, each term's older postings first: O(n), no sorting."""
    terms = max(older.terms, newer.terms)
    old_ptr, new_ptr = _padded(older.indptr, terms), _padded(newer.indptr, terms)
    indptr = old_ptr + new_ptr
    size = int(indptr[-1])
    pos = np.empty(size, dtype=np.int32)
    tf = np.empty(size, dtype=np.uint16)
    # Term t's postings start at indptr[t]: the older ones first, then the newer ones.
    where = np.arange(len(older.pos)) + np.repeat(new_ptr[:-1], np.diff(old_ptr))
    pos[where], tf[where] = older.pos, older.tf
    where = np.arange(len(newer.pos)) + np.repeat(old_ptr[1:], np.diff(new_ptr))
    pos[where], tf[where] = newer.pos, newer.tf
    return Run(terms, indptr, pos, tf)


def _padded(indptr: IntArray, terms: int) -> IntArray:
    """Offsets for ``terms`` terms (those past the run's own have no postings)."""
    if len(indptr) == terms + 1:
        return indptr
    return np.concatenate([indptr, np.full(terms + 1 - len(indptr), indptr[-1])])


def _concat64(parts: list[npt.NDArray[np.generic]]) -> IntArray:
    return np.concatenate([p.astype(np.int64) for p in parts])
