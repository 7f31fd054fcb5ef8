"""``X-API-Key`` on the MCP endpoint: a key in that header works at ``/mcp`` exactly as it
works on the HTTP routes and as ``Authorization: Bearer`` works at ``/mcp``, over a real
uvicorn and the MCP SDK's own streamable HTTP client."""

from __future__ import annotations

import asyncio
import json

import httpx
import httpx2
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from groundgraph.service.http_app import create_app
from groundgraph.service.keys import presented_key
from groundgraph.service.mcp_server import create_mcp, with_bearer_key
from service.conftest import ALICE_FACTS, BOB_FACTS
from service_server import MATRIX_KEYS, matrix_ring, running

LIST_TOOLS = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
ACCEPT = {"Accept": "application/json, text/event-stream"}
ALICE_KEY = MATRIX_KEYS["alice"][0]


def keyed_app(service):
    ring = matrix_ring()
    return create_app(
        service,
        keys=ring,
        allowed_hosts=["127.0.0.1"],
        mcp=create_mcp(service, writes=True, keys=ring),
    )


async def session_as(base: str, headers: dict[str, str], name: str, arguments: dict):
    """The tool names listed and one tool's result, as a caller sending ``headers``."""
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(base + "/mcp", http_client=http)) as client,
    ):
        names = {tool.name for tool in (await client.list_tools()).tools}
        return names, await client.call_tool(name, arguments)


def header_scope(pairs: list[tuple[str, str]]) -> dict:
    return {"type": "http", "headers": [(k.encode(), v.encode("latin-1")) for k, v in pairs]}


def bearer_of(scope: dict) -> str | None:
    """The key the SDK's bearer check reads: the first ``Authorization`` header's."""
    values = [v.decode("latin-1") for k, v in scope["headers"] if k.lower() == b"authorization"]
    return presented_key(values[0] if values else None, None)


TOKENS = st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=12)
AUTHORIZATION = st.one_of(
    st.none(),
    TOKENS.map(lambda t: f"Bearer {t}"),
    TOKENS.map(lambda t: f"bearer {t}"),
    TOKENS.map(lambda t: f"Basic {t}"),
    st.just("Bearer "),
)


@given(authorization=AUTHORIZATION, api_key=st.one_of(st.none(), TOKENS))
def test_the_sdk_reads_the_key_the_http_routes_read(authorization, api_key):
    pairs = [("host", "127.0.0.1")]
    if authorization is not None:
        pairs.append(("authorization", authorization))
    if api_key is not None:
        pairs.append(("X-API-Key", api_key))
    scope = header_scope(pairs)
    assert bearer_of(with_bearer_key(scope)) == presented_key(authorization, api_key)
    kept = [h for h in with_bearer_key(scope)["headers"] if h[0].lower() != b"authorization"]
    assert kept == [h for h in scope["headers"] if h[0].lower() != b"authorization"]


def test_a_request_without_an_api_key_header_is_passed_on_as_it_came():
    scope = header_scope([("host", "x"), ("authorization", "Basic abc")])
    assert with_bearer_key(scope) is scope


@pytest.mark.slow
def test_over_http_a_key_in_x_api_key_lists_and_calls_tools(service):
    with running(keyed_app(service)) as base:
        names, found = asyncio.run(
            session_as(base, {"X-API-Key": ALICE_KEY}, "query_memory", {"query": "flood"})
        )
        assert {"push_memory", "update_memory", "delete_memory", "query_memory"} <= names
        assert not found.is_error
        facts = found.structured_content["result"]
        assert facts and set(facts) <= set(ALICE_FACTS)
        pushed = asyncio.run(
            session_as(
                base,
                {"X-API-Key": ALICE_KEY},
                "push_memory",
                {"session": "acme/alice", "text": "Alice booked the Lisbon venue."},
            )
        )[1]
        assert not pushed.is_error
    assert service.facts(["Alice booked the Lisbon venue."])["facts"][0]["stored"]


@pytest.mark.slow
def test_over_http_a_read_only_key_in_x_api_key_cannot_write(service):
    read_only = {"X-API-Key": MATRIX_KEYS["alice-ro"][0]}
    with running(keyed_app(service)) as base:
        for name, arguments in (
            ("push_memory", {"session": "acme/alice", "text": "Alice sold the Atlas car."}),
            ("delete_memory", {"text": ALICE_FACTS[0]}),
        ):
            found = asyncio.run(session_as(base, read_only, name, arguments))[1]
            assert found.is_error and "read-only" in found.content[0].text, name
        bob = asyncio.run(session_as(base, read_only, "query_memory", {"query": "Zephyr"}))[1]
        assert not any(fact in json.dumps(bob.structured_content) for fact in BOB_FACTS)
    stored = service.facts([*ALICE_FACTS, "Alice sold the Atlas car."])["facts"]
    assert [row["stored"] for row in stored] == [True, True, True, False]


def refusal(response: httpx.Response) -> tuple[int, str, str | None]:
    return response.status_code, response.text, response.headers.get("www-authenticate")


@pytest.mark.slow
def test_over_http_a_wrong_or_missing_key_is_refused_as_with_bearer(service):
    with running(keyed_app(service)) as base:

        def mcp(headers: dict[str, str]) -> httpx.Response:
            return httpx.post(base + "/mcp", json=LIST_TOOLS, headers={**ACCEPT, **headers})

        wrong_bearer = refusal(mcp({"Authorization": "Bearer nope-0123456789"}))
        assert wrong_bearer[0] == 401 and wrong_bearer[2].startswith("Bearer")
        assert json.loads(wrong_bearer[1])["error"] == "invalid_token"  # as docs/service.md
        assert refusal(mcp({"X-API-Key": "nope-0123456789"})) == wrong_bearer
        assert refusal(mcp({"X-API-Key": ""})) == wrong_bearer
        assert refusal(mcp({})) == wrong_bearer
        # A bearer key is the one presented, as on the HTTP routes: a right X-API-Key
        # beside a wrong bearer key does not let the request in.
        both = {"Authorization": "Bearer nope-0123456789", "X-API-Key": ALICE_KEY}
        assert refusal(mcp(both)) == wrong_bearer
        with pytest.raises(Exception):  # noqa: B017 (the SDK's client fails on a 401)
            asyncio.run(session_as(base, {"X-API-Key": "nope"}, "list_sessions", {}))


HEADER_CASES = [
    {},
    {"X-API-Key": ALICE_KEY},
    {"X-API-Key": "nope-0123456789"},
    {"Authorization": f"Bearer {ALICE_KEY}"},
    {"Authorization": "Bearer nope-0123456789"},
    {"Authorization": f"Basic {ALICE_KEY}", "X-API-Key": ALICE_KEY},
    {"Authorization": "Bearer", "X-API-Key": ALICE_KEY},
    {"Authorization": f"Bearer {ALICE_KEY}", "X-API-Key": "nope-0123456789"},
    {"Authorization": "Bearer nope-0123456789", "X-API-Key": ALICE_KEY},
]


@pytest.mark.slow
def test_over_http_mcp_lets_in_whom_the_http_routes_let_in(service):
    with running(keyed_app(service)) as base:
        for headers in HEADER_CASES:
            route = httpx.get(base + "/sessions", headers=headers)
            mcp = httpx.post(base + "/mcp", json=LIST_TOOLS, headers={**ACCEPT, **headers})
            assert route.status_code in (200, 401), (headers, route.text)
            assert mcp.status_code == route.status_code, (headers, mcp.text)
