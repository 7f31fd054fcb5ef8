"""The terms of a lexical index and their ids: a list by id, and the id of each term.

A new process that loads a snapshot of 50k terms would spend longer making the term-to-id
dict than its first search spends looking terms up, so a vocabulary read from a snapshot
finds a term by binary search over the snapshot's sorted order of the term ids, and makes
the dict on its first new term or the first use of :attr:`Vocabulary.ids`.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["Vocabulary"]


class Vocabulary:
    """Term ids in the order terms were first met, and each term's id."""

    def __init__(self, terms: Sequence[str] = (), order: npt.NDArray[np.int32] | None = None):
        self.terms: list[str] = list(terms)
        #: Term ids sorted by their term, while no dict is made (a snapshot's order).
        self._order: list[int] | None = None
        self._ids: dict[str, int] = {}
        if order is not None and len(order) == len(self.terms):
            self._order = order.tolist()
        else:
            self._ids = dict(zip(self.terms, range(len(self.terms)), strict=True))

    def __len__(self) -> int:
        return len(self.terms)

    def get(self, term: str) -> int | None:
        """The id of ``term``, or None when it is not in the vocabulary."""
        if self._order is None:
            return self._ids.get(term)
        order, terms = self._order, self.terms
        at = bisect.bisect_left(order, term, key=terms.__getitem__)
        if at < len(order) and terms[order[at]] == term:
            return order[at]
        return None

    @property
    def ids(self) -> dict[str, int]:
        """Each term's id, as a dict (made now if it was not)."""
        if self._order is not None:
            self._ids = dict(zip(self.terms, range(len(self.terms)), strict=True))
            self._order = None
        return self._ids

    def add(self, term: str) -> int:
        """Give ``term`` (not in the vocabulary) the next id."""
        ids = self.ids
        tid = len(self.terms)
        self.terms.append(term)
        ids[term] = tid
        return tid

    def sorted_order(self) -> npt.NDArray[np.int32]:
        """Term ids sorted by their term (what a snapshot keeps for :meth:`get`)."""
        if self._order is not None:
            return np.array(self._order, dtype=np.int32)
        return np.array(sorted(range(len(self.terms)), key=self.terms.__getitem__), np.int32)
