"""``GET`` and ``POST /graph/documents``: the ``documents`` verb, one page at a time.

The verb lists every document in one answer; a store of many thousands wants pages. Both
routes answer the verb's JSON form (a list of ``{docId, title, description, source,
addedAt, nodes}``) for one page of the documents the read may see, oldest first
(``addedAt``, then ``docId``), as ``POST /graph/documents/page`` pages them: ``limit``
(default ``DOCUMENT_PAGE``, at most ``MAX_DOCUMENT_PAGE``) and ``cursor`` (a page's
next cursor, unchanged) are query parameters of ``GET`` and fields of ``POST`` (beside
the verb's ``scopes``). The body stays a list, so a caller that passes nothing reads
what it read before, capped at the default limit; the paging is in the headers:
``X-Total-Count`` (every document the read sees), and, when a next page exists,
``X-Next-Cursor`` and ``Link: <...>; rel="next"``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Body, Depends, Query, Response
from pydantic import BaseModel, ConfigDict, Field

from groundgraph.service.access import Access
from groundgraph.service.cursors import MAX_CURSOR_CHARS
from groundgraph.service.document_listing import DOCUMENT_PAGE, MAX_DOCUMENT_PAGE
from groundgraph.service.http_calls import Calls, caller, calls

DOCUMENTS_PATH = "/graph/documents"
_LIMIT = f"At most this many documents (1 to {MAX_DOCUMENT_PAGE})."
_CURSOR = "The X-Next-Cursor of the previous page, unchanged; leave it out for the first."


class DocumentListBody(BaseModel):
    """The ``documents`` verb's arguments, and a page's."""

    model_config = ConfigDict(extra="forbid")
    scopes: list[str] | str | None = Field(None, description="Read as these scopes.")
    limit: int = Field(DOCUMENT_PAGE, ge=1, le=MAX_DOCUMENT_PAGE, description=_LIMIT)
    cursor: str | None = Field(None, max_length=MAX_CURSOR_CHARS, description=_CURSOR)


def _page(found: dict[str, Any], limit: int, response: Response) -> Any:
    """The page's documents; its total and next cursor set as headers."""
    response.headers["X-Total-Count"] = str(found["total"])
    following = found["next_cursor"]
    if following is not None:
        response.headers["X-Next-Cursor"] = following
        query = urlencode({"limit": limit, "cursor": following})
        response.headers["Link"] = f'<{DOCUMENTS_PATH}?{query}>; rel="next"'
    return found["documents"]


def add_document_routes(router: APIRouter, summary: str) -> None:
    """Add the paged ``GET`` and ``POST /graph/documents`` to ``router``."""

    @router.get(DOCUMENTS_PATH, summary=summary, name="verb_documents_get")
    async def listed(
        response: Response,
        limit: int = Query(DOCUMENT_PAGE, ge=1, le=MAX_DOCUMENT_PAGE, description=_LIMIT),
        cursor: str | None = Query(None, max_length=MAX_CURSOR_CHARS, description=_CURSOR),
        who: Access = Depends(caller),  # noqa: B008
        run: Calls = Depends(calls),  # noqa: B008
    ) -> Any:
        found = await run.read(run.service.document_page, cursor, limit, None, access=who)
        return _page(found, limit, response)

    @router.post(DOCUMENTS_PATH, summary=summary, name="verb_documents")
    async def asked(
        response: Response,
        body: DocumentListBody | None = Body(None),  # noqa: B008
        who: Access = Depends(caller),  # noqa: B008
        run: Calls = Depends(calls),  # noqa: B008
    ) -> Any:
        body = body or DocumentListBody.model_validate({})
        scopes = [body.scopes] if isinstance(body.scopes, str) else body.scopes
        found = await run.read(
            run.service.document_page, body.cursor, body.limit, scopes, access=who
        )
        return _page(found, body.limit, response)
