"""Removing memory facts: deletion and forgetting, each saying exactly what went
(``delete``, ``delete_stale``, ``maybe_forget``). What happened to a fact is read in
``graph.memory_history``.
"""

from __future__ import annotations

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph.memory_core import MemoryContext
from groundgraph.graph.writer import DocumentWriter
from groundgraph.memory.forget import LAST_SWEEP_SETTING, cutoff, stale, sweep_due
from groundgraph.memory.timeline import parse_as_of
from groundgraph.model.ids import is_entity_id, is_fact_id
from groundgraph.model.memory import (
    PurgeReport,
    RemovedEdge,
)
from groundgraph.model.valid_text import has_surrogates


class MemoryLifecycle:
    """``supersession_history``, ``conflicts``, ``delete``, ``delete_stale``, ``maybe_forget``."""

    def __init__(self, context: MemoryContext, writer: DocumentWriter) -> None:
        self.context = context
        self.store = context.store
        self.writer = writer

    # ----------------------------------------------------------------- removal
    def delete(self, fact_or_doc: str, purge_orphans: bool = False) -> PurgeReport:
        """Remove a fact or a document and report every node, edge and entity that went."""
        if not isinstance(purge_orphans, bool):
            raise InputError("purge_orphans must be True or False")
        target = self.context.find(fact_or_doc)
        if (
            target is None
            and isinstance(fact_or_doc, str)
            and 0 < len(fact_or_doc) <= 512
            and not has_surrogates(fact_or_doc)
            and self.store.reads.get_document(fact_or_doc) is not None
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
            ledger = self.store.ledger.forget_fact_records([target], ledger=purge_orphans)
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
        """Delete every fact not read for ``forget_after`` days; the reports."""
        days = self.context.settings.forget_after
        if days is None:
            return []
        moment = parse_as_of(now) or self.context.clock.now()
        memory = self.context.memory()
        access = self.store.ledger.access_times(list(memory.states))
        return [self.delete(f) for f in stale(memory.states, access, cutoff(moment, days))]

    def maybe_forget(self) -> list[PurgeReport]:
        """:meth:`delete_stale`, at most once per ``forget_every`` seconds; never when
        ``forget_every`` is None."""
        every = self.context.settings.forget_every
        if self.context.settings.forget_after is None or every is None:
            return []
        now = self.context.clock.now()
        if not sweep_due(self.store.settings.get_setting(LAST_SWEEP_SETTING), now, every):
            return []
        self.store.settings.set_setting(LAST_SWEEP_SETTING, now)
        return self.delete_stale()
