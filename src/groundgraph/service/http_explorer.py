"""The web explorer: a static page at ``/`` and its files under ``/explorer/``, plus the
reads it needs that the API had no route for (a page of the caller's facts, and a page
of the documents it may read).

The page is data-free: it holds no document text and asks for no key, so it is served
without one; everything it shows comes from the API routes, with the key the user types
once (kept in the tab's ``sessionStorage``, sent as ``Authorization: Bearer``). Each file
is answered with a Content-Security-Policy that allows scripts and styles from this
server only: no inline script, no ``eval``, no other origin. The one inline style allowed,
by its hash, is the rule cytoscape.js adds to its container.
"""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from importlib import resources
from typing import Any

from fastapi import APIRouter, Depends, HTTPException
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from groundgraph.model.store_records import MAX_PAGE_OFFSET
from groundgraph.service.access import Access
from groundgraph.service.cursors import MAX_CURSOR_CHARS
from groundgraph.service.document_listing import DOCUMENT_PAGE, MAX_DOCUMENT_PAGE
from groundgraph.service.http_calls import Calls, LimitedRoute, caller, calls

#: The explorer's files (``service/web``) and their media types.
FILES: dict[str, str] = {
    "index.html": "text/html; charset=utf-8",
    "explorer.css": "text/css; charset=utf-8",
    "explorer.js": "text/javascript; charset=utf-8",
    "cytoscape.min.js": "text/javascript; charset=utf-8",
    "LICENSE.cytoscape": "text/plain; charset=utf-8",
}

#: The style element cytoscape.js inserts into the page (its container must be relative).
CYTOSCAPE_STYLE = ".__________cytoscape_container { position: relative; }"


def _hash(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        f"style-src 'self' 'sha256-{_hash(CYTOSCAPE_STYLE)}'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}

#: The most facts one page holds.
MAX_PAGE = 200


@cache
def explorer_file(name: str) -> bytes:
    """The bytes of one of the explorer's files, read from the installed package."""
    return resources.files("groundgraph.service").joinpath("web", name).read_bytes()


def _answer(name: str) -> Response:
    return Response(explorer_file(name), media_type=FILES[name], headers=HEADERS)


class FactPageBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    offset: int = Field(0, ge=0, le=MAX_PAGE_OFFSET)
    limit: int = Field(50, ge=1, le=MAX_PAGE)
    as_of: str | None = None
    cursor: str | None = Field(None, max_length=MAX_CURSOR_CHARS)


class DocumentPageBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    limit: int = Field(DOCUMENT_PAGE, ge=1, le=MAX_DOCUMENT_PAGE)
    cursor: str | None = Field(None, max_length=MAX_CURSOR_CHARS)
    scopes: list[str] | None = Field(None, min_length=1, max_length=50)
    facts: bool | None = None


def explorer_router() -> APIRouter:
    """``GET /`` (the page), ``GET /explorer/{file}``, ``POST /facts/page`` and
    ``POST /graph/documents/page``."""
    router = APIRouter(route_class=LimitedRoute)

    @router.get("/", include_in_schema=False)
    async def page() -> Response:
        return _answer("index.html")

    @router.get("/explorer/{name}", include_in_schema=False)
    async def asset(name: str) -> Response:
        if name not in FILES:
            raise HTTPException(404, f"no explorer file {name[:80]!r}")
        return _answer(name)

    @router.post("/facts/page", tags=["memory"], summary="A page of the caller's facts.")
    async def fact_page(
        body: FactPageBody,
        who: Access = Depends(caller),  # noqa: B008
        run: Calls = Depends(calls),  # noqa: B008
    ) -> Any:
        service = run.service
        return await run.read(
            service.fact_page, body.offset, body.limit, body.as_of, body.cursor, access=who
        )

    @router.post(
        "/graph/documents/page", tags=["documents"], summary="A page of the caller's documents."
    )
    async def document_page(
        body: DocumentPageBody,
        who: Access = Depends(caller),  # noqa: B008
        run: Calls = Depends(calls),  # noqa: B008
    ) -> Any:
        service = run.service
        return await run.read(
            service.document_page, body.cursor, body.limit, body.scopes, body.facts, access=who
        )

    return router
