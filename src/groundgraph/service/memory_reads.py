"""``MemoryReads``: the memory verbs that only read (query, discover, trace, history, ...).

Each reads as the session (or, with none, as the caller's scopes) and cuts every scope
list in its answer to what the caller may see: a restricted caller's walk never leaves
what its key may read. :class:`~groundgraph.service.memory_service.MemoryService` holds
one and delegates its read verbs to it; the defaults and the contract of each verb are
written there, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from groundgraph.graph import DocumentGraph
from groundgraph.service import document_listing, inventory
from groundgraph.service import memory_shapes as shapes
from groundgraph.service.access import Access
from groundgraph.service.locked_graph import LockedGraph

#: ReasonGraph's /facts looks at the first 50 texts.
MAX_FACTS_LOOKUP = 50
Direction = Literal["effects", "causes"]


class MemoryReads:
    """ReasonGraph's read verbs over the shared graph, scoped by the caller's access."""

    def __init__(self, core: LockedGraph) -> None:
        self.core = core

    def query(
        self,
        query: str,
        *,
        session: str | None,
        hops: int,
        top_k: int,
        recency_weight: float,
        isolate: bool | None,
        detailed: bool,
        synthesize: bool,
        as_of: str | None,
        include_superseded: bool,
        access: Access | None,
    ) -> dict[str, Any]:
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

        return self.core.run(access, work)

    def discover(
        self,
        query: str,
        *,
        session: str | None,
        hops: int,
        top_k: int,
        max_results: int,
        isolate: bool | None,
        synthesize: bool,
        include_superseded: bool,
        access: Access | None,
    ) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            reads = who.read_options(session, isolate, include_superseded=include_superseded)
            found = graph.discover(query, top_k=top_k, hops=hops, max_results=max_results, **reads)
            answer: dict[str, Any] = {"connections": [shapes.connection(c) for c in found]}
            if synthesize:
                answer["answer"] = graph.answer(query, top_k=top_k, hops=hops, **reads).answer
            return shapes.redacted(answer, who)

        return self.core.run(access, work)

    def answer(
        self, query: str, *, session: str | None, hops: int, top_k: int, access: Access | None
    ) -> str:
        def work(graph: DocumentGraph, who: Access) -> str:
            reads = who.read_options(session, None)
            return graph.answer(query, top_k=top_k, hops=hops, **reads).answer

        return self.core.run(access, work)

    def history(self, text: str, *, access: Access | None) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            fact = inventory.visible_fact(graph, who, text)
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

        return self.core.run(access, work)

    def trace(
        self,
        content: str,
        *,
        direction: Direction,
        session: str | None,
        max_depth: int,
        isolate: bool | None,
        access: Access | None,
    ) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            reads = who.read_options(session, isolate)
            verb = graph.trace_causes if direction == "causes" else graph.trace_effects
            return shapes.redacted(shapes.trace(verb(content, max_depth, **reads)), who)

        return self.core.run(access, work)

    def causal_chain(
        self,
        from_content: str,
        to_content: str,
        *,
        session: str | None,
        max_depth: int,
        isolate: bool | None,
        access: Access | None,
    ) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            reads = who.read_options(session, isolate)
            chain = graph.causal_chain(from_content, to_content, max_depth, **reads)
            hops = None if chain is None else [shapes.hop(h) for h in chain]
            return shapes.redacted({"from": from_content, "to": to_content, "chain": hops}, who)

        return self.core.run(access, work)

    def what_if(
        self,
        content: str,
        *,
        origin: str | None,
        direction: Direction,
        session: str | None,
        max_depth: int,
        isolate: bool | None,
        access: Access | None,
    ) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            reads = who.read_options(session, isolate)
            found = graph.what_if(content, origin, direction, max_depth, **reads)
            return shapes.redacted(shapes.what_if(found), who)

        return self.core.run(access, work)

    def list_sessions(self, *, access: Access | None) -> list[str]:
        return self.core.run(access, inventory.sessions)

    def session_page(
        self, *, cursor: str | None, limit: int, access: Access | None
    ) -> dict[str, Any]:
        return self.core.run(
            access, lambda graph, who: inventory.session_page(graph, who, cursor, limit)
        )

    def stats(self, *, access: Access | None) -> dict[str, int]:
        return self.core.run(access, inventory.counts)

    def fact_page(
        self,
        *,
        offset: int,
        limit: int,
        as_of: str | None,
        cursor: str | None,
        access: Access | None,
    ) -> dict[str, Any]:
        return self.core.run(
            access,
            lambda graph, who: inventory.fact_page(graph, who, offset, limit, as_of, cursor),
        )

    def document_page(
        self,
        *,
        scopes: Sequence[str] | None,
        facts: bool | None,
        cursor: str | None,
        limit: int,
        access: Access | None,
    ) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            return document_listing.document_page(graph, who, scopes, facts, cursor, limit)

        return self.core.run(access, work)

    def facts(self, texts: Sequence[str], *, access: Access | None) -> dict[str, Any]:
        def work(graph: DocumentGraph, who: Access) -> dict[str, Any]:
            rows = [
                shapes.fact_row(text, inventory.visible_fact(graph, who, text), who)
                for text in texts[:MAX_FACTS_LOOKUP]
            ]
            return {"facts": rows, "pending": 0}

        return self.core.run(access, work)
