"""``verify_relation`` over HTTP (``POST /graph/verify_relation``) and MCP (the
``verify_relation`` tool): against the facts given, or the graph's own relation facts,
which only a key for every scope may read; and ``got_ask`` / ``got_bridge`` over MCP."""

from __future__ import annotations

import asyncio

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from groundgraph.graph import DocumentGraph
from groundgraph.reason.relations import verify_relation
from groundgraph.service import MemoryService
from groundgraph.service.http_app import create_app
from groundgraph.service.mcp_server import create_mcp
from service_server import bearer, matrix_ring, running

FAMILY = [["Ann", "parent", "Bo"], ["Bo", "parent", "Cy"], ["Cy", "parent", "Di"]]
GUIDE = "# Guide\n## Setup\nInstall the tool.\n## Config\nEdit config.json to set the port."


def family_service() -> MemoryService:
    graph = DocumentGraph()
    graph.add_document(GUIDE, "Guide")
    for subject, relation, obj in FAMILY:
        graph.add_fact(subject, relation, obj)
    return MemoryService(graph)


def test_over_http_it_answers_what_the_tool_answers():
    service = family_service()
    with running(create_app(service, keys=matrix_ring())) as base:
        url = base + "/graph/verify_relation"
        claim = {"subject": "Ann", "relation": "parent", "object": "Di"}
        with_facts = httpx.post(url, json={**claim, "facts": FAMILY}, headers=bearer("alice-ro"))
        assert with_facts.status_code == 200
        assert with_facts.json() == verify_relation(FAMILY, "Ann", "parent", "Di")
        assert with_facts.json()["grounded"] is True
        broken = httpx.post(url, json={**claim, "facts": FAMILY[:1]}, headers=bearer("alice"))
        assert broken.json()["grounded"] is False
        graph_facts = httpx.post(url, json=claim, headers=bearer("admin"))
        assert graph_facts.status_code == 200
        assert (
            graph_facts.json()
            == service.graph.reasoner().verify("Ann", "Di", via="parent").as_dict()
        )
        assert graph_facts.json()["grounded"] is True
        scoped = httpx.post(url, json=claim, headers=bearer("alice"))
        assert scoped.status_code == 403 and "'*'" in scoped.json()["detail"]
        assert "Bo" not in scoped.text
    service.graph.close()


def test_its_schema_is_in_openapi_with_facts_optional():
    service = family_service()
    with running(create_app(service)) as base:
        schema = httpx.get(base + "/openapi.json").json()
        body = schema["paths"]["/graph/verify_relation"]["post"]["requestBody"]
        shape = body["content"]["application/json"]["schema"]
        assert set(shape["required"]) == {"subject", "relation", "object"}
        assert "facts" in shape["properties"]
    service.graph.close()


claims = st.fixed_dictionaries(
    {},
    optional={
        "subject": st.one_of(st.text(max_size=20), st.integers(), st.none(), st.just(" ")),
        "relation": st.one_of(st.text(max_size=20), st.lists(st.text(max_size=3), max_size=2)),
        "object": st.one_of(st.text(max_size=20), st.just("x" * 1001)),
        "facts": st.one_of(
            st.none(),
            st.text(max_size=5),
            st.lists(
                st.lists(st.one_of(st.text(max_size=5), st.integers()), max_size=4), max_size=5
            ),
        ),
        "extra": st.booleans(),
    },
)


def test_hostile_claims_get_a_clear_4xx_never_a_5xx():
    service = family_service()
    with running(create_app(service)) as base, httpx.Client(base_url=base) as client:

        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        @given(body=claims)
        def check(body):
            answer = client.post("/graph/verify_relation", json=body)
            assert answer.status_code in (200, 422), (body, answer.text)
            if answer.status_code == 200:
                assert isinstance(answer.json()["grounded"], bool)

        check()
    service.graph.close()


def test_over_mcp_verify_relation_ask_and_bridge_answer_as_the_verbs_do():
    service = family_service()

    async def run():
        async with Client(create_mcp(service), raise_exceptions=True) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert {"verify_relation", "got_ask", "got_bridge"} <= set(tools)
            assert "facts" not in tools["verify_relation"].input_schema.get("required", [])
            verdict = await client.call_tool(
                "verify_relation", {"subject": "Ann", "relation": "parent", "object": "Di"}
            )
            given_facts = await client.call_tool(
                "verify_relation",
                {"subject": "Ann", "relation": "parent", "object": "Di", "facts": FAMILY[:2]},
            )
            ask = await client.call_tool("got_ask", {"question": "How do I set the port?"})
            bridge = await client.call_tool("got_bridge", {"a": "guide#1", "b": "guide#2"})
            return verdict, given_facts, ask, bridge

    verdict, given_facts, ask, bridge = asyncio.run(run())
    assert verdict.structured_content["result"]["grounded"] is True
    assert given_facts.structured_content["result"] == verify_relation(
        FAMILY[:2], "Ann", "parent", "Di"
    )
    assert ask.structured_content["result"] == service.verb(
        "ask", {"question": "How do I set the port?"}
    )
    assert bridge.structured_content["result"] == service.verb(
        "bridge", {"a": "guide#1", "b": "guide#2"}
    )
    assert "untrusted" in ask.structured_content
    service.graph.close()
