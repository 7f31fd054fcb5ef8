"""The lifecycle verbs of memory on DocumentGraph: history, the ledger, deletion, forgetting.

:class:`MemoryLifecycle` sits between the reading verbs and ``MemoryVerbs``: it reads
what happened to a fact (``supersession_history``, ``conflicts``) and removes facts,
saying exactly what went (``delete``, ``delete_stale``, ``maybe_forget``).
"""

from __future__ import annotations

from typing import Any

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph.memory_causal import CausalReads
from groundgraph.graph.memory_core import not_found
from groundgraph.graph.memory_read import Scopes
from groundgraph.index.bm25 import LexicalIndex
from groundgraph.index.links import TermLinker
from groundgraph.memory.forget import LAST_SWEEP_SETTING, cutoff, stale, sweep_due
from groundgraph.memory.scopes import ScopeReader, query_scopes
from groundgraph.memory.timeline import parse_as_of
from groundgraph.model import Edge
from groundgraph.model.ids import INDEXED_KINDS, is_fact_id
from groundgraph.store.base import FactSnapshot


class MemoryLifecycle(CausalReads):
    """``supersession_history``, ``conflicts``, ``delete``, ``delete_stale``, ``maybe_forget``."""

    def supersession_history(self, fact: str, scopes: Scopes = None) -> dict[str, Any]:
        """What a fact replaced and what replaced it, and every change in its life."""
        reader = ScopeReader(query_scopes(scopes))
        memory = self._memory()
        found = self._find(fact)
        if found is None or not reader.reads(memory.states[found].scopes):
            raise not_found(fact)
        links = [e for e in self.store.edges_touching([found]) if e.type == "supersedes"]

        def entry(other: str, edge: Edge) -> dict[str, Any] | None:
            state = memory.states.get(other)
            if state is None or not reader.reads(state.scopes):
                return None
            return {
                "factId": other,
                "content": state.text,
                "scopes": list(state.scopes),
                "createdAt": state.created_at,
                "invalidAt": state.invalid_at,
                "rule": edge.label,
                "at": edge.created_at,
            }

        older = [entry(e.target, e) for e in links if e.source == found]
        newer = [entry(e.source, e) for e in links if e.target == found]
        return {
            "fact": self._fact_record(memory.states[found]).to_dict(),
            "supersedes": [x for x in older if x is not None],
            "supersededBy": [x for x in newer if x is not None],
            "events": [
                {"kind": e.kind, "at": e.at, "scopes": list(e.scopes), "by": e.other}
                for e in memory.states[found].events
                if e.other is None
                or (e.other in memory.states and reader.reads(memory.states[e.other].scopes))
            ],
        }

    def conflicts(self, scopes: Scopes = None) -> list[dict[str, Any]]:
        """The contradiction ledger, oldest first: both facts as they were, the rule, when.

        With ``scopes``, only lines whose two facts both lie in readable scopes."""
        reader = ScopeReader(query_scopes(scopes))
        out = []
        for record in self.store.conflict_records():
            if not (reader.reads(record.new.scopes) and reader.reads(record.old.scopes)):
                continue
            out.append(
                {
                    "at": record.at,
                    "rule": record.rule,
                    "detail": record.detail,
                    "resolver": record.resolver,
                    "new": _snapshot_dict(record.new),
                    "old": _snapshot_dict(record.old),
                }
            )
        return out

    # ----------------------------------------------------------------- removal
    def delete(self, fact_or_doc: str, purge_orphans: bool = False) -> dict[str, Any]:
        """Remove a fact (by id or text) or a document, and report every node, edge and
        entity that went. Entities no longer touched by any edge always go;
        ``purge_orphans`` also erases the fact from the contradiction ledger and rebuilds
        the lexical indexes, so not even the vocabulary keeps its words."""
        if not isinstance(purge_orphans, bool):
            raise InputError("purge_orphans must be True or False")
        target = self._find(fact_or_doc)
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
        removed = self.remove_document(target)
        ledger = 0
        if is_fact_id(target):
            ledger = self.store.forget_fact_records([target], ledger=purge_orphans)
        if purge_orphans:
            self._rebuild_indexes()
        nodes = list(removed.nodes) if removed is not None else []
        edges = list(removed.edges) if removed is not None else []
        return {
            "docId": target,
            "fact": is_fact_id(target),
            "nodes": [n for n in nodes if not n.startswith("entity:")],
            "entities": [n for n in nodes if n.startswith("entity:")],
            "edges": [{"from": s, "to": t, "type": k} for s, t, k in edges],
            "ledgerEntries": ledger,
            "purged": purge_orphans,
        }

    def _rebuild_indexes(self) -> None:
        """Fresh lexical indexes from the store (dropping removed nodes' terms and ids)."""
        generation = self.store.generation()
        index = LexicalIndex(self.analyzer, self.bm25)
        for node in self.store.iter_nodes():
            if node.kind in INDEXED_KINDS and node.invalid_at is None:
                index.add(node.node_id, node.doc_id, node.title, node.content)
        self.index = index
        self.linker = TermLinker(index, self.linker.params)
        self._generation = generation
        self._dirty = True
        if self.store.load_blob("bm25") is not None:
            self.store.save_blob("bm25", generation, index.dump())
            self._dirty = False
        self._sync()
        self._memory().rebuild(self.store)

    def delete_stale(self, now: object = None) -> list[dict[str, Any]]:
        """Delete every fact not read for ``forget_after`` days (the graph's setting);
        ``now`` (a datetime or ISO text) stands in for the present. Returns the reports."""
        days = self.memory_settings.forget_after
        if days is None:
            return []
        moment = parse_as_of(now) or self._clock.now()
        memory = self._memory()
        access = self.store.access_times(list(memory.states))
        return [self.delete(f) for f in stale(memory.states, access, cutoff(moment, days))]

    def maybe_forget(self) -> list[dict[str, Any]]:
        """:meth:`delete_stale`, at most once per ``forget_every`` seconds (shared by every
        process on the store); [] when it is not due or forgetting is off."""
        if self.memory_settings.forget_after is None:
            return []
        now = self._clock.now()
        if not sweep_due(
            self.store.get_setting(LAST_SWEEP_SETTING), now, self.memory_settings.forget_every
        ):
            return []
        self.store.set_setting(LAST_SWEEP_SETTING, now)
        return self.delete_stale()


def _snapshot_dict(snapshot: FactSnapshot) -> dict[str, Any]:
    return {
        "factId": snapshot.fact_id,
        "content": snapshot.text,
        "scopes": list(snapshot.scopes),
        "createdAt": snapshot.created_at,
        "source": snapshot.source,
    }
