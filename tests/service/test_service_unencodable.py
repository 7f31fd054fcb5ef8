"""A lone surrogate in a request (a JSON ``"\\ud800"`` escape) never breaks the answer: the
service's HTTP routes and MCP tools send back valid UTF-8, with U+FFFD where a caller's
text is echoed (``model.valid_text.valid_json``)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcp import Client

from groundgraph.graph import DocumentGraph
from groundgraph.model.valid_text import REPLACEMENT, has_surrogates, valid_json
from groundgraph.service import MemoryService
from groundgraph.service.http_app import create_app
from groundgraph.service.mcp_server import create_mcp
from service_server import running

GUIDE = "# Boiler\n\n## Service\n\nAnn Lee services the boiler because the pump failed."


@pytest.fixture
def service():
    found = MemoryService(DocumentGraph())
    found.graph.add_document(GUIDE, "Boiler", "boiler")
    found.push("s", "Heavy rain caused the flood.")
    yield found
    found.graph.close()


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("/graph/ask", {"question": "why a\\ud800b"}),
        ("/graph/why_not", {"query": "boiler a\\ud800", "target": "boiler#1"}),
        ("/causal_chain", {"from_content": "rain\\ud800", "to_content": "flood\\udc00"}),
        ("/causal_chain", {"from_text": "rain\\ud800", "to_text": "flood"}),  # a 422
        ("/graph/ground", {"answer": "Ann Lee services the boiler \\ud800."}),
    ],
)
def test_an_http_answer_echoing_a_lone_surrogate_is_valid_json(service, route, body):
    raw = json.dumps(body).replace("\\\\u", "\\u")  # the escape as a client sends it
    assert "\\ud8" in raw or "\\udc" in raw
    with running(create_app(service)) as base:
        response = httpx.post(
            base + route, content=raw, headers={"content-type": "application/json"}
        )
    assert response.status_code < 500, response.text
    response.content.decode("utf-8")  # strict: no lone surrogate made it out


def test_an_mcp_answer_echoing_a_lone_surrogate_is_a_result(service):
    calls = {
        "got_ask": {"question": "a\ud800b"},
        "causal_chain_memory": {"from_text": "a\ud800b", "to_text": "flood"},
        "verify_relation": {"subject": "a\ud800", "relation": "parent", "object": "b"},
    }

    async def run() -> dict[str, object]:
        out = {}
        async with Client(create_mcp(service)) as client:
            for name, arguments in calls.items():
                result = await client.call_tool(name, arguments)
                text = result.content[0].text if result.content else ""
                assert text.strip() != f"Error executing tool {name}", name  # not untyped
                out[name] = result
        return out

    results = asyncio.run(run())
    asked = results["got_ask"].structured_content
    assert asked["result"]["question"] == f"a{REPLACEMENT}b"


leaves = st.one_of(st.text(), st.sampled_from(["\ud800", "a\udfffb", "\ud83d\ude00"]), st.none())
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(leaves.filter(bool), inner),
    max_leaves=10,
)


@given(values)
def test_valid_json_encodes_and_keeps_what_needed_nothing(value):
    fixed = valid_json(value)
    json.dumps(fixed, ensure_ascii=False).encode("utf-8")
    text = json.dumps(value, ensure_ascii=False)
    if not has_surrogates(text):
        assert fixed is value
