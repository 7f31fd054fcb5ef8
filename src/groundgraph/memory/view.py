"""What one read of the memory may see: the facts, their scopes then, and the edges.

A read names scopes (or none), ``as_of`` (or now), whether retired facts count and
whether to stay inside its scopes. From those, every fact is either

- **seedable**: it existed then, was valid (or retired facts are asked for), and the
  read's scopes may read it: a search may start from it;
- **walkable** only: it is in another scope, and the read does not isolate: a walk may
  reach it (and flags it ``crossScope``);
- **unseen**: nothing of it may appear anywhere in the answer.

An edge may be walked only when every fact that asserts it (its ``sources``) is visible,
so with isolation even the names of entities come from the reader's own facts.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from groundgraph.index.bm25 import LexicalIndex
from groundgraph.memory.scopes import ScopeReader
from groundgraph.memory.timeline import FactState, seen_since
from groundgraph.model import Edge


@dataclass(frozen=True)
class ViewOptions:
    """The knobs every memory read shares."""

    scopes: tuple[str, ...] | None = None
    isolate: bool = False
    include_superseded: bool = False
    as_of: str | None = None


class MemoryView:
    """The facts one read may seed from and walk through, with their scopes at the time
    as the read may name them (``ScopeReader.shown``: every record of a read takes a
    fact's scopes from here, so no result names a scope its reader may not read)."""

    def __init__(self, states: Mapping[str, FactState], options: ViewOptions) -> None:
        self.options = options
        self._reader = ScopeReader(options.scopes)
        self._isolate = options.isolate and options.scopes is not None
        self.scopes_at: dict[str, tuple[str, ...]] = {}
        self.seedable: set[str] = set()
        self.retired: set[str] = set()
        for fact, state in states.items():
            self._place(fact, state)
        self._lexical: LexicalPlacement | None = None

    def refreshed(self, states: Mapping[str, FactState], changed: Iterable[str]) -> MemoryView:
        """This view after the facts ``changed`` were re-read, as a new view built over
        ``states`` would be: ``changed`` lists them in the order ``states`` holds them,
        after every other fact (as ``MemoryIndex.changed_since`` gives them)."""
        view = copy.copy(self)
        view.scopes_at = dict(self.scopes_at)
        view.seedable = set(self.seedable)
        view.retired = set(self.retired)
        changed = list(changed)
        for fact in changed:
            view.scopes_at.pop(fact, None)
            view.seedable.discard(fact)
            view.retired.discard(fact)
        for fact in changed:
            state = states.get(fact)
            if state is not None:
                view._place(fact, state)
        if self._lexical is not None:
            view._lexical = self._lexical.moved(changed)
        return view

    def lexical_set(
        self, index: LexicalIndex, retired: Mapping[str, Counter[str]]
    ) -> tuple[npt.NDArray[np.bool_], dict[str, Counter[str]]]:
        """The facts this view sees as ``index.subset.subset_bm25`` takes them: a mask
        over the lexical index's positions for the valid ones, and the term counts of the
        retired ones (``retired``: ``MemoryIndex.retired``); kept with the view, and
        after a write moved only for the facts that changed."""
        if self._lexical is None or self._lexical.index is not index:
            self._lexical = LexicalPlacement(index, self.scopes_at)
        return self._lexical.placed(self.scopes_at, retired)

    def _place(self, fact: str, state: FactState) -> None:
        options = self.options
        found = state.at(options.as_of)
        if found is None:
            return
        scopes, valid = found
        if not valid and not options.include_superseded:
            return
        readable = self._reader.reads(scopes)
        if self._isolate and not readable:
            return
        self.scopes_at[fact] = self._reader.shown(scopes)
        if readable:
            self.seedable.add(fact)
        if not valid:
            self.retired.add(fact)

    def since(self, state: FactState) -> str:
        """The fact's creation time as this read may be shown it (``timeline.seen_since``)."""
        if self.options.scopes is None:
            return state.created_at
        return seen_since(state, self._reader.reads)

    def sees(self, fact: str) -> bool:
        return fact in self.scopes_at

    def cross_scope(self, fact: str) -> bool:
        """Reached from the read's scopes but living in none of them."""
        return fact not in self.seedable

    def usable(self, edge: Edge) -> bool:
        """Whether every fact asserting the edge is visible (edges of documents are not)."""
        return bool(edge.sources) and all(s in self.scopes_at for s in edge.sources)


class LexicalPlacement:
    """Where a view's facts sit in one lexical index (positions never move in an index),
    with the facts to place again before the next read."""

    def __init__(self, index: LexicalIndex, unplaced: Iterable[str]) -> None:
        self.index = index
        self.mask = np.zeros(len(index.node_ids), dtype=bool)
        self.position: dict[str, int] = {}
        self.outside: dict[str, Counter[str]] = {}
        self.unplaced = list(unplaced)

    def moved(self, changed: Iterable[str]) -> LexicalPlacement:
        """A copy that places ``changed`` again (in this order, after the others)."""
        out = copy.copy(self)
        out.mask = self.mask.copy()
        out.position = dict(self.position)
        out.outside = dict(self.outside)
        out.unplaced = [*self.unplaced, *changed]
        return out

    def placed(
        self, sees: Mapping[str, object], retired: Mapping[str, Counter[str]]
    ) -> tuple[npt.NDArray[np.bool_], dict[str, Counter[str]]]:
        size = len(self.index.node_ids)
        if len(self.mask) < size:
            grown = np.zeros(max(size, 2 * len(self.mask)), dtype=bool)
            grown[: len(self.mask)] = self.mask
            self.mask = grown
        position = self.index.position
        for fact in self.unplaced:
            old = self.position.pop(fact, None)
            if old is not None:
                self.mask[old] = False
            self.outside.pop(fact, None)
            if fact not in sees:
                continue
            pos = position.get(fact)
            if pos is not None:
                self.mask[pos] = True
                self.position[fact] = pos
            elif fact in retired:
                self.outside[fact] = retired[fact]
        self.unplaced = []
        return self.mask, self.outside
