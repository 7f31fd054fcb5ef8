"""``create_app``: the HTTP API of a MemoryService (FastAPI).

    from groundgraph.service import MemoryService, create_app
    app = create_app(MemoryService(DocumentGraph("memory.db")), keys=KeyRing.load("keys.json"))

Routes: ``/health`` and ``/ready`` (open, and say nothing about the configuration;
``/health`` names the process that answered, ``worker``, to tell uvicorn workers apart),
``/openapi.json``, the web explorer at ``/`` (``service.http_explorer``), ReasonGraph's
memory routes (``service.http_memory``) and the document and search routes generated from
the verb table (``service.http_verbs``), and folder ingest jobs at ``/jobs``
(``service.http_jobs``). Every other
route needs a key when the app has keys. With an MCP server, its streamable HTTP transport
is at ``/mcp`` (``service.mcp_server``). Errors are JSON ``{"detail": ...}``: 401 no or
wrong key, 403 the key does not allow it, 404 not found, 413 body too large, 421 wrong
Host, 422 bad or oversized field, 429 over the rate limit (``service.rate_limit``), 503 the
store is busy, 504 a read took too long.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.middleware.cors import CORSMiddleware

from groundgraph import __version__
from groundgraph.errors import GroundgraphError, InputError, LLMError, NotFoundError, StoreError
from groundgraph.model.masked import mask_passwords
from groundgraph.model.valid_text import valid_json
from groundgraph.service.access import AccessDeniedError
from groundgraph.service.guard import RequestGuard
from groundgraph.service.http_calls import Calls
from groundgraph.service.http_explorer import explorer_router
from groundgraph.service.http_jobs import jobs_router
from groundgraph.service.http_memory import memory_router
from groundgraph.service.http_verbs import verbs_router
from groundgraph.service.jobs import IngestJobs
from groundgraph.service.keys import KeyRing
from groundgraph.service.limits import Limits
from groundgraph.service.memory_service import MemoryService
from groundgraph.service.rate_limit import RateLimit, check_rate

_STATUS: tuple[tuple[type[GroundgraphError], int], ...] = (
    (AccessDeniedError, 403),
    (NotFoundError, 404),
    (InputError, 422),
    (StoreError, 503),
    (LLMError, 502),
)


def _status(error: GroundgraphError) -> int:
    return next((code for kind, code in _STATUS if isinstance(error, kind)), 500)


def create_app(
    service: MemoryService,
    *,
    keys: KeyRing | None = None,
    limits: Limits | None = None,
    allowed_hosts: Sequence[str] | None = None,
    cors_origins: Sequence[str] = (),
    mcp: Any = None,
    ingest_roots: Sequence[str | Path] = (),
    rate_limit: int | None = None,
    jobs: IngestJobs | None = None,
) -> Any:
    """The ASGI app (see the module docstring). ``allowed_hosts`` None skips the Host
    check (``groundgraph serve`` always passes a list); ``cors_origins`` empty leaves CORS
    off, and ``*`` is refused. ``mcp`` (``service.mcp_server.create_mcp``) is served at
    ``/mcp`` behind the same guard. ``ingest_roots`` are the folders ``POST /jobs`` may
    index (``service.jobs``; none: the route refuses every job); ``jobs`` is an
    ``IngestJobs`` to share with the MCP server (its roots are used, not ``ingest_roots``).
    ``rate_limit`` (requests a minute per key or client address; None or 0: off) is
    ``service.rate_limit``'s, in front of every route but the probes, ``/mcp`` included."""
    if "*" in cors_origins:
        raise InputError("CORS origin '*' is refused: list the origins that may call the API")
    chosen = limits or Limits()
    per_minute = check_rate(rate_limit, "rate_limit")
    if jobs is not None and ingest_roots:
        raise InputError("give ingest_roots or jobs, not both: jobs has its own roots")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            if mcp is not None:
                await stack.enter_async_context(mcp.session_manager.run())
            app.state.ready = True
            try:
                yield
            finally:
                app.state.ready = False
                await anyio.to_thread.run_sync(app.state.jobs.stop)

    app = FastAPI(
        title="groundgraph",
        version=__version__,
        summary="Grounded, explainable retrieval and agent memory over HTTP.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.ready = False
    app.state.keys = keys or KeyRing()
    app.state.calls = Calls(service, chosen)
    app.state.jobs = jobs if jobs is not None else IngestJobs(service, ingest_roots)

    @app.exception_handler(GroundgraphError)
    async def graph_error(request: Request, error: GroundgraphError) -> JSONResponse:
        detail = mask_passwords(str(error))  # a store error may name its URL
        return JSONResponse({"detail": valid_json(detail)}, status_code=_status(error))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer, with the caller's echoed input made valid UTF-8.
        return JSONResponse({"detail": valid_json(jsonable_encoder(error.errors()))}, 422)

    @app.get("/health", tags=["probes"])
    async def health() -> dict[str, Any]:
        return {"status": "ok", "worker": os.getpid()}

    @app.get("/ready", tags=["probes"])
    async def ready(request: Request) -> Any:
        if not request.app.state.ready:
            return JSONResponse({"detail": "starting up"}, status_code=503)
        return {"ready": True}

    app.include_router(memory_router())
    app.include_router(verbs_router())
    app.include_router(jobs_router())
    app.include_router(explorer_router())
    if mcp is not None:
        from groundgraph.service.mcp_server import mcp_http_app

        app.mount("/", mcp_http_app(mcp, allowed_hosts, cors_origins, chosen.max_body_bytes))
    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "X-API-Key", "Content-Type"],
            allow_credentials=False,
        )
    guarded = RequestGuard(
        app,
        max_body_bytes=chosen.max_body_bytes,
        allowed_hosts=allowed_hosts,
        allowed_origins=cors_origins,
    )
    if per_minute is None:
        return guarded
    # Outermost, so a caller over its limit is refused before its body is read.
    return RateLimit(guarded, per_minute=per_minute, keys=app.state.keys)
