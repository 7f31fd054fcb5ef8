"""What happened to a memory fact, read-only: its supersession history and the ledger.

Both take ``scopes``: a fact or a ledger line outside what they may read is not shown (and
a hidden fact is reported as missing, like one that does not exist), and the scopes shown
are only those the reader may name (``ScopeReader.shown``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from groundgraph.graph.memory_core import MemoryContext, Scopes, not_found
from groundgraph.memory.scopes import ScopeReader, query_scopes
from groundgraph.memory.timeline import SCOPED, WITHDRAWN, FactState, seen_since
from groundgraph.model import Edge
from groundgraph.model.memory import (
    ConflictLine,
    ConflictSide,
    FactChange,
    FactHistory,
    FactLink,
)
from groundgraph.model.store_records import FactEvent, FactSnapshot


class MemoryHistory:
    """``supersession_history`` and ``conflicts``; never writes."""

    def __init__(self, context: MemoryContext) -> None:
        self.context = context
        self.store = context.store

    def supersession_history(self, fact: str, scopes: Scopes = None) -> FactHistory:
        """What a fact replaced and what replaced it, and every change in its life."""
        reader = ScopeReader(query_scopes(scopes))
        memory = self.context.memory()
        found = self.context.find(fact)
        if found is None or not reader.reads(memory.states[found].scopes):
            raise not_found(fact)
        links = [e for e in self.store.reads.edges_touching([found]) if e.type == "supersedes"]

        def entry(other: str, edge: Edge) -> FactLink | None:
            state = memory.states.get(other)
            if state is None or not reader.reads(state.scopes):
                return None
            return FactLink(
                other,
                state.text,
                reader.shown(state.scopes),
                seen_since(state, reader.reads),
                state.invalid_at,
                edge.label,
                edge.created_at,
            )

        older = [entry(e.target, e) for e in links if e.source == found]
        newer = [entry(e.source, e) for e in links if e.target == found]
        state = memory.states[found]
        record = self.context.fact_record(state)
        since = seen_since(state, reader.reads)
        return FactHistory(
            replace(record, scopes=reader.shown(record.scopes), created_at=since),
            tuple(x for x in older if x is not None),
            tuple(x for x in newer if x is not None),
            tuple(
                FactChange(e.kind, e.at, reader.shown(e.scopes), e.other)
                for e in memory.states[found].events
                if _shown(e, reader, memory.states) and not (e.kind == SCOPED and e.at <= since)
            ),
        )

    def conflicts(self, scopes: Scopes = None) -> list[ConflictLine]:
        """The contradiction ledger, oldest first: both facts as they were, the rule, when."""
        reader = ScopeReader(query_scopes(scopes))
        states = self.context.memory().states if scopes is not None else {}
        out = []
        for record in self.store.ledger.conflict_records():
            if not (reader.reads(record.new.scopes) and reader.reads(record.old.scopes)):
                continue
            out.append(
                ConflictLine(
                    record.at,
                    record.rule,
                    record.detail,
                    record.resolver,
                    _side(record.new, reader, states),
                    _side(record.old, reader, states),
                )
            )
        return out


def _shown(event: FactEvent, reader: ScopeReader, states: Mapping[str, FactState]) -> bool:
    """Whether the reader may see an event: a scope change only when it may name one of
    its scopes (another tenant adding or dropping the same sentence stays unseen), a
    retirement only when it may read the fact that did it."""
    if event.kind in (SCOPED, WITHDRAWN) and not reader.shown(event.scopes):
        return False
    other = event.other
    return other is None or (other in states and reader.reads(states[other].scopes))


def _side(
    snapshot: FactSnapshot, reader: ScopeReader, states: Mapping[str, FactState]
) -> ConflictSide:
    """One fact of a ledger line; a scoped reader is shown when it first could read it."""
    state = states.get(snapshot.fact_id)
    return ConflictSide(
        snapshot.fact_id,
        snapshot.text,
        reader.shown(snapshot.scopes),
        snapshot.created_at if state is None else seen_since(state, reader.reads),
        snapshot.source,
    )
