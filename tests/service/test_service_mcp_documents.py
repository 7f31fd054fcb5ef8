"""``got_list_documents`` over MCP answers one page of the documents the caller may read:
the verb's list in ``result``, ``total`` and ``next_cursor`` beside it; following the
cursors reads each document once, in the order of ``POST /graph/documents/page``."""

from __future__ import annotations

import asyncio
from typing import Any

from mcp.client import Client

from groundgraph.service.document_listing import DOCUMENT_PAGE, MAX_DOCUMENT_PAGE
from groundgraph.service.mcp_server import create_mcp
from groundgraph.service.memory_service import MemoryService


def _call(service: MemoryService, arguments: dict[str, Any]) -> Any:
    async def run() -> Any:
        async with Client(create_mcp(service)) as client:
            return await client.call_tool("got_list_documents", arguments)

    return asyncio.run(run())


def test_documents_come_a_page_at_a_time_each_once():
    service = MemoryService()
    for i in range(7):
        service.graph.add_document(f"# Guide {i}\nText {i}.", f"G{i}")
    every = service.document_page(limit=MAX_DOCUMENT_PAGE)["documents"]
    walked, cursor, pages = [], None, 0
    while True:
        answer = _call(service, {"limit": 3, **({"cursor": cursor} if cursor else {})})
        assert not answer.is_error, answer.content
        page = answer.structured_content
        assert page["total"] == 7 and len(page["result"]) <= 3 and "untrusted" in page
        walked += page["result"]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert pages == 3 and walked == every
    plain = _call(service, {}).structured_content  # no arguments: the first page
    assert plain["result"] == every[:DOCUMENT_PAGE] and plain["next_cursor"] is None


def test_a_bad_limit_or_cursor_is_an_error_naming_it():
    service = MemoryService()
    service.graph.add_document("# Guide\nText.", "Guide")
    for arguments, named in (
        ({"limit": 0}, "limit"),
        ({"limit": MAX_DOCUMENT_PAGE + 1}, "limit"),
        ({"cursor": "not a cursor!"}, "cursor"),
    ):
        answer = _call(service, arguments)
        assert answer.is_error and named in answer.content[0].text, arguments
