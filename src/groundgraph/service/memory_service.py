"""``MemoryService``: ReasonGraph's memory service over one DocumentGraph, scoped by key.

Sessions are scopes: a push stores its fact under the session; a read runs as the session
(or, with none, as the caller's scopes). Every method takes the caller's
:class:`~groundgraph.service.access.Access` (default: everything, for a program using
the service in-process) and answers in ReasonGraph's JSON shapes, with every scope list
cut to what the caller may see. A restricted caller's reads are isolated: the walk never
leaves what its key may read, so no other tenant's fact, entity or scope name shows up.

One sync core, one lock: each call runs to its end (a write to its commit) before the next
starts, so the HTTP and MCP sides call it from worker threads and answer a write only once
it is stored.

    service = MemoryService(DocumentGraph("memory.db"))
    service.push("acme/alice", "Heavy rain caused the flood.")
    service.query("flood", session="acme/alice")   # {"facts": ["Heavy rain caused ..."]}
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Literal, TypeVar

from groundgraph.errors import NotFoundError
from groundgraph.graph import DocumentGraph
from groundgraph.model.memory import Fact
from groundgraph.service import inventory
from groundgraph.service import memory_shapes as shapes
from groundgraph.service.access import Access
from groundgraph.service.verb_calls import call_verb
from groundgraph.text import sentences

T = TypeVar("T")
EVERYTHING = Access.everything()
#: ReasonGraph's /facts looks at the first 50 texts.
MAX_FACTS_LOOKUP = 50
_DONE: Any = object()
Direction = Literal["effects", "causes"]


class MemoryService:
    """ReasonGraph's ``MemoryService`` verbs over a DocumentGraph (see the module docstring)."""

    def __init__(self, graph: DocumentGraph | None = None, **graph_options: Any) -> None:
        self.owns_graph = graph is None
        self.graph = graph if graph is not None else DocumentGraph(**graph_options)
        self._lock = threading.Lock()

    # ----------------------------------------------------------------- plumbing
    @contextmanager
    def _locked(self) -> Iterator[DocumentGraph]:
        with self._lock:
            yield self.graph

    def locked(self) -> AbstractContextManager[DocumentGraph]:
        """The graph, held by this service's lock until the block ends."""
        return self._locked()

    def stepwise(self, steps: Iterator[T]) -> Iterator[T]:
        """Each item of ``steps``, each taken under the lock (a long write, such as an
        ingest job, lets other calls run between its steps)."""
        while True:
            with self._lock:
                item = next(steps, _DONE)
            if item is _DONE:
                return
            yield item

    def _run(self, access: Access | None, work: Callable[[DocumentGraph, Access], T]) -> T:
        who = access or EVERYTHING
        with self._locked() as graph:
            return work(graph, who)

    def close(self) -> None:
        if self.owns_graph:
            with self._lock:
                self.graph.close()

    def __enter__(self) -> MemoryService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @staticmethod
    def _visible(graph: DocumentGraph, access: Access, text: str) -> Fact | None:
        """The fact named by ``text`` (id or text), if the caller may see it."""
        try:
            fact = graph.fact(text)
        except NotFoundError:
            return None
        return fact if access.sees(fact.scopes) else None

    # ----------------------------------------------------------------- writes
    def push(
        self,
        session: str,
        text: str,
        resolve_conflicts: bool | None = None,
        split: bool | None = None,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """Remember ``text`` in ``session``: ``{session, entities}`` (``duplicate`` when the
        caller already had it); with ``split``, one fact per sentence (``push_many``)."""
        if split:
            parts = sentences(text) or [text]
            many = self.push_many(session, parts, resolve_conflicts, access=access)
            return {**many, "sentences": parts}

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            who.require_write(session)
            before = self._visible(graph, who, text)
            fact = graph.add_text(text, scopes=[session], resolve_conflicts=resolve_conflicts)
            answer: dict[str, Any] = {"session": session, "entities": list(fact.entities)}
            if fact.status == "merged" or (before is not None and fact.status != "revived"):
                answer["duplicate"] = True
            return answer

        return self._run(access, work)

    def push_many(
        self,
        session: str,
        texts: Sequence[str],
        resolve_conflicts: bool | None = None,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """Remember each text in ``session``: ``{session, count, entities, duplicates}``."""
        entities: list[list[str]] = []
        duplicates = 0
        for text in texts:
            one = self.push(session, text, resolve_conflicts, access=access)
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
        purge_orphans: bool = False,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """Replace ``old_text`` by ``new_text`` in ``session`` (the old fact is retired, its
        history kept; with ``purge_orphans`` it is erased instead, as ``delete`` with
        ``purge_orphans`` erases it). ``superseded`` is False when the caller has no such
        fact; the new one is remembered either way."""

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            who.require_write(session)
            old = self._visible(graph, who, old_text)
            if old is None:
                graph.add_text(new_text, scopes=[session])
                return {"superseded": False, "new": new_text}
            who.require_write_all(old.scopes)
            new = graph.supersede(
                old.fact_id, new_text, scopes=[session], purge_orphans=purge_orphans
            )
            replaced = purge_orphans or old.fact_id in new.superseded
            return {"superseded": replaced, "new": new.text}

        return self._run(access, work)

    def delete(
        self, text: str, purge_orphans: bool = False, *, access: Access | None = None
    ) -> dict[str, Any]:
        """Delete the caller's fact named by ``text`` (id or exact text): ``{deleted}``."""

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            who.require_write()
            fact = self._visible(graph, who, text)
            if fact is None:
                return {"deleted": False}
            who.require_write_all(fact.scopes)
            graph.delete(fact.fact_id, purge_orphans=purge_orphans)
            return {"deleted": True}

        return self._run(access, work)

    def delete_session(self, session: str, *, access: Access | None = None) -> dict[str, Any]:
        """Delete every fact that lives only in ``session`` (or below it): ``{deleted}``.
        Facts shared with other scopes stay (``kept`` counts them)."""

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            who.require_write(session)
            inside = Access((session,), True, who.key)
            deleted = kept = 0
            for fact in inventory.visible_facts(graph, inside):
                if not any(inside.names(s) for s in fact.scopes):
                    continue  # a parent's fact the session reads, not its own
                if all(inside.names(s) for s in fact.scopes):
                    graph.delete(fact.fact_id)
                    deleted += 1
                else:
                    kept += 1
            return {"session": session, "deleted": deleted, "kept": kept}

        return self._run(access, work)

    def forget(self, *, access: Access | None = None) -> dict[str, Any]:
        """Delete the caller's facts nobody read for ``forget_after`` days: ``{deleted}``."""

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

        return self._run(access, work)

    # ----------------------------------------------------------------- reads
    def query(
        self,
        query: str,
        session: str | None = None,
        hops: int = 4,
        top_k: int = 5,
        recency_weight: float = 0.0,
        isolate: bool | None = None,
        detailed: bool = False,
        synthesize: bool = False,
        as_of: str | None = None,
        include_superseded: bool = False,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """``{facts: [text]}``; ``detailed``: each fact with score, time, scopes and how it
        was found; ``synthesize``: also ``answer`` (extractive unless the graph has a
        synthesizer)."""

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            reads = who.read_options(
                session, isolate, as_of=as_of, include_superseded=include_superseded
            )
            hits = graph.query_detailed(
                query, top_k=top_k, hops=hops, recency_weight=recency_weight, **reads
            )
            facts: list[Any] = (
                [shapes.detailed_fact(h) for h in hits] if detailed else [h.content for h in hits]
            )
            answer: dict[str, Any] = {"facts": facts}
            if synthesize:
                answer["answer"] = graph.answer(query, top_k=top_k, hops=hops, **reads).answer
            return shapes.redacted(answer, who)

        return self._run(access, work)

    def discover(
        self,
        query: str,
        session: str | None = None,
        hops: int = 4,
        top_k: int = 5,
        max_results: int = 10,
        isolate: bool | None = None,
        synthesize: bool = False,
        include_superseded: bool = False,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """``{connections: [{content, scopes, cross_session, causes, path}]}``."""

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            reads = who.read_options(session, isolate, include_superseded=include_superseded)
            found = graph.discover(query, top_k=top_k, hops=hops, max_results=max_results, **reads)
            answer: dict[str, Any] = {"connections": [shapes.connection(c) for c in found]}
            if synthesize:
                answer["answer"] = graph.answer(query, top_k=top_k, hops=hops, **reads).answer
            return shapes.redacted(answer, who)

        return self._run(access, work)

    def answer(
        self,
        query: str,
        session: str | None = None,
        hops: int = 4,
        top_k: int = 5,
        *,
        access: Access | None = None,
    ) -> str:
        """An answer in words from the recalled facts (extractive unless the graph has a
        synthesizer)."""

        def work(graph: DocumentGraph, who: Access) -> str:
            reads = who.read_options(session, None)
            return graph.answer(query, top_k=top_k, hops=hops, **reads).answer

        return self._run(access, work)

    def history(self, text: str, *, access: Access | None = None) -> dict[str, Any]:
        """``{supersedes: [text], superseded_by: [text]}`` of the caller's fact."""

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            fact = self._visible(graph, who, text)
            if fact is None:
                return {"supersedes": [], "superseded_by": []}
            # Read as the fact's own scopes the key may name (a sub-session's fact too).
            own = [s for s in fact.scopes if who.names(s)] or who.scopes
            scopes = None if who.unrestricted else list(own or ())
            found = graph.supersession_history(text, scopes=scopes)
            return {
                "supersedes": [link.content for link in found.supersedes if who.sees(link.scopes)],
                "superseded_by": [
                    link.content for link in found.superseded_by if who.sees(link.scopes)
                ],
            }

        return self._run(access, work)

    def trace(
        self,
        content: str,
        direction: Direction = "effects",
        session: str | None = None,
        max_depth: int = 6,
        isolate: bool | None = None,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """``{origin, chain: [{cause, effect, fact, depth, scopes, cross_session}], terminals}``."""

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            reads = who.read_options(session, isolate)
            verb = graph.trace_causes if direction == "causes" else graph.trace_effects
            return shapes.redacted(shapes.trace(verb(content, max_depth, **reads)), who)

        return self._run(access, work)

    def causal_chain(
        self,
        from_content: str,
        to_content: str,
        session: str | None = None,
        max_depth: int = 6,
        isolate: bool | None = None,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """``{from, to, chain: [hop] | null}``."""

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            reads = who.read_options(session, isolate)
            chain = graph.causal_chain(from_content, to_content, max_depth, **reads)
            hops = None if chain is None else [shapes.hop(h) for h in chain]
            return shapes.redacted({"from": from_content, "to": to_content, "chain": hops}, who)

        return self._run(access, work)

    def what_if(
        self,
        content: str,
        origin: str | None = None,
        direction: Direction = "effects",
        session: str | None = None,
        max_depth: int = 6,
        isolate: bool | None = None,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """``{pruned, origin, pruned_edges, collapsed, survived}`` (nothing is changed)."""

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            reads = who.read_options(session, isolate)
            found = graph.what_if(content, origin, direction, max_depth, **reads)
            return shapes.redacted(shapes.what_if(found), who)

        return self._run(access, work)

    def list_sessions(self, *, access: Access | None = None) -> list[str]:
        """The sessions (scope names) of the caller's facts."""
        return self._run(access, inventory.sessions)

    def stats(self, *, access: Access | None = None) -> dict[str, int]:
        """``{facts, entities, edges, sessions, pending}`` over what the caller may see."""
        return self._run(access, inventory.counts)

    def fact_page(
        self,
        offset: int = 0,
        limit: int = 50,
        as_of: str | None = None,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """A page of the caller's facts, oldest first, as held at ``as_of`` (the explorer's)."""
        return self._run(access, lambda g, who: inventory.fact_page(g, who, offset, limit, as_of))

    def facts(self, texts: Sequence[str], *, access: Access | None = None) -> dict[str, Any]:
        """For each text (the first 50): is it stored, in which sessions, with what."""

        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            rows = [
                shapes.fact_row(text, self._visible(graph, who, text), who)
                for text in texts[:MAX_FACTS_LOOKUP]
            ]
            return {"facts": rows, "pending": 0}

        return self._run(access, work)

    # ----------------------------------------------------------------- verbs
    def verb(self, name: str, arguments: Mapping[str, Any], *, access: Access | None = None) -> Any:
        """Run a verb of the verb table with JSON arguments; its result's JSON form."""
        return self._run(access, lambda graph, who: call_verb(graph, name, arguments, who))
