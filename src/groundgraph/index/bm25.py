"""BM25 over the nodes of the graph: an in-memory inverted index, derived from the store.

Scores follow Lucene's BM25 (the variant bm25s calls "lucene"):

    idf(t)    = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
    s(t, d)   = idf(t) · tf / (tf + k1 · (1 - b + b · |d| / avgdl))

with N the number of indexed nodes, |d| the node's term count and avgdl their mean. A
node's title words count ``title_boost`` times extra. Postings are append-only arrays per
term; removed nodes are masked out at once and dropped from the arrays on compaction.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from groundgraph.errors import InputError
from groundgraph.records import TermScore
from groundgraph.text import Analyzer

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BM25Params:
    """BM25 parameters; ``title_boost`` is how many extra times a title word counts."""

    k1: float = 1.2
    b: float = 0.75
    title_boost: int = 3

    def __post_init__(self) -> None:
        if self.k1 < 0 or not 0 <= self.b <= 1 or self.title_boost < 0:
            raise InputError("BM25 needs k1 >= 0, 0 <= b <= 1 and title_boost >= 0")


@dataclass(frozen=True)
class LexicalMatches:
    """Every node that matches a query, with its BM25 score and each term's part in it."""

    terms: tuple[str, ...]
    idf: tuple[float, ...]
    positions: IntArray  # index positions of the matching nodes
    scores: FloatArray  # their raw BM25 scores, same order
    term_tf: tuple[tuple[IntArray, FloatArray], ...]  # per term: (positions, tf)
    term_scores: tuple[FloatArray, ...]  # per term: contribution, aligned with term_tf

    def contributions(self, position: int) -> tuple[TermScore, ...]:
        """The per-term parts of one node's score, recorded while scoring."""
        parts = []
        for term, idf, (pos, tf), part in zip(
            self.terms, self.idf, self.term_tf, self.term_scores, strict=True
        ):
            i = int(np.searchsorted(pos, position))
            if i < len(pos) and pos[i] == position:
                parts.append(TermScore(term, float(tf[i]), idf, float(part[i])))
        return tuple(parts)


SNAPSHOT_VERSION = 1
_EMPTY_POS = np.zeros(0, dtype=np.int32)
_EMPTY_TF = np.zeros(0, dtype=np.uint16)


