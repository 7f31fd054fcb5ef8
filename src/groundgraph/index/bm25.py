"""BM25 over the nodes of the graph: an in-memory inverted index, derived from the store.

Scores follow Lucene's BM25 (the variant bm25s calls "lucene"):

    idf(t)    = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
    s(t, d)   = idf(t) · tf / (tf + k1 · (1 - b + b · |d| / avgdl))

with N the number of indexed nodes, |d| the node's term count and avgdl their mean. A
node's title words count ``title_boost`` times extra (``BM25Params``; ``TermCounter``
counts a node's terms). Postings (``postings.py``) are appended in batches; removed nodes
are masked out at once and dropped from them on compaction. ``to_arrays``/``from_arrays``
give the index as plain data and back, which ``snapshot.py`` saves as bytes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from groundgraph.errors import InputError
from groundgraph.index.bm25_params import BM25Params
from groundgraph.index.index_arrays import IndexArrays
from groundgraph.index.node_table import NodeTable
from groundgraph.index.postings import TermPostings, node_terms_of
from groundgraph.index.ranking import FloatArray, IntArray, LexicalMatches, top_positions
from groundgraph.index.term_batch import TermBatch
from groundgraph.index.term_counts import TermCounter
from groundgraph.index.vocabulary import Vocabulary
from groundgraph.text import Analyzer

__all__ = [
    "BM25Params",
    "FloatArray",
    "IntArray",
    "LexicalIndex",
    "LexicalMatches",
    "TermBatch",
    "TermCounter",
    "top_positions",
]


class LexicalIndex:
    """Inverted index of node terms with BM25 scoring and live add/remove."""

    def __init__(self, analyzer: Analyzer | None = None, params: BM25Params | None = None) -> None:
        self.analyzer = analyzer or Analyzer()
        self.params = params or BM25Params()
        self.counter = TermCounter(self.analyzer, self.params.title_boost)
        self._vocabulary = Vocabulary()
        self._df = np.zeros(1024, dtype=np.int64)
        self._postings = TermPostings()
        self._posting_total = 0
        self._nodes = NodeTable()
        self._doc_positions: dict[str, list[int]] | None = {}
        self._length = np.zeros(1024, dtype=np.float64)
        self._alive = np.zeros(1024, dtype=bool)
        self._blank = np.zeros(1024, dtype=bool)
        self._node_terms: dict[int, tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16]]] = {}
        self.live_count = 0
        self.total_length = 0.0
        self.dead_postings = 0

    # ----------------------------------------------------------------- terms and nodes
    @property
    def terms(self) -> list[str]:
        """Every term, by term id."""
        return self._vocabulary.terms

    @property
    def vocab(self) -> dict[str, int]:
        """Each term's id; :meth:`term_id` for a few."""
        return self._vocabulary.ids

    def term_id(self, term: str) -> int | None:
        return self._vocabulary.get(term)

    @property
    def node_ids(self) -> list[str]:
        """Node id by position (removed nodes included); :meth:`node_id_at` for a few."""
        return self._nodes.ids

    @property
    def doc_of(self) -> list[str]:
        """Document id by position; :meth:`doc_at` for a few."""
        return self._nodes.docs

    @property
    def position(self) -> dict[str, int]:
        """Position by node id, live nodes only; :meth:`find` for a few."""
        return self._nodes.position

    def node_id_at(self, pos: int) -> str:
        return self._nodes.id_at(pos)

    def node_ids_at(self, positions: Sequence[int]) -> list[str]:
        """``node_id_at`` of each of ``positions``, at once."""
        return self._nodes.ids_at(positions)

    def doc_at(self, pos: int) -> str:
        return self._nodes.doc_at(pos)

    def find(self, node_id: str) -> int | None:
        """The position of the live node ``node_id``, or None."""
        return self._nodes.find(node_id)

    def node_count(self) -> int:
        """Positions held, removed nodes included."""
        return len(self._nodes)

    # ----------------------------------------------------------------- building
    def add(self, node_id: str, doc_id: str, title: str, content: str) -> int:
        """Index one node (title and content); returns its position."""
        counts = self.counter.counts(title, content)
        return self.add_counts(node_id, doc_id, counts, blank=not content.strip())

    def add_counts(self, node_id: str, doc_id: str, counts: Counter[str], blank: bool) -> int:
        """Index one node's term counts; returns its position."""
        if node_id in self.position:
            raise InputError(f"node {node_id!r} is indexed already; remove its document first")
        pos = len(self.node_ids)
        self._grow_nodes(pos + 1)
        self.node_ids.append(node_id)
        self.doc_of.append(doc_id)
        self.position[node_id] = pos
        self.doc_positions.setdefault(doc_id, []).append(pos)
        term_ids = np.empty(len(counts), dtype=np.int32)
        tfs = np.empty(len(counts), dtype=np.uint16)
        length = 0
        vocab = self.vocab
        for i, (term, tf) in enumerate(counts.items()):
            tid = vocab.get(term)
            if tid is None:
                tid = self._new_term(term)
            tf = min(tf, 65535)
            term_ids[i] = tid
            tfs[i] = tf
            length += tf
        self._df[term_ids] += 1  # a node's terms are distinct
        self._postings.add(term_ids, np.full(len(term_ids), pos, dtype=np.int32), tfs)
        self._node_terms[pos] = (term_ids, tfs)
        self._posting_total += len(term_ids)
        self._length[pos] = length
        self._alive[pos] = True
        self._blank[pos] = blank
        self.live_count += 1
        self.total_length += length
        return pos

    def add_many(
        self,
        node_ids: Sequence[str],
        doc_ids: str | Sequence[str],
        counts: Sequence[Counter[str]] | TermBatch,
        blanks: Sequence[bool],
    ) -> list[int]:
        """``add_counts`` for many nodes (of one document, or one each), in one pass.

        ``counts`` may be a :class:`TermBatch` of them (one made for ``top_terms_many``
        too, so the terms are walked once).
        """
        batch = counts if isinstance(counts, TermBatch) else TermBatch.of(counts)
        if isinstance(doc_ids, str):
            doc_ids = [doc_ids] * len(node_ids)
        known, seen = self.position, set()
        for i, node_id in enumerate(node_ids):
            if node_id in known or node_id in seen:  # index those before it, as add_counts would
                self._add_new(node_ids[:i], doc_ids[:i], batch.take(range(i)), blanks[:i])
                return [self.add_counts(node_id, doc_ids[i], Counter(), blanks[i])]
            seen.add(node_id)
        return self._add_new(node_ids, doc_ids, batch, blanks)

    def _add_new(
        self,
        node_ids: Sequence[str],
        doc_ids: Sequence[str],
        batch: TermBatch,
        blanks: Sequence[bool],
    ) -> list[int]:
        start, count = len(self.node_ids), len(node_ids)
        positions = list(range(start, start + count))
        self._grow_nodes(start + count)
        self.node_ids.extend(node_ids)
        self.doc_of.extend(doc_ids)
        self.position.update(zip(node_ids, positions, strict=True))
        doc_positions = self.doc_positions
        for doc_id, pos in zip(doc_ids, positions, strict=True):
            doc_positions.setdefault(doc_id, []).append(pos)
        ids = batch.term_ids(self.vocab)
        found = ids[batch.local]
        if (found < 0).any():  # new terms get ids in the order they are first met
            for d in batch.in_first_met_order(np.unique(batch.local[found < 0])).tolist():
                ids[d] = self._new_term(batch.distinct[d])
            found = ids[batch.local]
        tids = found.astype(np.int32)
        tf = np.minimum(batch.tf, 65535)
        sizes = batch.sizes
        ends = np.cumsum(sizes)
        sums = np.zeros(len(tf) + 1, dtype=np.int64)
        np.cumsum(tf, out=sums[1:])
        lengths = (sums[ends] - sums[ends - sizes]).tolist()
        np.add.at(self._df, tids, 1)
        tfs = tf.astype(np.uint16)
        self._postings.add(
            tids, np.repeat(np.arange(start, start + count, dtype=np.int32), sizes), tfs
        )
        node_terms = self._node_terms
        for pos, a, b in zip(positions, (ends - sizes).tolist(), ends.tolist(), strict=True):
            node_terms[pos] = (tids[a:b], tfs[a:b])
        self._posting_total += len(tids)
        self._length[start : start + count] = lengths
        self._alive[start : start + count] = True
        self._blank[start : start + count] = blanks
        self.live_count += count
        for length in lengths:
            self.total_length += length
        return positions

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
        tid = self._vocabulary.add(term)
        if tid >= len(self._df):  # doubled; one read from a snapshot may have none yet
            grown = np.zeros(max(tid + 1, 2 * len(self._df)), dtype=np.int64)
            grown[: len(self._df)] = self._df
            self._df = grown
        return tid

    def postings(self, tid: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint16]]:
        """Positions (ascending) and frequencies of a term's postings, removed nodes included."""
        return self._postings.get(tid)

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

    def forget_node_terms(self) -> None:
        """Drop each node's term ids and frequencies (what removal reads), held as views of
        the arrays they were added with: the postings hold the same, and the views come back
        from them in one pass when next needed, as after a snapshot load. A bulk load calls
        it now and then so that it holds the postings only (some 60 MiB less at 100k)."""
        self._node_terms = {}

    def _load_forward(self) -> None:
        # After a snapshot load only postings exist; derive the per-node view once, in bulk.
        if len(self._node_terms) >= len(self._nodes):
            return
        known = self._node_terms
        for p, terms in node_terms_of(*self.posting_arrays(), len(self._nodes)).items():
            if p not in known:
                known[p] = terms

    def posting_arrays(self) -> tuple[IntArray, IntArray, IntArray]:
        """Every posting as (position, term id, frequency) arrays, removed nodes included."""
        return self._postings.arrays()

    def compact(self) -> None:
        """Fold recent postings into the flat base and drop postings of removed nodes."""
        if not self._postings.has_recent() and not self.dead_postings:
            return
        self._posting_total = self._postings.compact(self._alive, len(self.terms))
        self.dead_postings = 0

    def to_arrays(self) -> IndexArrays:
        """The index as plain arrays (compacted first): what a snapshot stores."""
        self.compact()
        base = self._postings.base()
        indptr = base.indptr
        if len(indptr) != len(self.terms) + 1:  # terms added with no live postings left
            pad = np.full(len(self.terms) + 1 - len(indptr), indptr[-1], dtype=np.int64)
            indptr = np.concatenate([indptr, pad])
        n = len(self.node_ids)
        params = (self.params.k1, self.params.b, self.params.title_boost)
        return IndexArrays(
            self.analyzer.language,
            params,
            self.terms,
            self.node_ids,
            self.doc_of,
            indptr,
            base.pos,
            base.tf,
            df=self._df[: len(self.terms)],
            length=self._length[:n],
            alive=self._alive[:n],
            blank=self._blank[:n],
        )

    @classmethod
    def from_arrays(
        cls, arrays: IndexArrays, analyzer: Analyzer, params: BM25Params
    ) -> LexicalIndex:
        """The index that :meth:`to_arrays` gave ``arrays`` (made with these settings)."""
        index = cls(analyzer, params)
        index._vocabulary = Vocabulary(arrays.terms, arrays.term_order)
        n = len(arrays.node_ids)
        index._df = np.array(arrays.df, dtype=np.int64)
        index._grow_nodes(n)
        index._length[:n] = arrays.length
        index._alive[:n] = alive = np.asarray(arrays.alive, dtype=bool)
        index._blank[:n] = arrays.blank
        indptr = np.asarray(arrays.indptr, dtype=np.int64)
        pos, tf = np.asarray(arrays.pos, dtype=np.int32), np.asarray(arrays.tf, dtype=np.uint16)
        index._postings.load_base(indptr, pos, tf)
        index._posting_total = int(indptr[-1])
        index._nodes = NodeTable.of(arrays.node_ids, arrays.doc_of, alive)
        index._doc_positions = None
        index.live_count = int(np.count_nonzero(alive))
        index.total_length = float(index._length[:n][alive].sum())
        return index

    # ----------------------------------------------------------------- reading
    def __len__(self) -> int:
        return self.live_count

    def __contains__(self, node_id: object) -> bool:
        return isinstance(node_id, str) and self._nodes.find(node_id) is not None

    def posting_count(self) -> int:
        """Postings held, those of removed nodes not yet compacted away included."""
        return self._posting_total

    def df_array(self) -> IntArray:
        """Document frequency of every term, by term id."""
        return self._df[: len(self.terms)]

    def alive_mask(self, positions: IntArray) -> npt.NDArray[np.bool_]:
        return self._alive[positions]

    def df(self, term: str) -> int:
        tid = self.term_id(term)
        return 0 if tid is None else int(self._df[tid])

    def idf(self, term: str) -> float:
        return self._idf(self.df(term))

    def idf_within(self, allowed: Sequence[int]) -> Callable[[str], float]:
        """The idf of a term as an index holding only the nodes at ``allowed`` gives it
        (N and df counted over those nodes alone)."""
        mask = np.zeros_like(self._alive)
        mask[np.asarray(allowed, dtype=np.int64)] = True
        mask &= self._alive
        count = int(np.count_nonzero(mask))

        def idf(term: str) -> float:
            tid = self.term_id(term)
            df = 0 if tid is None else int(np.count_nonzero(mask[self.postings(tid)[0]]))
            return self._idf(df, count)

        return idf

    def _idf(self, df: int, n: int | None = None) -> float:
        n = self.live_count if n is None else n
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def is_blank(self, pos: int) -> bool:
        return bool(self._blank[pos])

    def lengths(self, positions: IntArray) -> FloatArray:
        """The lengths (term counts) of the nodes at ``positions``."""
        return self._length[positions]

    def query_terms(self, query: str) -> list[str]:
        """The distinct index terms of a query, in first-seen order."""
        return list(dict.fromkeys(self.analyzer.terms(query)))

    def match(
        self, query: str, allowed: Sequence[int] | None = None, own_statistics: bool = False
    ) -> LexicalMatches:
        """Score every node that contains a query term; ``allowed`` limits the positions.
        With ``own_statistics`` the allowed nodes are scored as an index holding only them
        would score them: N, each term's df and avgdl counted over those nodes alone."""
        return self.match_terms(self.query_terms(query), allowed, own_statistics)

    def match_terms(
        self,
        terms: Iterable[str],
        allowed: Sequence[int] | None = None,
        own_statistics: bool = False,
    ) -> LexicalMatches:
        k1, b = self.params.k1, self.params.b
        count, total = self.live_count, self.total_length
        mask = self._alive
        if allowed is not None:
            mask = np.zeros_like(self._alive)
            mask[np.asarray(allowed, dtype=np.int64)] = True
            mask &= self._alive
            if own_statistics:
                count = int(np.count_nonzero(mask))
                total = float(self._length[mask].sum())
        avgdl = total / count if count else 1.0
        subset = allowed is not None and own_statistics
        kept_terms: list[str] = []
        idfs: list[float] = []
        per_term: list[tuple[IntArray, FloatArray]] = []
        parts: list[FloatArray] = []
        for term in terms:
            tid = self.term_id(term)
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
            idf = self._idf(len(pos), count) if subset else self._idf(int(self._df[tid]))
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
