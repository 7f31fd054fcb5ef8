"""``MemoryWrites``: the memory verbs that change facts (push, supersede, delete, forget).

Each checks the caller's write rights on the session, and on every scope of a fact it
touches, before it changes anything. :class:`~groundgraph.service.memory_service.MemoryService`
holds one and delegates its write verbs to it; the defaults and the contract of each verb
are written there, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from groundgraph.graph import DocumentGraph
from groundgraph.service import inventory
from groundgraph.service.access import Access
from groundgraph.service.locked_graph import LockedGraph
from groundgraph.text import sentences


class MemoryWrites:
    """ReasonGraph's write verbs over the shared graph, scoped by the caller's access."""

    def __init__(self, core: LockedGraph) -> None:
        self.core = core

    def push(
        self,
        session: str,
        text: str,
        *,
        resolve_conflicts: bool | None,
        split: bool | None,
        access: Access | None,
    ) -> dict[str, Any]:
        if split:
            parts = sentences(text) or [text]
            many = self.push_many(
                session, parts, resolve_conflicts=resolve_conflicts, access=access
            )
            return {**many, "sentences": parts}

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            who.require_write(session)
            before = inventory.visible_fact(graph, who, text)
            fact = graph.add_text(text, scopes=[session], resolve_conflicts=resolve_conflicts)
            answer: dict[str, Any] = {"session": session, "entities": list(fact.entities)}
            if fact.status == "merged" or (before is not None and fact.status != "revived"):
                answer["duplicate"] = True
            return answer

        return self.core.run(access, work)

    def push_many(
        self,
        session: str,
        texts: Sequence[str],
        *,
        resolve_conflicts: bool | None,
        access: Access | None,
    ) -> dict[str, Any]:
        entities: list[list[str]] = []
        duplicates = 0
        for text in texts:
            one = self.push(
                session, text, resolve_conflicts=resolve_conflicts, split=False, access=access
            )
            entities.append(one["entities"])
            duplicates += bool(one.get("duplicate"))
        return {
            "session": session,
            "count": len(entities),
            "entities": entities,
            "duplicates": duplicates,
        }

    def supersede(
        self,
        session: str,
        old_text: str,
        new_text: str,
        *,
        purge_orphans: bool,
        access: Access | None,
    ) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            who.require_write(session)
            old = inventory.visible_fact(graph, who, old_text)
            if old is None:
                graph.add_text(new_text, scopes=[session])
                return {"superseded": False, "new": new_text}
            shared = _shared_with_others(who, old.scopes)
            if shared:
                # The same sentence lives in scopes this key may not write: it leaves the
                # key's scopes only, and the answer is the one an unshared fact gets.
                graph.delete(old.fact_id, scopes=shared)
                added = graph.add_text(new_text, scopes=[session], resolve_conflicts=False)
                return {"superseded": True, "new": added.text}
            who.require_write_all(old.scopes)
            new = graph.supersede(
                old.fact_id, new_text, scopes=[session], purge_orphans=purge_orphans
            )
            replaced = purge_orphans or old.fact_id in new.superseded
            return {"superseded": replaced, "new": new.text}

        return self.core.run(access, work)

    def delete(self, text: str, *, purge_orphans: bool, access: Access | None) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            who.require_write()
            fact = inventory.visible_fact(graph, who, text)
            if fact is None:
                return {"deleted": False}
            shared = _shared_with_others(who, fact.scopes)
            if shared:
                graph.delete(fact.fact_id, scopes=shared)
                return {"deleted": True}
            who.require_write_all(fact.scopes)
            graph.delete(fact.fact_id, purge_orphans=purge_orphans)
            return {"deleted": True}

        return self.core.run(access, work)

    def delete_session(self, session: str, *, access: Access | None) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            who.require_write(session)
            inside = Access((session,), True, who.key)
            deleted = 0
            for fact in inventory.visible_facts(graph, inside):
                own = [s for s in fact.scopes if inside.names(s)]
                if not own:
                    continue  # a parent's fact the session reads, not its own
                # It leaves the session's scopes; a fact held by no other scope goes.
                graph.delete(fact.fact_id, scopes=own)
                deleted += 1
            return {"session": session, "deleted": deleted}

        return self.core.run(access, work)

    def forget(self, *, access: Access | None) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            who.require_write()
            days = graph.memory_settings.forget_after
            if days is None:
                return {"deleted": 0}
            if who.unrestricted:
                return {"deleted": len(graph.delete_stale())}
            own = [
                f
                for f in inventory.visible_facts(graph, who)
                if all(who.names(s) for s in f.scopes)
            ]
            stale = inventory.stale_facts(graph, own, days)
            for fact_id in stale:
                graph.delete(fact_id)
            return {"deleted": len(stale)}

        return self.core.run(access, work)


def _shared_with_others(who: Access, scopes: Sequence[str]) -> list[str]:
    """The scopes of a fact this key may write, when the fact also lives in scopes it may
    not (the same sentence another tenant holds); else none."""
    if who.unrestricted:
        return []
    own = [s for s in scopes if who.names(s)]
    return own if own and len(own) < len(scopes) else []
