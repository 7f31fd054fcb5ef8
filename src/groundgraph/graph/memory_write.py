"""Agent memory on DocumentGraph: facts in, updates, contradictions, deletion, forgetting.

:class:`MemoryWriter` is the part of DocumentGraph that adds and replaces facts; the
reads are ``graph.memory_read`` and ``graph.memory_causal``, the logic
``groundgraph.memory``. A fact is a one-node document (``memory.facts``) with scopes,
``created_at`` and ``invalid_at``; its entities (zero-model extractor or any callable)
and causal pairs (the cue extractor or any ``CausalExtractor``) join it to the rest of
the graph. Nothing is ever silently lost: a contradicted fact is retired, not deleted,
and the contradiction goes to a ledger; only ``delete`` and forgetting remove facts, and
they say exactly what went.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace

from groundgraph.errors import InputError
from groundgraph.graph.batches import write_in_batches
from groundgraph.graph.evidence import evidence_for
from groundgraph.graph.memory_core import MemoryContext, Scopes
from groundgraph.graph.writer import DocumentWriter
from groundgraph.index.subset import subset_bm25
from groundgraph.memory.conflicts import ConflictResolver, Contradiction
from groundgraph.memory.conflicts.candidates import Found, candidates, contradicted
from groundgraph.memory.conflicts.gate import ConflictGate
from groundgraph.memory.dedup import check_threshold, nearest
from groundgraph.memory.facts import (
    CAUSE,
    EFFECT,
    SUPERSEDES_WEIGHT,
    CausalExtractorLike,
    EntityCallable,
    as_mentions,
    causal_pairs,
    causal_records,
    check_fact_text,
    check_source,
    fact_texts,
)
from groundgraph.memory.index import MemoryIndex
from groundgraph.memory.scopes import check_scopes, share_scope
from groundgraph.memory.timeline import INVALIDATED, REVIVED, SCOPED, WITHDRAWN, FactState
from groundgraph.model import Document, Edge, Node
from groundgraph.model.ids import fact_id, is_fact_id
from groundgraph.model.memory import Fact
from groundgraph.model.valid_text import valid_text
from groundgraph.search import MAX_QUERY_CHARS
from groundgraph.store.base import ConflictRecord, FactEvent, FactSnapshot, FactUpdate

DEDUP_CANDIDATES = 10
DELIBERATE = "replaced by supersede()"
CONFLICT_NEIGHBOURS = 10
MAX_SHARED_ENTITY_EDGES = 500


class MemoryWriter:
    """``add_text``, ``add_texts``, ``load_dataset`` and ``supersede``."""

    def __init__(
        self,
        context: MemoryContext,
        writer: DocumentWriter,
        erase: Callable[[str, bool], object] | None = None,
    ) -> None:
        self.context = context
        self.store = context.store
        self.indexes = context.indexes
        self.writer = writer
        self.erase = erase  # delete(fact, purge_orphans), for supersede(purge_orphans=True)
        # The negated sentences of the facts, for the rule resolver's gate, and which
        # memory (and generation of it) the gate has read.
        self._gate = ConflictGate()
        self._gate_read: tuple[MemoryIndex | None, int] = (None, -1)

    # ----------------------------------------------------------------- adding facts
    def add_text(
        self,
        text: str,
        scopes: Scopes = None,
        extractor: EntityCallable | None = None,
        causal: bool | CausalExtractorLike | None = None,
        dedup_threshold: float | None = None,
        resolve_conflicts: bool | None = None,
        *,
        source: str = "",
        causal_extractor: CausalExtractorLike | None = None,
    ) -> Fact:
        """Remember one fact; returns it as stored (``Fact.status`` says what happened).
        ``causal_extractor`` replaces the graph's causal extractor for this call
        (``causal=False`` still turns causal extraction off)."""
        checked, said_by = check_fact_text(text), check_source(source)
        fact = self._add(
            checked.text,
            check_scopes(scopes),
            extractor,
            self._causal(causal, causal_extractor),
            self._threshold(dedup_threshold),
            self._resolver(resolve_conflicts),
            said_by.text,
        )
        return _replaced(fact, checked.replaced + said_by.replaced)

    def add_texts(
        self,
        texts: Iterable[str],
        scopes: Scopes = None,
        extractor: EntityCallable | None = None,
        causal: bool | CausalExtractorLike | None = None,
        dedup_threshold: float | None = None,
        resolve_conflicts: bool | None = None,
        *,
        source: str = "",
        causal_extractor: CausalExtractorLike | None = None,
    ) -> list[Fact]:
        """Remember facts in order, each as :meth:`add_text` would. The store writes of
        up to ``BATCH_DOCUMENTS`` facts (or ``BATCH_SECONDS``) share one transaction: a
        crash loses that batch whole, an error keeps the facts before it."""
        batch = [check_fact_text(t) for t in fact_texts(texts)]
        said_by = check_source(source)
        options = (
            check_scopes(scopes),
            extractor,
            self._causal(causal, causal_extractor),
            self._threshold(dedup_threshold),
            self._resolver(resolve_conflicts),
            said_by.text,
        )
        return list(
            write_in_batches(
                self.store,
                self.indexes,
                batch,
                lambda item: _replaced(self._add(item[0], *options), item[1] + said_by.replaced),
            )
        )

    def load_dataset(self, name: str, scopes: Scopes = None) -> list[Fact]:
        """Add a built-in dataset's facts (``groundgraph.memory.dataset_names()``)."""
        from groundgraph.memory.datasets import load_dataset_facts

        override = None if scopes is None else check_scopes(scopes)
        return [
            self.add_text(f.text, scopes=f.scopes if override is None else override)
            for f in load_dataset_facts(name)
        ]

    def _causal(
        self,
        causal: bool | CausalExtractorLike | None,
        extractor: CausalExtractorLike | None = None,
    ) -> CausalExtractorLike | None:
        """The causal extractor of one call: ``causal`` (True, False, None or an extractor)
        and ReasonGraph's ``causal_extractor`` (an extractor for this call, or None)."""
        if extractor is not None:
            if not callable(extractor):
                raise InputError("causal_extractor must be a callable text -> causal pairs")
            if callable(causal) and causal is not extractor and not isinstance(causal, bool):
                raise InputError("give the causal extractor once: as causal= or causal_extractor=")
            if causal is False:
                return None
            return extractor
        default = self.context.settings.causal_extractor
        if causal is None or causal is True:
            if causal is True and default is None:
                raise InputError(
                    "causal=True, but this graph was made with causal_extractor=False: "
                    "pass a causal extractor instead"
                )
            return default
        if causal is False:
            return None
        if callable(causal):
            return causal
        raise InputError("causal must be True, False, None or a causal extractor")

    def _threshold(self, value: float | None) -> float | None:
        return self.context.settings.dedup_threshold if value is None else check_threshold(value)

    def _resolver(self, resolve: bool | None) -> ConflictResolver | None:
        resolver = self.context.settings.conflict_resolver
        if resolve is None:
            return resolver
        if not isinstance(resolve, bool):
            raise InputError("resolve_conflicts must be True, False or None")
        if resolve and resolver is None:
            raise InputError(
                "resolve_conflicts=True, but this graph was made with conflict_resolver=False"
            )
        return resolver if resolve else None

    def _add(
        self,
        text: str,
        scopes: tuple[str, ...],
        extractor: EntityCallable | None,
        causal: CausalExtractorLike | None,
        threshold: float | None,
        resolver: ConflictResolver | None,
        source: str,
        retire: Sequence[Found] = (),
    ) -> Fact:
        memory = self.context.memory()
        fid = fact_id(text)
        known = memory.states.get(fid)
        if known is not None:
            return self._reassert(known, scopes, resolver, "existing", None, retire)
        embedder = self.context.settings.embedder
        if threshold is not None and (
            embedder is not None or memory.shingles.may_have_near(text, threshold)
        ):  # with no fact that near, the BM25 pool would find none
            pool = [
                (f, memory.states[f].text)
                for f in self._lexical_neighbours(text, DEDUP_CANDIDATES * 3)
                if share_scope(scopes, memory.states[f].scopes)
            ][:DEDUP_CANDIDATES]
            near = nearest(text, pool, threshold, embedder)
            if near is not None:
                return self._reassert(memory.states[near[0]], scopes, resolver, "merged", near[1])
        stamp = self.context.clock.now()
        node = Node(fid, fid, "document", "", text, 0, None, (0, len(text)), scopes, stamp)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        document = Document(fid, "", "memory fact", source, digest, scopes, stamp)
        entity_fn = as_mentions(extractor) if extractor is not None else self.writer.entities()
        entities, evidence = evidence_for([node], entity_fn, self.writer.relation_extractor)
        pairs = causal_pairs(causal, text)
        spans, causal_edges, _ = causal_records(fid, text, pairs)
        named = {e.target for e in causal_edges if e.type == "mentions"}
        edges = causal_edges + [
            e for e in evidence if not (e.type == "mentions" and e.target in named)
        ]
        counts = self.indexes.index.counter.counts("", text)
        self.writer.commit(
            document,
            [node],
            edges,
            [],
            [counts],
            entities + spans,
        )
        state = FactState(fid, text, stamp, scopes, None, source)
        span_ends = [e.target for e in edges if e.type == "mentions" and e.label in (CAUSE, EFFECT)]
        self.indexes.fact_added(state, span_ends, self.indexes.generation)
        superseded = self._settle(state, resolver, [], retire)
        return self.context.fact_record(state, "added", superseded=superseded)

    def _reassert(
        self,
        state: FactState,
        scopes: tuple[str, ...],
        resolver: ConflictResolver | None,
        status: str,
        similarity: float | None,
        retire: Sequence[Found] = (),
    ) -> Fact:
        """The same (or a nearly same) fact again: union scopes, revive, re-check."""
        stamp = self.context.clock.now()
        added = tuple(s for s in scopes if s not in state.scopes)
        events = []
        if added:
            events.append(FactEvent(state.fact_id, SCOPED, stamp, added))
        revived = state.invalid_at is not None
        if revived:
            events.append(FactEvent(state.fact_id, REVIVED, stamp))
            status = "revived"
        merged = tuple(sorted({*state.scopes, *added}))
        now = FactState(state.fact_id, state.text, state.created_at, merged, None, state.source)
        update = [FactUpdate(state.fact_id, merged, None, tuple(events))] if events else []
        superseded = self._settle(now, resolver, update, retire)
        return self.context.fact_record(now, status, similarity=similarity, superseded=superseded)

    def _settle(
        self,
        state: FactState,
        resolver: ConflictResolver | None,
        updates: list[FactUpdate],
        retire: Sequence[Found] = (),
    ) -> tuple[str, ...]:
        """Retire what ``state`` contradicts (and the facts in ``retire``, a deliberate
        replacement) and write ``updates`` with it, in one transaction."""
        memory = self.context.memory()
        found = [r for r in retire if r.fact_id != state.fact_id]
        if resolver is not None and self._gated(memory).may_contradict(resolver, state.text):
            pool = candidates(
                state.fact_id,
                state.scopes,
                memory.states,
                self._sharing_entities(state.fact_id),
                self._lazy_neighbours(state.text, CONFLICT_NEIGHBOURS),
            )
            named = {r.fact_id for r in found}
            judged = contradicted(resolver, state.text, pool, memory.states)
            found += [r for r in judged if r.fact_id not in named]
        if not found and not updates:
            return ()
        stamp = self.context.clock.now()
        edges: list[tuple[str, Edge]] = []
        ledger = []
        for item in found:
            old = memory.states[item.fact_id]
            rule = item.contradiction.rule
            wider = _beyond(old.scopes, state.scopes) if item not in retire else ()
            if wider:
                # The old fact also lives in scopes the new one is not written in (the
                # same sentence another tenant holds): it leaves the new fact's scopes
                # and stays valid in the others, with no link and no ledger line between
                # the two (a line would name a fact its readers no longer read); its
                # ``withdrawn`` event names the new fact.
                gone = tuple(s for s in old.scopes if s not in wider)
                event = FactEvent(old.fact_id, WITHDRAWN, stamp, gone, state.fact_id)
                updates.append(FactUpdate(old.fact_id, wider, old.invalid_at, (event,)))
                continue
            if old.invalid_at is None:  # one already retired keeps its date; gains a link
                event = FactEvent(old.fact_id, INVALIDATED, stamp, (), state.fact_id)
                updates.append(FactUpdate(old.fact_id, old.scopes, stamp, (event,)))
            edge = Edge(
                state.fact_id,
                old.fact_id,
                "supersedes",
                SUPERSEDES_WEIGHT,
                (state.fact_id,),
                rule,
                created_at=stamp,
            )
            edges.append((state.fact_id, edge))
            ledger.append(
                ConflictRecord(
                    stamp,
                    _snapshot(state),
                    _snapshot(old),
                    rule,
                    item.contradiction.detail,
                    "" if item in retire else type(resolver).__name__,
                )
            )
        self.store.ledger.update_facts(updates, edges, ledger)
        self.indexes.sync()
        return tuple(item.fact_id for item in found)

    def _gated(self, memory: MemoryIndex) -> ConflictGate:
        """The conflict gate, caught up with the memory's facts."""
        read, generation = self._gate_read
        if read is memory and generation == memory.generation:
            return self._gate
        changed = memory.changed_since(generation) if read is memory else None
        if changed is None:
            self._gate.clear()
        self._gate.see(memory.states, changed)
        self._gate_read = (memory, memory.generation)
        return self._gate

    def _lexical_neighbours(self, text: str, limit: int) -> list[str]:
        """Facts (valid or retired) that share the most BM25 weight with ``text``, scored
        with the statistics of the facts alone."""
        memory = self.context.memory()
        index = self.indexes.index
        inside, outside = memory.all_facts(index)
        return subset_bm25(index, text[:MAX_QUERY_CHARS], inside, outside).top(limit)

    def _lazy_neighbours(self, text: str, limit: int) -> Iterator[str]:
        """``_lexical_neighbours``, searched when first read."""
        yield from self._lexical_neighbours(text, limit)

    def _sharing_entities(self, fact: str) -> list[str]:
        """Other facts that mention an entity or span this fact mentions."""
        names = sorted({e.target for e in self.store.reads.edges_touching([fact], ["mentions"])})
        out: dict[str, None] = {}
        for edge in self.store.reads.edges_touching(names)[:MAX_SHARED_ENTITY_EDGES]:
            if edge.type == "mentions" and edge.source != fact and is_fact_id(edge.source):
                out[edge.source] = None
        return list(out)

    # ----------------------------------------------------------------- updates
    def supersede(
        self,
        old: str,
        new_text: str,
        scopes: Scopes = None,
        extractor: EntityCallable | None = None,
        purge_orphans: bool = False,
        *,
        source: str = "",
        rule: str = "supersede",
    ) -> Fact:
        """Replace a fact by a new one; the old one is retired, its history kept.

        ``extractor`` finds the new fact's entities (the graph's extractor when None).
        ``purge_orphans=True`` erases the old fact instead of retiring it, as
        ``delete(old, purge_orphans=True)`` does (its history, ledger lines and the entities
        only it named go; ReasonGraph's erasure).
        """
        if not isinstance(purge_orphans, bool):
            raise InputError("purge_orphans must be True or False")
        if purge_orphans:
            if self.erase is None:
                raise InputError("this memory cannot erase facts: supersede without purge_orphans")
            old_id = self.context.require(old)
            fact = self.supersede(old_id, new_text, scopes, extractor, source=source, rule=rule)
            self.erase(old_id, True)
            return replace(self.context.fact(fact.fact_id), superseded=(), replaced=fact.replaced)
        memory = self.context.memory()
        old_id = self.context.require(old)
        text, replaced = check_fact_text(new_text)
        said_by = check_source(source)
        if not isinstance(rule, str) or not 0 < len(rule) <= 100:
            raise InputError("rule must be a short text (1 to 100 characters)")
        rule, replaced_in_rule = valid_text(rule)
        if fact_id(text) == old_id:
            raise InputError("the new text is the same fact as the old one: nothing to replace")
        replaced += replaced_in_rule
        new_id = fact_id(text)
        if memory.states[old_id].invalid_at is not None and self._superseded_by(old_id, new_id):
            # The same replacement again (a retry, a re-run after a crash): nothing changes.
            return replace(self.context.fact(new_id), status="existing")
        retired = Found(old_id, Contradiction(memory.states[old_id].text, rule, DELIBERATE))
        fact = self._add(
            text,
            memory.states[old_id].scopes if scopes is None else check_scopes(scopes),
            extractor,
            self._causal(None),
            None,
            self.context.settings.conflict_resolver,
            said_by.text,
            (retired,),
        )
        return _replaced(fact, replaced + said_by.replaced)

    def _superseded_by(self, old_id: str, new_id: str) -> bool:
        edges = self.store.reads.edges_touching([old_id])
        return any(e.type == "supersedes" and e.source == new_id for e in edges)


def _replaced(fact: Fact, count: int) -> Fact:
    """The fact as added, saying how many lone surrogates of its input became U+FFFD."""
    return replace(fact, replaced=count) if count else fact


def _beyond(old: tuple[str, ...], new: tuple[str, ...]) -> tuple[str, ...]:
    """The scopes of ``old`` outside ``new``, when the two share one (else none)."""
    if not old or not new or not set(old) & set(new):
        return ()
    return tuple(s for s in old if s not in new)


def _snapshot(state: FactState) -> FactSnapshot:
    return FactSnapshot(state.fact_id, state.text, state.scopes, state.created_at, state.source)
