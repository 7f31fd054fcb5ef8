"""Removing memory facts: deletion and forgetting, each saying exactly what went
(``delete``, ``delete_stale``, ``maybe_forget``). What happened to a fact is read in
``graph.memory_history``.
"""

from __future__ import annotations

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph.memory_core import MemoryContext, Scopes
from groundgraph.graph.writer import DocumentWriter
from groundgraph.memory.forget import LAST_SWEEP_SETTING, cutoff, stale, sweep_due
from groundgraph.memory.scopes import check_scopes
from groundgraph.memory.timeline import WITHDRAWN, parse_as_of
from groundgraph.model.ids import is_entity_id, is_fact_id
from groundgraph.model.memory import (
    PurgeReport,
    RemovedEdge,
)
from groundgraph.model.store_records import FactEvent, FactUpdate
from groundgraph.model.valid_text import has_surrogates


class MemoryLifecycle:
    """``supersession_history``, ``conflicts``, ``delete``, ``delete_stale``, ``maybe_forget``."""

    def __init__(self, context: MemoryContext, writer: DocumentWriter) -> None:
        self.context = context
        self.store = context.store
        self.writer = writer

    # ----------------------------------------------------------------- removal
    def delete(
        self, fact_or_doc: str, purge_orphans: bool = False, *, scopes: Scopes = None
    ) -> PurgeReport:
        """Remove a fact or a document and report every node, edge and entity that went.

        With ``scopes``, a fact leaves only those scopes (``withdrawn`` lists them) and stays
        in its others; it goes entirely when no scope of its own would be left.
        """
        if not isinstance(purge_orphans, bool):
            raise InputError("purge_orphans must be True or False")
        if scopes is not None:
            left = self._withdraw(fact_or_doc, check_scopes(scopes))
            if left is not None:
                return left
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

    def _withdraw(self, fact: str, scopes: tuple[str, ...]) -> PurgeReport | None:
        """Take ``scopes`` from a fact that lives in others too (the report), or None
        when the fact should go entirely."""
        found = self.context.find(fact)
        if found is None:
            raise NotFoundError(
                f"no fact {str(fact)[:80]!r} to delete from scopes: pass a fact id or its text"
            )
        state = self.context.memory().states[found]
        gone = tuple(s for s in state.scopes if s in scopes)
        if not gone:
            raise NotFoundError(
                f"the fact {found} is not in the scopes {', '.join(scopes)[:200]}: "
                "name the scopes it lives in"
            )
        kept = tuple(s for s in state.scopes if s not in gone)
        if not kept:
            return None
        stamp = self.context.clock.now()
        event = FactEvent(found, WITHDRAWN, stamp, gone)
        self.store.ledger.update_facts([FactUpdate(found, kept, state.invalid_at, (event,))])
        self.context.indexes.sync()
        return PurgeReport(found, True, (), (), (), 0, False, gone)

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
