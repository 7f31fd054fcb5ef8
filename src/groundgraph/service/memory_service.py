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

The service is a facade over the parts it holds, one line per verb; each verb's defaults
and contract are written here, once:

- ``core``, a :class:`~groundgraph.service.locked_graph.LockedGraph`: the graph and its lock;
- ``writes``, a :class:`~groundgraph.service.memory_writes.MemoryWrites`: push, supersede,
  delete, forget;
- ``reads``, a :class:`~groundgraph.service.memory_reads.MemoryReads`: query, discover,
  answer, history, trace, causal chain, what-if, sessions, stats, facts.

    service = MemoryService(DocumentGraph("memory.db"))
    service.push("acme/alice", "Heavy rain caused the flood.")
    service.query("flood", session="acme/alice")   # {"facts": ["Heavy rain caused ..."]}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from groundgraph.graph import DocumentGraph
from groundgraph.service.access import Access
from groundgraph.service.locked_graph import EVERYTHING, LockedGraph
from groundgraph.service.memory_reads import MAX_FACTS_LOOKUP, Direction, MemoryReads
from groundgraph.service.memory_writes import MemoryWrites
from groundgraph.service.verb_calls import call_verb

__all__ = ["EVERYTHING", "MAX_FACTS_LOOKUP", "Direction", "MemoryService"]

T = TypeVar("T")


class MemoryService:
    """ReasonGraph's ``MemoryService`` verbs over a DocumentGraph (see the module docstring)."""

    def __init__(self, graph: DocumentGraph | None = None, **graph_options: Any) -> None:
        self.core = LockedGraph(graph, **graph_options)
        self.graph = self.core.graph
        self.writes = MemoryWrites(self.core)
        self.reads = MemoryReads(self.core)

    @property
    def owns_graph(self) -> bool:
        """Whether the service opened its graph (and so closes it)."""
        return self.core.owns_graph

    def locked(self) -> AbstractContextManager[DocumentGraph]:
        """The graph, held by this service's lock until the block ends."""
        return self.core.locked()

    def stepwise(self, steps: Iterator[T]) -> Iterator[T]:
        """Each item of ``steps``, each taken under the lock (a long write, such as an
        ingest job, lets other calls run between its steps)."""
        return self.core.stepwise(steps)

    def close(self) -> None:
        self.core.close()

    def __enter__(self) -> MemoryService:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # The writes.
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
        return self.writes.push(
            session, text, resolve_conflicts=resolve_conflicts, split=split, access=access
        )

    def push_many(
        self,
        session: str,
        texts: Sequence[str],
        resolve_conflicts: bool | None = None,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """Remember each text in ``session``: ``{session, count, entities, duplicates}``."""
        return self.writes.push_many(
            session, texts, resolve_conflicts=resolve_conflicts, access=access
        )

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
        return self.writes.supersede(
            session, old_text, new_text, purge_orphans=purge_orphans, access=access
        )

    def delete(
        self, text: str, purge_orphans: bool = False, *, access: Access | None = None
    ) -> dict[str, Any]:
        """Delete the caller's fact named by ``text`` (id or exact text): ``{deleted}``. A
        fact another tenant holds too (the same sentence) leaves the caller's scopes only."""
        return self.writes.delete(text, purge_orphans=purge_orphans, access=access)

    def delete_session(self, session: str, *, access: Access | None = None) -> dict[str, Any]:
        """Delete the facts of ``session`` (and below it): ``{deleted}``. A fact that also
        lives in other scopes leaves the session and stays in those."""
        return self.writes.delete_session(session, access=access)

    def forget(self, *, access: Access | None = None) -> dict[str, Any]:
        """Delete the caller's facts nobody read for ``forget_after`` days: ``{deleted}``."""
        return self.writes.forget(access=access)

    # The reads.
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
        return self.reads.query(
            query,
            session=session,
            hops=hops,
            top_k=top_k,
            recency_weight=recency_weight,
            isolate=isolate,
            detailed=detailed,
            synthesize=synthesize,
            as_of=as_of,
            include_superseded=include_superseded,
            access=access,
        )

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
        return self.reads.discover(
            query,
            session=session,
            hops=hops,
            top_k=top_k,
            max_results=max_results,
            isolate=isolate,
            synthesize=synthesize,
            include_superseded=include_superseded,
            access=access,
        )

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
        return self.reads.answer(query, session=session, hops=hops, top_k=top_k, access=access)

    def history(self, text: str, *, access: Access | None = None) -> dict[str, Any]:
        """``{supersedes: [text], superseded_by: [text]}`` of the caller's fact."""
        return self.reads.history(text, access=access)

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
        return self.reads.trace(
            content,
            direction=direction,
            session=session,
            max_depth=max_depth,
            isolate=isolate,
            access=access,
        )

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
        return self.reads.causal_chain(
            from_content,
            to_content,
            session=session,
            max_depth=max_depth,
            isolate=isolate,
            access=access,
        )

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
        return self.reads.what_if(
            content,
            origin=origin,
            direction=direction,
            session=session,
            max_depth=max_depth,
            isolate=isolate,
            access=access,
        )

    def list_sessions(self, *, access: Access | None = None) -> list[str]:
        """The sessions (scope names) of the caller's facts."""
        return self.reads.list_sessions(access=access)

    def document_page(
        self,
        cursor: str | None = None,
        limit: int = 100,
        scopes: Sequence[str] | None = None,
        facts: bool | None = None,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """``{documents, total, next_cursor}``: a page of the documents the caller (or
        ``scopes``, each of which its key must allow) may read, oldest first; ``facts``
        False leaves memory facts out, True lists them alone."""
        return self.reads.document_page(
            scopes=scopes, facts=facts, cursor=cursor, limit=limit, access=access
        )

    def session_page(
        self, cursor: str | None = None, limit: int = 100, *, access: Access | None = None
    ) -> dict[str, Any]:
        """``{sessions, next_cursor}``: up to ``limit`` of the caller's sessions, sorted,
        after the page whose ``next_cursor`` is ``cursor``."""
        return self.reads.session_page(cursor=cursor, limit=limit, access=access)

    def stats(self, *, access: Access | None = None) -> dict[str, int]:
        """``{facts, entities, edges, sessions, pending}`` over what the caller may see."""
        return self.reads.stats(access=access)

    def fact_page(
        self,
        offset: int = 0,
        limit: int = 50,
        as_of: str | None = None,
        cursor: str | None = None,
        *,
        access: Access | None = None,
    ) -> dict[str, Any]:
        """A page of the caller's facts, oldest first, as held at ``as_of`` (the explorer's),
        after the page whose ``next_cursor`` is ``cursor``, ``offset`` more skipped."""
        return self.reads.fact_page(
            offset=offset, limit=limit, as_of=as_of, cursor=cursor, access=access
        )

    def facts(self, texts: Sequence[str], *, access: Access | None = None) -> dict[str, Any]:
        """For each text (the first 50): is it stored, in which sessions, with what."""
        return self.reads.facts(texts, access=access)

    # The verb table.
    def verb(self, name: str, arguments: Mapping[str, Any], *, access: Access | None = None) -> Any:
        """Run a verb of the verb table with JSON arguments; its result's JSON form."""
        return self.core.run(access, lambda graph, who: call_verb(graph, name, arguments, who))
