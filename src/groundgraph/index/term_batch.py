"""The term counts of a batch of nodes, flattened once for both the index and the linker.

Choosing top terms (``top_terms_many``) and indexing (``LexicalIndex.add_many``) both walk
every (node, term) pair of a document; a ``TermBatch`` walks them once and keeps arrays.
Term ids found in the index are kept: an id never changes once given, so only the terms
unknown at the time need looking up again later.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]


@dataclass
class TermBatch:
    """Node i's terms are ``distinct[local[a:b]]`` with counts ``tf[a:b]``, in its order."""

    distinct: list[str]  # in the order first met
    local: IntArray  # per (node, term): index into ``distinct``
    tf: IntArray  # per (node, term): the count, as given
    sizes: IntArray  # per node: how many distinct terms it has
    # Per distinct term, its id in the index last asked (−1: none yet), shared with take().
    _ids: IntArray | None = field(default=None, repr=False)
    _vocab: Mapping[str, int] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, counts_list: Sequence[Counter[str]]) -> TermBatch:
        """The batch of nodes with these term counts, in this order."""
        terms = list(chain.from_iterable(counts_list))
        distinct = list(dict.fromkeys(terms))
        rank_of = dict(zip(distinct, range(len(distinct)), strict=True))
        return cls(
            distinct,
            np.fromiter(map(rank_of.__getitem__, terms), dtype=np.int64, count=len(terms)),
            np.fromiter(chain.from_iterable(map(dict.values, counts_list)), np.int64, len(terms)),
            np.fromiter(map(len, counts_list), dtype=np.int64, count=len(counts_list)),
        )

    def __getstate__(self) -> dict[str, object]:
        # Ids found belong to one process's index: a pickled batch goes without them.
        return {**self.__dict__, "_ids": None, "_vocab": None}

    def __len__(self) -> int:
        return len(self.sizes)

    def rows(self) -> IntArray:
        """Per (node, term): the node's row."""
        return np.repeat(np.arange(len(self.sizes)), self.sizes)

    def take(self, rows: Sequence[int]) -> TermBatch:
        """The batch of these nodes only (same distinct terms, ids found so far kept)."""
        ends = np.cumsum(self.sizes)
        starts = ends - self.sizes
        wanted = np.asarray(rows, dtype=np.int64)
        sizes = self.sizes[wanted]
        picks = np.repeat(starts[wanted] - np.cumsum(sizes) + sizes, sizes) + np.arange(
            int(sizes.sum())
        )
        return TermBatch(
            self.distinct, self.local[picks], self.tf[picks], sizes, self._ids, self._vocab
        )

    def term_ids(self, vocab: Mapping[str, int]) -> IntArray:
        """Each distinct term's id in ``vocab`` (−1 if it has none yet), looked up once.

        The array is the batch's own: fill in the ids of terms added to ``vocab``.
        """
        ids = self._ids
        if ids is None or self._vocab is not vocab:
            ids = np.fromiter(map(vocab.get, self.distinct, repeat(-1)), np.int64)
            self._ids, self._vocab = ids, vocab
        else:
            unknown = np.flatnonzero(ids < 0)
            if len(unknown):  # terms may have been added since: ids, once given, stay
                ids[unknown] = [vocab.get(self.distinct[i], -1) for i in unknown.tolist()]
        return ids

    def string_ranks(self) -> IntArray:
        """Each distinct term's rank in string order (what breaks ties between scores)."""
        ranks = np.empty(len(self.distinct), dtype=np.int64)
        ranks[sorted(range(len(self.distinct)), key=self.distinct.__getitem__)] = np.arange(
            len(self.distinct)
        )
        return ranks

    def in_first_met_order(self, terms: IntArray) -> IntArray:
        """These distinct terms (held by the nodes) ordered by where they are first met."""
        first = np.full(len(self.distinct), len(self.local), dtype=np.int64)
        np.minimum.at(first, self.local, np.arange(len(self.local)))
        ordered: IntArray = terms[np.argsort(first[terms], kind="stable")]
        return ordered