class LexicalIndex:
    """Inverted index of node terms with BM25 scoring and live add/remove."""

    def __init__(self, analyzer: Analyzer | None = None, params: BM25Params | None = None) -> None:
        self.analyzer = analyzer or Analyzer()
        self.params = params or BM25Params()
        self.vocab: dict[str, int] = {}
        self.terms: list[str] = []
        self._df = np.zeros(1024, dtype=np.int64)
        # Postings: a flat, sorted base (term-major, as after a compaction or a snapshot
        # load) plus an append-only tail per term for what was added since.
        self._base_indptr = np.zeros(1, dtype=np.int64)
        self._base_pos = _EMPTY_POS
        self._base_tf = _EMPTY_TF
        self._tails: dict[int, tuple[array[int], array[int]]] = {}
        self._posting_total = 0
        self.node_ids: list[str] = []
        self.doc_of: list[str] = []
        self.position: dict[str, int] = {}
        self._doc_positions: dict[str, list[int]] | None = {}
        self._length = np.zeros(1024, dtype=np.float64)
        self._alive = np.zeros(1024, dtype=bool)
        self._blank = np.zeros(1024, dtype=bool)
        self._node_terms: dict[int, tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16]]] = {}
        self.live_count = 0
        self.total_length = 0.0
        self.dead_postings = 0

    # ----------------------------------------------------------------- building
    def term_counts(self, title: str, content: str) -> Counter[str]:
        """Term frequencies of a node: its content, plus its title words counted extra."""
        counts = Counter(self.analyzer.terms(content))
        if self.params.title_boost:
            for term in self.analyzer.terms(title):
                counts[term] += self.params.title_boost
        return counts

    def add(self, node_id: str, doc_id: str, title: str, content: str) -> int:
        """Index one node (title and content); returns its position."""
        counts = self.term_counts(title, content)
        return self.add_counts(node_id, doc_id, counts, blank=not content.strip())

    def add_counts(self, node_id: str, doc_id: str, counts: Counter[str], blank: bool) -> int:
        if node_id in self.position:
            raise InputError(f"node {node_id!r} is indexed already; remove its document first")
        pos = len(self.node_ids)
        self._grow_nodes(pos + 1)
        self.node_ids.append(node_id)
        self.doc_of.append(doc_id)
        self.position[node_id] = pos
        self.doc_positions.setdefault(doc_id, []).append(pos)
        tails = self._tails
        term_ids = np.empty(len(counts), dtype=np.int32)
        tfs = np.empty(len(counts), dtype=np.uint16)
        length = 0
        vocab = self.vocab
        for i, (term, tf) in enumerate(counts.items()):
            tid = vocab.get(term)
            if tid is None:
                tid = self._new_term(term)
            tf = min(tf, 65535)
            tail = tails.get(tid)
            if tail is None:
                tail = tails[tid] = (array("i"), array("H"))
            tail[0].append(pos)
            tail[1].append(tf)
            self._df[tid] += 1
            term_ids[i] = tid
            tfs[i] = tf
            length += tf
        self._node_terms[pos] = (term_ids, tfs)
        self._posting_total += len(term_ids)
        self._length[pos] = length
        self._alive[pos] = True
        self._blank[pos] = blank
        self.live_count += 1
        self.total_length += length
        return pos

    @property
    def doc_positions(self) -> dict[str, list[int]]:
        """Positions of each document's live nodes (built on first use after a load)."""
        if self._doc_positions is None:
            built: dict[str, list[int]] = {}
            doc_of = self.doc_of
            for pos in np.flatnonzero(self._alive[: len(self.node_ids)]).tolist():
                built.setdefault(doc_of[pos], []).append(pos)
            self._doc_positions = built
        return self._doc_positions

    def remove_doc(self, doc_id: str) -> list[str]:
        """Drop every node of a document; returns their ids."""
        if doc_id not in self.doc_positions:
            return []
        positions = self.doc_positions.pop(doc_id)
        removed = []
        for pos in positions:
            term_ids, _ = self.node_terms(pos)
            np.subtract.at(self._df, term_ids, 1)
            self._alive[pos] = False
            self.live_count -= 1
            self.total_length -= float(self._length[pos])
            self.dead_postings += len(term_ids)
            self._node_terms.pop(pos, None)
            node_id = self.node_ids[pos]
            del self.position[node_id]
            removed.append(node_id)
        if self.dead_postings > max(10_000, self._posting_total // 3):
            self.compact()
        return removed

    def _new_term(self, term: str) -> int:
        tid = len(self.terms)
        self.terms.append(term)
        self.vocab[term] = tid
        if tid >= len(self._df):
            self._df = np.concatenate([self._df, np.zeros(len(self._df), dtype=np.int64)])
        return tid

    def postings(self, tid: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16]]:
        """Positions (ascending) and frequencies of a term's postings, removed nodes included."""
        if tid + 1 < len(self._base_indptr):
            a, b = self._base_indptr[tid], self._base_indptr[tid + 1]
            base_pos, base_tf = self._base_pos[a:b], self._base_tf[a:b]
        else:
            base_pos, base_tf = _EMPTY_POS, _EMPTY_TF
        tail = self._tails.get(tid)
        if tail is None:
            return base_pos, base_tf
        tail_pos = np.frombuffer(tail[0], dtype=np.int32)
        tail_tf = np.frombuffer(tail[1], dtype=np.uint16)
        if not len(base_pos):
            return tail_pos, tail_tf
        return np.concatenate([base_pos, tail_pos]), np.concatenate([base_tf, tail_tf])

    def _grow_nodes(self, size: int) -> None:
        if size <= len(self._length):
            return
        new = max(size, 2 * len(self._length))
        self._length = np.concatenate([self._length, np.zeros(new - len(self._length))])
        self._alive = np.concatenate([self._alive, np.zeros(new - len(self._alive), dtype=bool)])
        self._blank = np.concatenate([self._blank, np.zeros(new - len(self._blank), dtype=bool)])

    def node_terms(self, pos: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16]]:
        """Term ids and frequencies of the node at ``pos``."""
        found = self._node_terms.get(pos)
        if found is None:
            self._load_forward()
            found = self._node_terms[pos]
        return found

    def _load_forward(self) -> None:
        # After a snapshot load only postings exist; derive the per-node view once, in bulk.
        if len(self._node_terms) >= len(self.node_ids):
            return
        pos, tid, tf = self.posting_arrays()
        order = np.lexsort((tid, pos))
        pos, tids, tfs = pos[order], tid[order].astype(np.int32), tf[order].astype(np.uint16)
        cuts = np.flatnonzero(pos[1:] != pos[:-1]) + 1
        starts, ends = np.r_[0, cuts], np.r_[cuts, len(pos)]
        known = self._node_terms
        if len(pos):
            for p, a, b in zip(pos[starts].tolist(), starts.tolist(), ends.tolist(), strict=True):
                if p not in known:
                    known[p] = (tids[a:b], tfs[a:b])
        for p in range(len(self.node_ids)):
            if p not in known:
                known[p] = (np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.uint16))

    def posting_arrays(self) -> tuple[IntArray, IntArray, IntArray]:
        """Every posting as (position, term id, frequency) arrays, removed nodes included."""
        n_base = len(self._base_indptr) - 1
        base_tids = np.repeat(np.arange(n_base, dtype=np.int64), np.diff(self._base_indptr))
        tail_ids = list(self._tails)
        tail_pos = np.frombuffer(b"".join(self._tails[t][0] for t in tail_ids), dtype=np.int32)
        tail_tf = np.frombuffer(b"".join(self._tails[t][1] for t in tail_ids), dtype=np.uint16)
        lengths = np.fromiter((len(self._tails[t][0]) for t in tail_ids), np.int64, len(tail_ids))
        tail_tids = np.repeat(np.asarray(tail_ids, dtype=np.int64), lengths)
        return (
            np.concatenate([self._base_pos.astype(np.int64), tail_pos.astype(np.int64)]),
            np.concatenate([base_tids, tail_tids]),
            np.concatenate([self._base_tf.astype(np.int64), tail_tf.astype(np.int64)]),
        )

    def compact(self) -> None:
        """Fold tails into the flat base and drop postings of removed nodes."""
        if not self._tails and not self.dead_postings:
            return
        alive = self._alive
        lengths = np.zeros(len(self.terms), dtype=np.int64)
        pos_parts, tf_parts = [], []
        for tid in range(len(self.terms)):
            pos, tf = self.postings(tid)
            if len(pos):
                keep = alive[pos]
                if not keep.all():
                    pos, tf = pos[keep], tf[keep]
            lengths[tid] = len(pos)
            pos_parts.append(pos)
            tf_parts.append(tf)
        indptr = np.zeros(len(self.terms) + 1, dtype=np.int64)
        np.cumsum(lengths, out=indptr[1:])
        self._base_indptr = indptr
        self._base_pos = _concat(pos_parts, np.int32)
        self._base_tf = _concat(tf_parts, np.uint16)
        self._tails = {}
        self._posting_total = int(indptr[-1])
        self.dead_postings = 0

    def dump(self) -> bytes:
        """The index as bytes (numpy arrays and JSON, no pickle), for a fast cold start."""
        from groundgraph.index.snapshot import dump_index

        return dump_index(self)

    @classmethod
    def load(cls, data: bytes, analyzer: Analyzer, params: BM25Params) -> LexicalIndex | None:
        """An index from :meth:`dump` bytes; None if they were made with other settings."""
        from groundgraph.index.snapshot import load_index

        return load_index(data, analyzer, params)

    # ----------------------------------------------------------------- reading
    def __len__(self) -> int:
        return self.live_count

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.position

    def posting_count(self) -> int:
        """Postings held, those of removed nodes not yet compacted away included."""
        return self._posting_total

    def df_array(self) -> IntArray:
        """Document frequency of every term, by term id."""
        return self._df[: len(self.terms)]

    def alive_mask(self, positions: IntArray) -> npt.NDArray[np.bool_]:
        return self._alive[positions]

    def df_of_id(self, tid: int) -> int:
        return int(self._df[tid])

    def df(self, term: str) -> int:
        tid = self.vocab.get(term)
        return 0 if tid is None else int(self._df[tid])

    def idf(self, term: str) -> float:
        return self._idf(self.df(term))

    def _idf(self, df: int) -> float:
        n = self.live_count
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def is_blank(self, pos: int) -> bool:
        return bool(self._blank[pos])

    def is_alive(self, pos: int) -> bool:
        return bool(self._alive[pos])

    def length(self, pos: int) -> float:
        return float(self._length[pos])

    def query_terms(self, query: str) -> list[str]:
        """The distinct index terms of a query, in first-seen order."""
        return list(dict.fromkeys(self.analyzer.terms(query)))

    def match(self, query: str, allowed: Sequence[int] | None = None) -> LexicalMatches:
        """Score every node that contains a query term; ``allowed`` limits the positions."""
        return self.match_terms(self.query_terms(query), allowed)

    def match_terms(
        self, terms: Iterable[str], allowed: Sequence[int] | None = None
    ) -> LexicalMatches:
        k1, b = self.params.k1, self.params.b
        avgdl = self.total_length / self.live_count if self.live_count else 1.0
        mask = self._alive
        if allowed is not None:
            mask = np.zeros_like(self._alive)
            mask[np.asarray(allowed, dtype=np.int64)] = True
            mask &= self._alive
        kept_terms: list[str] = []
        idfs: list[float] = []
        per_term: list[tuple[IntArray, FloatArray]] = []
        parts: list[FloatArray] = []
        for term in terms:
            tid = self.vocab.get(term)
            if tid is None or self._df[tid] <= 0:
                continue
            pos, tf = self.postings(tid)
            keep = mask[pos]
            if not keep.all():
                pos, tf = pos[keep], tf[keep]
            if not len(pos):
                continue
            # Positions only grow, so every postings list is sorted already.
            pos64 = pos.astype(np.int64)
            tf64 = tf.astype(np.float64)
            idf = self._idf(int(self._df[tid]))
            norm = k1 * (1.0 - b + b * self._length[pos64] / avgdl)
            kept_terms.append(term)
            idfs.append(idf)
            per_term.append((pos64, tf64))
            parts.append(idf * tf64 / (tf64 + norm))
        if not per_term:
            empty = np.zeros(0, dtype=np.int64)
            return LexicalMatches((), (), empty, np.zeros(0), (), ())
        positions: IntArray
        scores: FloatArray
        if len(per_term) == 1:
            positions, scores = per_term[0][0], parts[0]
        else:
            all_pos = np.concatenate([p for p, _ in per_term])
            positions, inverse = np.unique(all_pos, return_inverse=True)
            sums = np.bincount(inverse, weights=np.concatenate(parts), minlength=len(positions))
            scores = sums.astype(np.float64)
        return LexicalMatches(
            tuple(kept_terms), tuple(idfs), positions, scores, tuple(per_term), tuple(parts)
        )


def _concat(parts: list[npt.NDArray[Any]], dtype: type) -> npt.NDArray[Any]:
    return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype=dtype)


def top_positions(
    positions: IntArray, scores: FloatArray, k: int, name_of: Callable[[int], str]
) -> list[int]:
    """Indices into ``positions`` of the k best scores, ties broken by ``name_of(position)``."""
    if k <= 0 or not len(scores):
        return []
    if len(scores) > k:
        # Only candidates at or above the k-th score can make the list; ties at the edge stay.
        kth = np.partition(-scores, k - 1)[k - 1]
        candidates = np.flatnonzero(-scores <= kth)
    else:
        candidates = np.arange(len(scores))
    ranked = sorted(candidates.tolist(), key=lambda i: (-scores[i], name_of(int(positions[i]))))
    return ranked[:k]
