"""The MCP server through the SDK's own client: in-process for every tool, over stdio (a
subprocess), and over streamable HTTP on a real uvicorn with keys, Host/Origin checks, the
body limit and two tenants at once."""

from __future__ import annotations

import asyncio
import json
import os
import sys

import httpx
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from groundgraph.graph import DocumentGraph
from groundgraph.service import MemoryService
from groundgraph.service.http_app import create_app
from groundgraph.service.mcp_server import WRITE_TOOLS, create_mcp
from service.conftest import ALICE_FACTS, BOB_FACTS
from service_server import MATRIX_KEYS, matrix_ring, running

REASONGRAPH_TOOLS = {
    "push_memory",
    "query_memory",
    "query_memory_detailed",
    "causal_chain_memory",
    "discover_connections",
    "answer",
    "update_memory",
    "delete_memory",
    "trace_memory",
    "what_if_memory",
    "memory_history",
    "forget_stale",
    "list_sessions",
}
GRAPH_TOOLS = {
    "got_search",
    "got_read_node",
    "got_outline",
    "got_list_documents",
    "ground_answer",
    "got_add_document",
    "got_remove_document",
    "got_why_not",
    "got_ask",
    "got_bridge",
    "verify_relation",
}
S = "acme/alice"
GUIDE = "# Guide\n## Setup\nInstall the tool.\n## Config\nEdit config.json to set the port."
#: One call of every tool, as Alice.
CALLS: dict[str, dict] = {
    "push_memory": {"session": S, "text": "Alice moved the Atlas demo to Friday."},
    "query_memory": {"query": "flood", "session": S},
    "query_memory_detailed": {"query": "flood", "session": S},
    "causal_chain_memory": {"from_text": ALICE_FACTS[0], "to_text": "the road closure"},
    "discover_connections": {"query": "flood", "session": S},
    "answer": {"query": "What caused the flood?", "session": S},
    "update_memory": {"session": S, "old_text": ALICE_FACTS[2], "new_text": "Alice leads Zenith."},
    "delete_memory": {"text": ALICE_FACTS[1]},
    "trace_memory": {"content": "Heavy rain", "session": S},
    "what_if_memory": {"content": ALICE_FACTS[0], "session": S},
    "memory_history": {"text": ALICE_FACTS[0]},
    "forget_stale": {},
    "list_sessions": {},
    "got_search": {"query": "flood"},
    "got_why_not": {"query": "install the tool", "target": "guide#2", "max_results": 1},
    "got_read_node": {"node_id": "guide#1"},
    "got_outline": {"doc_id": "guide"},
    "got_list_documents": {},
    "ground_answer": {"answer": "Install the tool."},
    "got_ask": {"question": "How do I set the port?"},
    "got_bridge": {"a": "guide#1", "b": "guide#2"},
    "verify_relation": {"subject": "Ann", "relation": "parent", "object": "Cy"},
    "got_add_document": {"content": "# Notes\nHello there.", "title": "Notes"},
    "got_remove_document": {"doc_id": "guide"},
}
#: Tools a key bound to Alice's scope may not call at all (they read every document).
EVERY_DOCUMENT = {"verify_relation"}


def test_the_tool_names_are_reasongraphs_and_the_tables():
    async def names(writes: bool) -> set[str]:
        async with Client(create_mcp(MemoryService(), writes=writes)) as client:
            listed = (await client.list_tools()).tools
            assert all(tool.input_schema["type"] == "object" for tool in listed)
            assert all(tool.output_schema for tool in listed)
            return {tool.name for tool in listed}

    assert asyncio.run(names(True)) == REASONGRAPH_TOOLS | GRAPH_TOOLS
    assert asyncio.run(names(False)) == (REASONGRAPH_TOOLS | GRAPH_TOOLS) - WRITE_TOOLS


def test_every_tool_answers_what_the_service_answers(service):
    service.graph.add_document(GUIDE, "Guide")
    expected = {
        "query_memory": lambda: {"result": service.query("flood", session=S)["facts"]},
        "list_sessions": lambda: {"result": service.list_sessions()},
        "memory_history": lambda: service.history(ALICE_FACTS[0]),
        "trace_memory": lambda: service.trace("Heavy rain", session=S),
        "got_search": lambda: service.verb("search", {"query": "flood"}),
    }

    async def run() -> dict[str, object]:
        results = {}
        async with Client(create_mcp(service, writes=True), raise_exceptions=True) as client:
            for name, arguments in CALLS.items():
                result = await client.call_tool(name, arguments)
                assert not result.is_error, (name, result.content)
                results[name] = result.structured_content
                if name in expected:
                    want = expected[name]()
                    got = result.structured_content
                    assert (got["result"] if name == "got_search" else got) == want, name
        return results

    results = asyncio.run(run())
    assert "untrusted" in results["got_search"]
    assert results["delete_memory"] == {"deleted": True}
    assert not service.facts([ALICE_FACTS[1]])["facts"][0]["stored"]
    assert service.facts(["Alice moved the Atlas demo to Friday."])["facts"][0]["stored"]


