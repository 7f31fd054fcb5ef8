"""ReasonGraph's memory routes (its ``service/http.py``, 0.7.40), paths and JSON verbatim,
each scoped by the caller's key (ReasonGraph's ``/delete``, ``/sessions``, ``/stats`` and
``/forget`` are global; these are not). ``DELETE /sessions/{session}`` is the hosted route
its ``MemoryClient.forget_session`` calls.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict

from groundgraph.service.access import Access
from groundgraph.service.cursors import MAX_CURSOR_CHARS
from groundgraph.service.http_calls import Calls, LimitedRoute, caller, calls
from groundgraph.service.inventory import MAX_SESSION_PAGE, SESSION_PAGE

SearchMode = Literal["embedding", "keyword", "hybrid"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PushBody(_Body):
    text: str
    resolve_conflicts: bool | None = None
    split: bool | None = None


class BatchBody(_Body):
    texts: list[str]
    resolve_conflicts: bool | None = None
    split: bool | None = None


class QueryBody(_Body):
    query: str
    session: str | None = None
    hops: int = 4
    top_k: int = 5
    search_mode: SearchMode = "embedding"
    recency_weight: float = 0.0
    isolate: bool | None = None
    detailed: bool = False
    synthesize: bool = False
    as_of: str | None = None
    include_superseded: bool = False


class DiscoverBody(_Body):
    query: str
    session: str | None = None
    hops: int = 4
    top_k: int = 5
    max_results: int = 10
    search_mode: SearchMode = "embedding"
    isolate: bool | None = None
    synthesize: bool = False
    include_superseded: bool = False


class SupersedeBody(_Body):
    session: str
    old_text: str
    new_text: str
    purge_orphans: bool = False


class DeleteBody(_Body):
    text: str
    purge_orphans: bool = False


class TextBody(_Body):
    text: str


class TraceBody(_Body):
    content: str
    direction: Literal["effects", "causes"] = "effects"
    session: str | None = None
    max_depth: int = 6
    isolate: bool | None = None


class ChainBody(_Body):
    from_content: str
    to_content: str
    session: str | None = None
    max_depth: int = 6
    isolate: bool | None = None


class WhatIfBody(_Body):
    content: str
    origin: str | None = None
    direction: Literal["effects", "causes"] = "effects"
    session: str | None = None
    max_depth: int = 6
    isolate: bool | None = None


class FactsBody(_Body):
    texts: list[str]


def memory_router() -> APIRouter:
    """The memory routes; each runs its MemoryService method as the caller."""
    router = APIRouter(tags=["memory"], route_class=LimitedRoute)
    Who = Depends(caller)  # noqa: N806 (a FastAPI dependency, used as a default)
    Run = Depends(calls)  # noqa: N806

    @router.post("/sessions/{session:path}/memory")
    async def push(session: str, body: PushBody, who: Access = Who, run: Calls = Run) -> Any:
        service = run.service
        return await run.write(
            service.push, session, body.text, body.resolve_conflicts, body.split, access=who
        )

    @router.post("/sessions/{session:path}/memory/batch")
    async def push_batch(session: str, body: BatchBody, who: Access = Who, run: Calls = Run) -> Any:
        service = run.service
        if body.split:
            return await run.write(
                service.push,
                session,
                "\n".join(body.texts),
                body.resolve_conflicts,
                True,
                access=who,
            )
        return await run.write(
            service.push_many, session, body.texts, body.resolve_conflicts, access=who
        )

    @router.delete("/sessions/{session:path}")
    async def delete_session(session: str, who: Access = Who, run: Calls = Run) -> Any:
        return await run.write(run.service.delete_session, session, access=who)

    @router.post("/query")
    async def query(body: QueryBody, who: Access = Who, run: Calls = Run) -> Any:
        return await run.read(
            run.service.query,
            body.query,
            body.session,
            body.hops,
            body.top_k,
            body.recency_weight,
            body.isolate,
            body.detailed,
            body.synthesize,
            body.as_of,
            body.include_superseded,
            access=who,
        )

    @router.post("/discover")
    async def discover(body: DiscoverBody, who: Access = Who, run: Calls = Run) -> Any:
        return await run.read(
            run.service.discover,
            body.query,
            body.session,
            body.hops,
            body.top_k,
            body.max_results,
            body.isolate,
            body.synthesize,
            body.include_superseded,
            access=who,
        )

    @router.post("/supersede")
    async def supersede(body: SupersedeBody, who: Access = Who, run: Calls = Run) -> Any:
        return await run.write(
            run.service.supersede,
            body.session,
            body.old_text,
            body.new_text,
            body.purge_orphans,
            access=who,
        )

    @router.post("/delete")
    async def delete(body: DeleteBody, who: Access = Who, run: Calls = Run) -> Any:
        return await run.write(run.service.delete, body.text, body.purge_orphans, access=who)

    @router.post("/history")
    async def history(body: TextBody, who: Access = Who, run: Calls = Run) -> Any:
        return await run.read(run.service.history, body.text, access=who)

    @router.post("/trace")
    async def trace(body: TraceBody, who: Access = Who, run: Calls = Run) -> Any:
        return await run.read(
            run.service.trace,
            body.content,
            body.direction,
            body.session,
            body.max_depth,
            body.isolate,
            access=who,
        )

    @router.post("/causal_chain")
    async def causal_chain(body: ChainBody, who: Access = Who, run: Calls = Run) -> Any:
        return await run.read(
            run.service.causal_chain,
            body.from_content,
            body.to_content,
            body.session,
            body.max_depth,
            body.isolate,
            access=who,
        )

    @router.post("/what_if")
    async def what_if(body: WhatIfBody, who: Access = Who, run: Calls = Run) -> Any:
        return await run.read(
            run.service.what_if,
            body.content,
            body.origin,
            body.direction,
            body.session,
            body.max_depth,
            body.isolate,
            access=who,
        )

    @router.post("/forget")
    async def forget(who: Access = Who, run: Calls = Run) -> Any:
        return await run.write(run.service.forget, access=who)

    @router.get("/sessions")
    async def sessions(
        limit: int | None = Query(None, ge=1, le=MAX_SESSION_PAGE),
        cursor: str | None = Query(None, max_length=MAX_CURSOR_CHARS),
        who: Access = Who,
        run: Calls = Run,
    ) -> Any:
        if limit is None and cursor is None:
            # ReasonGraph's shape, verbatim: its clients read this answer
            return {"sessions": await run.read(run.service.list_sessions, access=who)}
        page = limit or SESSION_PAGE
        return await run.read(run.service.session_page, cursor, page, access=who)

    @router.get("/stats")
    async def stats(who: Access = Who, run: Calls = Run) -> Any:
        return await run.read(run.service.stats, access=who)

    @router.post("/facts")
    async def facts(body: FactsBody, who: Access = Who, run: Calls = Run) -> Any:
        return await run.read(run.service.facts, body.texts, access=who)

    return router
