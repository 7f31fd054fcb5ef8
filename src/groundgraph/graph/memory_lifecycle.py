"""The lifecycle verbs of memory on DocumentGraph: history, the ledger, deletion, forgetting.

:class:`MemoryLifecycle` reads what happened to a fact (``supersession_history``,
``conflicts``) and removes facts, saying exactly what went (``delete``, ``delete_stale``,
``maybe_forget``).
"""

from __future__ import annotations

from collections.abc import Iterable

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph.memory_core import MemoryContext, not_found
from groundgraph.graph.writer import DocumentWriter
from groundgraph.memory.forget import LAST_SWEEP_SETTING, cutoff, stale, sweep_due
from groundgraph.memory.scopes import ScopeReader, query_scopes
from groundgraph.memory.timeline import parse_as_of
from groundgraph.model import Edge
from groundgraph.model.ids import is_entity_id, is_fact_id
from groundgraph.model.memory import (
    ConflictLine,
    ConflictSide,
    FactChange,
    FactHistory,
    FactLink,
    PurgeReport,
    RemovedEdge,
)
from groundgraph.store.base import FactSnapshot

Scopes = str | Iterable[str] | None


class MemoryLifecycle:
    """``supersession_history``, ``conflicts``, ``delete``, ``delete_stale``, ``maybe_forget``."""

    def __init__(self, context: MemoryContext, writer: DocumentWriter) -> None:
        self.context = context
        self.store = context.store
        self.writer = writer

    def supersession_history(self, fact: str, scopes: Scopes = None) -> FactHistory:
        """What a fact replaced and what replaced it, and every change in its life."""
        reader = ScopeReader(query_scopes(scopes))
        memory = self.context.memory()
        found = self.context.find(fact)
        if found is None or not reader.reads(memory.states[found].scopes):
            raise not_found(fact)
        links = [e for e in self.store.edges_touching([found]) if e.type == "supersedes"]

        def entry(other: str, edge: Edge) -> FactLink | None:
            state = memory.states.get(other)
            if state is None or not reader.reads(state.scopes):
                return None
            return FactLink(
                other,
                state.text,
                state.scopes,
                state.created_at,
                state.invalid_at,
                edge.label,
                edge.created_at,
            )

        older = [entry(e.target, e) for e in links if e.source == found]
        newer = [entry(e.source, e) for e in links if e.target == found]
        return FactHistory(
            self.context.fact_record(memory.states[found]),
            tuple(x for x in older if x is not None),
            tuple(x for x in newer if x is not None),
            tuple(
                FactChange(e.kind, e.at, e.scopes, e.other)
                for e in memory.states[found].events
                if e.other is None
                or (e.other in memory.states and reader.reads(memory.states[e.other].scopes))
            ),
        )

    def conflicts(self, scopes: Scopes = None) -> list[ConflictLine]:
        """The contradiction ledger, oldest first: both facts as they were, the rule, when.

        With ``scopes``, only lines whose two facts both lie in readable scopes."""
        reader = ScopeReader(query_scopes(scopes))
        out = []
        for record in self.store.conflict_records():
            if not (reader.reads(record.new.scopes) and reader.reads(record.old.scopes)):
                continue
            out.append(
                ConflictLine(
                    record.at,
                    record.rule,
                    record.detail,
                    record.resolver,
                    _side(record.new),
                    _side(record.old),
                )
            )
        return out

    # ----------------------------------------------------------------- removal
    def delete(self, fact_or_doc: str, purge_orphans: bool = False) -> PurgeReport:
        """Remove a fact (by id or text) or a document, and report every node, edge and
        entity that went. Entities no longer touched by any edge always go;
        ``purge_orphans`` also erases the fact from the contradiction ledger and rebuilds
        the lexical indexes, so not even the vocabulary keeps its words."""
        if not isinstance(purge_orphans, bool):
            raise InputError("purge_orphans must be True or False")
        target = self.context.find(fact_or_doc)
        if (
            target is None
            and isinstance(fact_or_doc, str)
            and 0 < len(fact_or_doc) <= 512
            and self.store.get_document(fact_or_doc) is not None
        ):
            target = fact_or_doc
        if target is None:
            raise NotFoundError(
                f"nothing named {str(fact_or_doc)[:80]!r} to delete: pass a fact id, a fact's "
                "text or a document id"
            )
        removed = self.writer.remove_document(target)
        ledger = 0
        if is_fact_id(target):
            ledger = self.store.forget_fact_records([target], ledger=purge_orphans)
        if purge_orphans:
            self.context.indexes.purge()
        nodes = list(removed.nodes) if removed is not None else []
        edges = list(removed.edges) if removed is not None else []
        return PurgeReport(
            target,
            is_fact_id(target),
            tuple(n for n in nodes if not is_entity_id(n)),
            tuple(n for n in nodes if is_entity_id(n)),
            tuple(RemovedEdge(s, t, k) for s, t, k in edges),
            ledger,
            purge_orphans,
        )

    def delete_stale(self, now: object = None) -> list[PurgeReport]:
        """Delete every fact not read for ``forget_after`` days (the graph's setting);
        ``now`` (a datetime or ISO text) stands in for the present. Returns the reports."""
        days = self.context.settings.forget_after
        if days is None:
            return []
        moment = parse_as_of(now) or self.context.clock.now()
        memory = self.context.memory()
        access = self.store.access_times(list(memory.states))
        return [self.delete(f) for f in stale(memory.states, access, cutoff(moment, days))]

    def maybe_forget(self) -> list[PurgeReport]:
        """:meth:`delete_stale`, at most once per ``forget_every`` seconds (shared by every
        process on the store); [] when it is not due or forgetting is off."""
        if self.context.settings.forget_after is None:
            return []
        now = self.context.clock.now()
        if not sweep_due(
            self.store.get_setting(LAST_SWEEP_SETTING), now, self.context.settings.forget_every
        ):
            return []
        self.store.set_setting(LAST_SWEEP_SETTING, now)
        return self.delete_stale()


def _side(snapshot: FactSnapshot) -> ConflictSide:
    return ConflictSide(
        snapshot.fact_id, snapshot.text, snapshot.scopes, snapshot.created_at, snapshot.source
    )