def test_a_tool_error_says_what_was_wrong(service):
    async def run():
        async with Client(create_mcp(service)) as client:
            return await client.call_tool("trace_memory", {"content": "no such phrase at all"})

    result = asyncio.run(run())
    assert result.is_error and "no fact or causal span" in result.content[0].text


def test_a_tool_argument_over_its_limit_is_refused_naming_it(service):
    async def run():
        async with Client(create_mcp(service)) as client:
            return await client.call_tool("query_memory", {"query": "x" * 5000})

    result = asyncio.run(run())
    assert result.is_error and "'query'" in result.content[0].text
    assert "2,000" in result.content[0].text


@pytest.mark.slow
def test_over_stdio_a_subprocess_serves_the_store(tmp_path):
    path = tmp_path / "memory.db"
    graph = DocumentGraph(path)
    graph.add_text("Heavy rain caused the flood.", scopes=["s"])
    graph.close()
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "groundgraph", "--db", str(path), "mcp"],
        env=dict(os.environ),
    )

    async def run():
        async with Client(params) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            found = await client.call_tool("query_memory", {"query": "flood", "session": "s"})
            return names, found.structured_content

    names, found = asyncio.run(run())
    assert "push_memory" not in names and "query_memory" in names
    assert found == {"result": ["Heavy rain caused the flood."]}


def keyed_app(service, **options):
    ring = matrix_ring()
    return create_app(
        service,
        keys=ring,
        allowed_hosts=["127.0.0.1"],
        mcp=create_mcp(service, writes=True, keys=ring),
        **options,
    )


async def call_as(base: str, key: str | None, name: str, arguments: dict):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(base + "/mcp", http_client=http)) as client,
    ):
        return await client.call_tool(name, arguments)


@pytest.mark.slow
def test_over_http_a_call_needs_a_key(service):
    with running(keyed_app(service)) as base:
        bare = httpx.post(
            base + "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"Accept": "application/json, text/event-stream"},
        )
        assert bare.status_code == 401 and "Bearer" in bare.headers["www-authenticate"]
        wrong = httpx.post(
            base + "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"Authorization": "Bearer nope", "Accept": "application/json"},
        )
        assert wrong.status_code == 401


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CALLS))
def test_each_tool_over_http_does_what_each_key_may(name, service):
    service.graph.add_document(GUIDE, "Guide", scopes=[S])
    arguments = CALLS[name]
    with running(keyed_app(service)) as base:

        def call(who: str):
            return asyncio.run(call_as(base, MATRIX_KEYS[who][0], name, arguments))

        read_only = call("alice-ro")
        assert read_only.is_error == (name in WRITE_TOOLS or name in EVERY_DOCUMENT), name
        bob = call("bob")
        text = json.dumps(bob.structured_content) if not bob.is_error else ""
        assert not any(fact in text for fact in ALICE_FACTS) and S not in text
        assert all(row["stored"] for row in service.facts(list(ALICE_FACTS))["facts"])
        alice = call("alice")
        # Bob's key called each tool first: his 'notes' (acme/bob~notes) takes nothing of
        # Alice's, whose key adds its own (acme/alice~notes)
        assert alice.is_error == (name in EVERY_DOCUMENT), (name, alice.content)
        if not alice.is_error:
            assert "acme/bob" not in json.dumps(alice.structured_content)
            assert not any(f in json.dumps(alice.structured_content) for f in BOB_FACTS)
        assert not call("admin").is_error or name == "got_remove_document"


@pytest.mark.slow
def test_over_http_host_origin_and_body_are_checked(service):
    with running(keyed_app(service)) as base:
        key = {"Authorization": f"Bearer {MATRIX_KEYS['alice'][0]}"}
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        accept = {"Accept": "application/json, text/event-stream"}
        host = httpx.post(base + "/mcp", json=body, headers={**key, **accept, "Host": "evil.io"})
        assert host.status_code == 421
        origin = httpx.post(
            base + "/mcp", json=body, headers={**key, **accept, "Origin": "https://evil.io"}
        )
        assert origin.status_code == 403
        big = httpx.post(base + "/mcp", content=b"x" * (5 << 20), headers={**key, **accept})
        assert big.status_code == 413


@pytest.mark.slow
def test_two_tenants_at_once_each_get_only_their_own(service):
    with running(keyed_app(service)) as base:

        async def tenant(who: str, query: str) -> list[list[str]]:
            key = MATRIX_KEYS[who][0]
            async with (
                httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}) as http,
                Client(streamable_http_client(base + "/mcp", http_client=http)) as client,
            ):
                seen = []
                for _ in range(8):
                    found = await client.call_tool("query_memory", {"query": query, "top_k": 10})
                    seen.append(found.structured_content["result"])
                    sessions = await client.call_tool("list_sessions", {})
                    seen.append(sessions.structured_content["result"])
                return seen

        async def both():
            return await asyncio.gather(
                tenant("alice", "flood Zephyr power"), tenant("bob", "flood Zephyr power")
            )

        alice, bob = asyncio.run(both())
        alice_owned = set(ALICE_FACTS) | {S}
        bob_owned = set(BOB_FACTS) | {"acme/bob"}
        assert all(set(answer) <= alice_owned for answer in alice) and any(alice)
        assert all(set(answer) <= bob_owned for answer in bob) and any(bob)
