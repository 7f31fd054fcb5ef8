"""The memory's derived state: every fact (valid, retired or not yet seen by a reader),
its history, the causal span nodes, and the term counts of retired facts.

A valid fact is in the graph's one lexical index like any section; a retired one is not
(a document search never sees it), so its term counts are kept here for the reads that
ask for history (``include_superseded``, ``as_of``). Like the graph's own indexes this
is rebuilt from the store and kept current through the store's generation counter and
change log, so a second process's writes are seen on the next read. The edges it keeps
for the walk outlive writes: a write of facts drops only the nodes it may have changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from groundgraph.errors import StoreError
from groundgraph.index.bm25 import LexicalIndex
from groundgraph.memory.dedup import ShingleIndex
from groundgraph.memory.facts import CAUSE, EFFECT
from groundgraph.memory.spans import SameSpan, SpanIndex
from groundgraph.memory.timeline import FactState, attach_events
from groundgraph.model import Edge
from groundgraph.model.ids import is_fact_id
from groundgraph.store.base import Store

_BATCH = 2000
TermCounter = Callable[[str, str], Counter[str]]
MAX_CACHED_EDGES = 500_000
MAX_LOGGED_SYNCS = 64


class MemoryIndex:
    """Facts by id, the term counts of the retired ones, and the span nodes.

    ``term_counts`` counts a text's terms as the lexical index does (a fact has no title).
    """

    def __init__(self, term_counts: TermCounter, same_span: SameSpan | None = None) -> None:
        self._term_counts = term_counts
        self._same_span = same_span
        self.generation = -1
        self._reset()

    def _reset(self) -> None:
        self.retired: dict[str, Counter[str]] = {}
        self.states: dict[str, FactState] = {}
        self.spans = SpanIndex(self._same_span)
        self.shingles = ShingleIndex()  # every fact seen, for the near-duplicate check
        self._drop_edges()
        # (generation before, after, facts re-read) of the last syncs: what changed.
        self._log: list[tuple[int, int, tuple[str, ...]]] = []
        # Where each valid fact sits in the graph's lexical index, kept as facts change.
        self._placed: object = None
        self._mask = np.zeros(0, dtype=bool)
        self._position: dict[str, int] = {}
        self._unplaced: set[str] = set()

    def sync(self, store: Store, current: int | None = None) -> None:
        """Catch up with the store's writes since the last call (``current``: the store's
        generation, when the caller has just read it)."""
        current = store.changes.generation() if current is None else current
        if current == self.generation:
            return
        if self.generation < 0:
            self.rebuild(store, current)
            return
        try:
            changed = store.changes.changed_documents(self.generation)
        except StoreError:
            self.rebuild(store, current)
            return
        facts = [d for d in changed if is_fact_id(d)]
        if len(facts) < len(changed):  # a document, or a store-wide rewrite of edges
            self._drop_edges()
        else:
            self._forget_edges(store, facts)
        self._reload(store, facts)
        self._log.append((self.generation, current, tuple(facts)))
        del self._log[:-MAX_LOGGED_SYNCS]
        self.generation = current

    def changed_since(self, generation: int) -> list[str] | None:
        """The facts re-read since ``generation``, in the order ``states`` now holds them
        (at its end); None when this index no longer knows (it was rebuilt meanwhile, or
        too many writes ago)."""
        if generation == self.generation:
            return []
        found: dict[str, None] = {}
        at = generation
        for start, end, facts in self._log:
            if start < at:
                continue
            if start != at:
                return None
            for fact in facts:
                found.pop(fact, None)
                found[fact] = None
            at = end
        return list(found) if at == self.generation else None

    def rebuild(self, store: Store, generation: int | None = None) -> None:
        """Read every fact again (also drops every trace of removed facts' words)."""
        generation = store.changes.generation() if generation is None else generation
        self._reset()
        ids = [d.doc_id for d in store.reads.documents() if is_fact_id(d.doc_id)]
        for start in range(0, len(ids), _BATCH):
            self._reload(store, ids[start : start + _BATCH])
        self.generation = generation

    def _reload(self, store: Store, fact_ids: Sequence[str]) -> None:
        if not fact_ids:
            return
        self._unplaced.update(fact_ids)
        for fact in fact_ids:
            self.retired.pop(fact, None)
            self.states.pop(fact, None)
        nodes = store.reads.get_nodes(fact_ids)
        loaded: dict[str, FactState] = {}
        for fact in fact_ids:
            node = nodes.get(fact)
            document = store.reads.get_document(fact) if node is not None else None
            if node is None or document is None:
                continue
            loaded[fact] = FactState(
                fact, node.content, node.created_at, node.scopes, node.invalid_at, document.source
            )
            if node.invalid_at is not None:
                self.retired[fact] = self._term_counts("", node.content)
        attach_events(loaded, store.ledger.fact_events(list(loaded)))
        self.states.update(loaded)
        for fact, state in loaded.items():
            self.shingles.add(fact, state.text)
        self.spans.add(_span_ends(store.reads.edges_touching(list(loaded))))

    def added(
        self, store: Store, state: FactState, span_ends: Sequence[str], generation: int
    ) -> None:
        """A new fact this process has just written, as the store's write ``generation``:
        taken as given (its state, its span nodes), not read back, when this index was
        current just before; else left for the next ``sync`` to read."""
        if self.generation != generation - 1 or state.fact_id in self.states:
            return
        fact = state.fact_id
        self._forget_edges(store, [fact])
        self._unplaced.add(fact)
        self.retired.pop(fact, None)
        loaded = {fact: state}
        attach_events(loaded, store.ledger.fact_events([fact]))
        self.states.update(loaded)
        self.shingles.add(fact, state.text)
        self.spans.add(span_ends)
        self._log.append((self.generation, generation, (fact,)))
        del self._log[:-MAX_LOGGED_SYNCS]
        self.generation = generation

    def _drop_edges(self) -> None:
        self._edges: dict[str, list[Edge]] = {}
        self._cached = 0
        # The kept nodes whose edges name each fact (as an end or a source).
        self._naming: dict[str, set[str]] = {}

    def _forget_edges(self, store: Store, facts: Sequence[str]) -> None:
        """Drop the kept edges of every node a write of these facts may have changed: the
        ends of the edges they own or touch now, and of the kept edges that name them (a
        fact's edges name it: it asserts them, and a removed fact's edges go with it)."""
        if not facts or not self._edges:
            return
        stale = set(facts)
        for fact in facts:
            stale.update(self._naming.pop(fact, ()))
        for edge in [*store.reads.owned_edges(facts), *store.reads.edges_touching(facts)]:
            stale.add(edge.source)
            stale.add(edge.target)
        for node in stale:
            dropped = self._edges.pop(node, None)
            if dropped is not None:
                self._cached -= len(dropped)

    def edges_touching(self, store: Store, node_ids: Sequence[str]) -> dict[str, list[Edge]]:
        """Every edge touching each node, valid or not, kept across reads and writes (a
        write of facts drops only the nodes it may have changed, a write of any other
        document drops them all; at most ``MAX_CACHED_EDGES`` are kept)."""
        missing = [n for n in dict.fromkeys(node_ids) if n not in self._edges]
        if missing:
            if self._cached > MAX_CACHED_EDGES:
                self._drop_edges()
            found: dict[str, list[Edge]] = {n: [] for n in missing}
            wanted = set(missing)
            naming = self._naming
            for edge in store.reads.edges_touching(missing):
                ends = {edge.source, edge.target} & wanted
                for end in ends:
                    found[end].append(edge)
                for fact in (edge.source, edge.target, *edge.sources):
                    if is_fact_id(fact):
                        naming.setdefault(fact, set()).update(ends)
            self._edges.update(found)
            self._cached += sum(len(v) for v in found.values())
        return {n: self._edges[n] for n in node_ids}

    def all_facts(
        self, index: LexicalIndex
    ) -> tuple[npt.NDArray[np.bool_], dict[str, Counter[str]]]:
        """Every fact, valid or retired, as ``index.subset.subset_bm25`` takes them (a mask
        over the lexical index's positions for the valid ones, and the term counts of the
        retired ones), kept up to date as facts change instead of looked up again (it is
        read twice for every fact added)."""
        if self._placed is not index:  # a new lexical index: every fact moved
            self._placed = index
            self._mask = np.zeros(len(index.node_ids), dtype=bool)
            self._position = {}
            self._unplaced = set(self.states)
        if len(self._mask) < len(index.node_ids):
            grown = np.zeros(max(len(index.node_ids), 2 * len(self._mask)), dtype=bool)
            grown[: len(self._mask)] = self._mask
            self._mask = grown
        for fact in self._unplaced:
            old = self._position.pop(fact, None)
            if old is not None:
                self._mask[old] = False
            pos = index.position.get(fact)
            if pos is not None and fact in self.states:
                self._mask[pos] = True
                self._position[fact] = pos
        self._unplaced = set()
        return self._mask, self.retired


def _span_ends(edges: Iterable[Edge]) -> list[str]:
    return [e.target for e in edges if e.type == "mentions" and e.label in (CAUSE, EFFECT)]
