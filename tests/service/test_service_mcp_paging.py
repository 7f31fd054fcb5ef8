"""MCP's ``list_sessions`` pages as ``GET /sessions`` does, through the SDK's own client
over the real server's streamable HTTP: without arguments every name (ReasonGraph's
answer), with ``limit`` or ``cursor`` one page and ``next_cursor``; the pages hold each
of the key's sessions once, sorted, the same as the HTTP pages, and nothing of another
tenant; a bad limit or cursor is the tool's error naming the field."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from groundgraph.service import MemoryService
from groundgraph.service.http_app import create_app
from groundgraph.service.inventory import MAX_SESSION_PAGE
from groundgraph.service.mcp_server import create_mcp
from service_server import MATRIX_KEYS, bearer, matrix_ring, running

pytestmark = pytest.mark.slow

ALICE, BOB = "acme/alice", "acme/bob"


@pytest.fixture
def mcp_server(service: MemoryService) -> Iterator[str]:
    for i in range(9):
        service.push(f"{ALICE}/chat-{i}", f"Alice noted item {i} of the Atlas plan.")
        service.push(f"{BOB}/chat-{i % 3}", f"Bob noted secret {i} of the Zephyr deal.")
    ring = matrix_ring()
    app = create_app(
        service, keys=ring, allowed_hosts=["127.0.0.1"], mcp=create_mcp(service, keys=ring)
    )
    with running(app) as base:
        yield base


async def _calls(base: str, who: str, calls: list[dict[str, Any]]) -> list[Any]:
    headers = {"Authorization": f"Bearer {MATRIX_KEYS[who][0]}"}
    found = []
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(base + "/mcp", http_client=http)) as client,
    ):
        for arguments in calls:
            result = await client.call_tool("list_sessions", arguments)
            if result.is_error:
                found.append("error: " + " ".join(getattr(c, "text", "") for c in result.content))
            else:
                found.append(result.structured_content["result"])
    return found


def call(base: str, who: str, *calls: dict[str, Any]) -> list[Any]:
    return asyncio.run(_calls(base, who, list(calls)))


def tool_pages(base: str, who: str, limit: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor = None
    for _ in range(100):
        arguments: dict[str, Any] = {"limit": limit}
        if cursor is not None:
            arguments["cursor"] = cursor
        (page,) = call(base, who, arguments)
        found.append(page)
        cursor = page["next_cursor"]
        if cursor is None:
            return found
    raise AssertionError("the pages never ended")


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_list_sessions_pages_hold_each_of_the_keys_sessions_once(mcp_server, who):
    (every,) = call(mcp_server, who, {})
    assert isinstance(every, list) and every == sorted(set(every))
    http_every = httpx.get(mcp_server + "/sessions", headers=bearer(who)).json()["sessions"]
    assert every == http_every
    own, other = (ALICE, BOB) if who == "alice" else (BOB, ALICE)
    assert every and all(name.startswith(own) for name in every)
    pages = tool_pages(mcp_server, who, limit=2)
    names = [name for page in pages for name in page["sessions"]]
    assert names == every and all(len(page["sessions"]) <= 2 for page in pages)
    assert len(pages) == -(-len(every) // 2)
    assert other not in json.dumps(pages)
    # the same pages as GET /sessions, cursor for cursor
    http_first = httpx.get(mcp_server + "/sessions", params={"limit": 2}, headers=bearer(who))
    assert http_first.json() == pages[0]
    # a cursor alone gives a page of the default size after it
    (rest,) = call(mcp_server, who, {"cursor": pages[0]["next_cursor"]})
    assert rest["sessions"] == every[2:] and rest["next_cursor"] is None


def test_list_sessions_refuses_a_bad_limit_or_cursor_naming_the_field(mcp_server):
    answers = call(
        mcp_server,
        "alice",
        {"limit": 0},
        {"limit": MAX_SESSION_PAGE + 1},
        {"cursor": "not a cursor!"},
        {"cursor": "x" * 5000},
        {"cursor": "WzEsMl0"},
    )
    for answer, field in zip(
        answers, ["limit", "limit", "cursor", "cursor", "cursor"], strict=True
    ):
        assert isinstance(answer, str) and answer.startswith("error"), answer
        assert field in answer
    assert str(MAX_SESSION_PAGE) in answers[1]
