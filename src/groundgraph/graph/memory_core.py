"""What every memory part of DocumentGraph shares: settings, the fact states, reads' views.

:class:`MemoryContext` holds the typed memory settings given to ``DocumentGraph(...)``
and the clock, reads the fact states the graph's derived indexes keep current, turns a
read's options (:class:`ReadOptions`) into a ``MemoryView``, finds the fact a "content"
argument names (its id or its text), and records when facts were read (for forgetting).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from groundgraph.errors import InputError, NotFoundError, StoreBusyError
from groundgraph.graph.indexes import DerivedIndexes
from groundgraph.graph.memory_settings import MemorySettings as MemorySettings
from groundgraph.graph.memory_settings import default_causal as default_causal
from groundgraph.graph.memory_settings import memory_settings as memory_settings
from groundgraph.memory.fact_graph import FactGraph
from groundgraph.memory.facts import CAUSE, EFFECT
from groundgraph.memory.index import MemoryIndex
from groundgraph.memory.scopes import query_scopes
from groundgraph.memory.timeline import Clock, FactState, parse_as_of
from groundgraph.memory.view import MemoryView, ViewOptions
from groundgraph.model.ids import entity_key, fact_id, is_fact_id
from groundgraph.model.memory import Fact
from groundgraph.store import Store

logger = logging.getLogger(__name__)
#: Who a read reads as: a scope, several, or None for all.
Scopes = str | Iterable[str] | None
TOUCH_EVERY_SECONDS = 60.0
MAX_CONTENT_CHARS = 20_000
# Views kept for reuse between writes (one per distinct set of read options).
MAX_CACHED_VIEWS = 16


class VisibleTexts(Mapping[str, str]):
    """The texts of the facts a view may show, looked up when asked for."""

    def __init__(self, states: Mapping[str, FactState], view: MemoryView) -> None:
        self._states = states
        self._view = view

    def __getitem__(self, fact: str) -> str:
        if not self._view.sees(fact):
            raise KeyError(fact)
        return self._states[fact].text

    def __iter__(self) -> Iterator[str]:
        return iter(self._view.scopes_at)

    def __len__(self) -> int:
        return len(self._view.scopes_at)

    def __contains__(self, fact: object) -> bool:
        return isinstance(fact, str) and self._view.sees(fact)


def not_found(content: object, what: str = "fact") -> NotFoundError:
    """The error for a fact (or span) that is missing, or that the caller may not read:
    the two look the same, so an error never tells that a hidden fact exists."""
    shown = content[:80] if isinstance(content, str) else content
    hint = "a fact id (fact:…) or the exact text of a fact"
    if what != "fact":
        hint = "a fact id, a fact's text or a cause/effect phrase"
    return NotFoundError(f"no {what} {shown!r} in the memory this call may read: pass {hint}")


def check_flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{name} must be True or False, not {value!r}")
    return value


@dataclass(frozen=True)
class ReadOptions:
    """What every memory read takes: read as ``scopes`` (None reads all), stay inside them
    (``isolate``; None means the graph's ``isolate_traversal``), count retired facts, and
    read the memory as it was at ``as_of`` (None: now). Checked when a view is made."""

    scopes: str | Iterable[str] | None = None
    isolate: bool | None = None
    include_superseded: bool = False
    as_of: object = None


class MemoryContext:
    """Shared state and helpers of the memory parts."""

    def __init__(self, store: Store, indexes: DerivedIndexes, settings: MemorySettings) -> None:
        self.store = store
        self.indexes = indexes
        self.settings = settings
        self.clock = Clock()
        self._touched: dict[str, float] = {}
        # Each set of read options' view, with the generation it was made for.
        self._views: dict[ViewOptions, tuple[int, MemoryView]] = {}

    # ----------------------------------------------------------------- state
    def memory(self) -> MemoryIndex:
        """The fact states and causal spans, caught up with the store."""
        return self.indexes.memory()

    def view(self, read: ReadOptions) -> MemoryView:
        """What one read with these options may see."""
        isolate = (
            self.settings.isolate_traversal
            if read.isolate is None
            else check_flag(read.isolate, "isolate")
        )
        options = ViewOptions(
            query_scopes(read.scopes),
            isolate,
            check_flag(read.include_superseded, "include_superseded"),
            parse_as_of(read.as_of),
        )
        memory = self.memory()
        # A view is a function of the fact states (which change only with the generation)
        # and the options: reads with the same options reuse it, and after writes it is
        # brought up to date for the facts that changed rather than made again.
        generation = self.indexes.generation
        kept = self._views.pop(options, None)
        if kept is not None and kept[0] != generation:
            changed = memory.changed_since(kept[0])
            kept = (
                None if changed is None else (generation, kept[1].refreshed(memory.states, changed))
            )
        if kept is None:
            if len(self._views) >= MAX_CACHED_VIEWS:
                self._views.pop(next(iter(self._views)))
            kept = (generation, MemoryView(memory.states, options))
        self._views[options] = kept  # the most recently used last
        return kept[1]

    def fact_graph(self, view: MemoryView) -> FactGraph:
        memory = self.memory()
        texts = VisibleTexts(memory.states, view)
        return FactGraph(partial(memory.edges_touching, self.store), view, memory.spans, texts)

    def find(self, content: object, view: MemoryView | None = None) -> str | None:
        """The fact a content argument names: a fact id, or the text of a fact."""
        if not isinstance(content, str):
            raise InputError(f"name a fact by its id or its text, not {type(content).__name__}")
        if len(content) > MAX_CONTENT_CHARS:
            raise InputError("that is too long to name a fact: pass its id or its text")
        states = self.memory().states
        candidates = [content] if is_fact_id(content.strip()) else []
        if content.strip():
            candidates.append(fact_id(content))
        for candidate in candidates:
            candidate = candidate.strip()
            if candidate in states and (view is None or view.sees(candidate)):
                return candidate
        return None

    def require(self, content: object, view: MemoryView | None = None) -> str:
        found = self.find(content, view)
        if found is None:
            raise not_found(content)
        return found

    def fact(self, content: str) -> Fact:
        """The fact named by its id or its text, as the memory holds it now."""
        return self.fact_record(self.memory().states[self.require(content)])

    def fact_record(self, state: FactState, status: str = "existing", **extra: Any) -> Fact:
        mentions = self.store.reads.edges_touching([state.fact_id], ["mentions"])
        own = [e for e in mentions if e.source == state.fact_id]
        entities = [
            state.text[s:t] if s < t else entity_key(e.target)
            for e in own
            if e.label is None
            for _, s, t in e.spans[:1]
        ]
        spans = sorted({e.target for e in own if e.label in (CAUSE, EFFECT)})
        causes = []
        for edge in self.store.reads.edges_touching(spans, ["causes"]):
            if state.fact_id in edge.sources and len(edge.spans) == 2:
                (_, a, b), (_, c, d) = edge.spans
                pair = (state.text[a:b], state.text[c:d])
                if pair not in causes:
                    causes.append(pair)
        return Fact(
            fact_id=state.fact_id,
            text=state.text,
            scopes=state.scopes,
            created_at=state.created_at,
            invalid_at=state.invalid_at,
            entities=tuple(dict.fromkeys(entities)),
            causes=tuple(causes),
            source=state.source,
            status=status,
            **extra,
        )

    def touch(self, fact_ids: Sequence[str]) -> None:
        """Note that a read returned these facts (at most once a minute per fact)."""
        import time

        now = time.monotonic()
        due = [f for f in dict.fromkeys(fact_ids) if now - self._touched.get(f, -1e18) >= 60]
        if not due or self.indexes.hands_off:
            return
        try:
            self.store.ledger.touch(due, self.clock.now())
        except StoreBusyError:  # access times are bookkeeping: a busy store skips them
            logger.warning("store busy: access times of %d facts not recorded", len(due))
            return
        for fact in due:
            self._touched[fact] = now
