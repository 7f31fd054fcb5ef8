"""why_not over the service: got_why_not through the MCP SDK's own client (in process), and
POST /graph/why_not on a real uvicorn."""

from __future__ import annotations

import asyncio

import httpx
from mcp import Client

from groundgraph.graph import DocumentGraph
from groundgraph.service import MemoryService
from groundgraph.service.http_app import create_app
from groundgraph.service.mcp_server import create_mcp
from service_server import running

GUIDE = """# Kiln Manual
## Loading
Stack the greenware on the lower shelf.
## Firing
Raise the heat slowly; a cracked pot means the firing was rushed.
## Cooling
Leave the lid shut until the kiln cools."""


def test_the_mcp_tool_gives_the_verbs_diagnosis() -> None:
    service = MemoryService(DocumentGraph())
    service.graph.add_document(GUIDE, "Kiln Manual")
    arguments = {"query": "cracked pot", "target": "kiln-manual#3", "max_results": 1}

    async def run() -> dict:
        async with Client(create_mcp(service), raise_exceptions=True) as client:
            listed = {tool.name: tool for tool in (await client.list_tools()).tools}
            schema = listed["got_why_not"].input_schema
            assert set(schema["required"]) == {"query", "target"}
            result = await client.call_tool("got_why_not", arguments)
            assert not result.is_error, result.content
            return result.structured_content

    got = asyncio.run(run())
    want = service.graph.why_not("cracked pot", "kiln-manual#3", max_results=1).to_dict()
    assert got["result"] == want and "untrusted" in got
    assert want["stage"] != "found"


def test_a_bad_target_is_a_tool_error_that_names_it() -> None:
    service = MemoryService(DocumentGraph())

    async def run():
        async with Client(create_mcp(service)) as client:
            return await client.call_tool("got_why_not", {"query": "pot", "target": "x" * 5000})

    result = asyncio.run(run())
    assert result.is_error and "target" in str(result.content)


def test_over_http_a_real_server_answers_the_verbs_json() -> None:
    with MemoryService(DocumentGraph()) as service, running(create_app(service)) as base:
        service.graph.add_document(GUIDE, "Kiln Manual")
        body = {"query": "cracked pot", "target": "kiln-manual#3", "max_results": 1}
        answer = httpx.post(f"{base}/graph/why_not", json=body, timeout=30)
        assert answer.status_code == 200, answer.text
        want = service.graph.why_not("cracked pot", "kiln-manual#3", max_results=1).to_dict()
        assert answer.json() == want
        bad = httpx.post(f"{base}/graph/why_not", json={"query": "pot"}, timeout=30)
        assert bad.status_code == 422 and "target" in bad.text
