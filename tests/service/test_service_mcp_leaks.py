"""Leak test through MCP: random tenants, facts and keys bound to different scopes; random
calls of every reading tool through the SDK's client, in-process over the streamable HTTP
app (so each call passes the real key check). Nothing of a fact a key may not see (its
text, its id, a name only it mentions, a scope name) comes back in any tool result, error
or not, and ``list_sessions`` names exactly the key's own sessions."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from groundgraph.service import Access, ApiKey, KeyRing, hash_key
from groundgraph.service.http_app import create_app
from groundgraph.service.mcp_server import create_mcp
from leak_tenants import (
    NAMES,
    PHRASES,
    PLACES,
    Hidden,
    asked_texts,
    build,
    hidden_from,
    near_miss,
)

pytestmark = pytest.mark.slow

#: The tools a key bound to scopes may not call at all (they read every document): each
#: call must be refused, and its error must not leak either. The document views run as
#: the key's scopes: another scope's id is unknown to them.
EVERY_DOCUMENT = {"verify_relation"}
#: How a view says an id is unknown (the same for another scope's id as for a made-up one).
UNKNOWN = ("unknown node", "unknown document", "no node, entity or indexed word")


def tool_calls(
    rng: random.Random, session: str, texts: list[str], ids: list[str]
) -> list[tuple[str, dict[str, Any]]]:
    words = [*PHRASES, *NAMES, *PLACES]
    query = " ".join(rng.sample(words, 3))
    fact, fact_id = rng.choice(texts), rng.choice(ids)
    phrase = rng.choice(PHRASES)
    sess = rng.choice([None, session])
    return [
        ("query_memory", {"query": query, "top_k": 10, "session": sess}),
        ("query_memory_detailed", {"query": query, "top_k": 10, "session": sess}),
        ("query_memory", {"query": query, "isolate": False}),
        ("discover_connections", {"query": query, "top_k": 10, "session": sess}),
        ("answer", {"query": query, "session": sess}),
        ("trace_memory", {"content": phrase, "session": sess}),
        ("trace_memory", {"content": phrase, "direction": "causes"}),
        ("what_if_memory", {"content": fact}),
        ("what_if_memory", {"content": phrase, "direction": "causes", "session": sess}),
        ("causal_chain_memory", {"from_text": phrase, "to_text": rng.choice(PHRASES)}),
        ("memory_history", {"text": rng.choice([fact, fact_id])}),
        ("list_sessions", {}),
        ("got_search", {"query": query, "max_results": 20}),
        ("got_ask", {"question": query}),
        # why_not's reason repeats the query's terms: asked without names, it says none.
        ("got_why_not", {"query": phrase, "target": fact_id, "max_results": 3}),
        ("got_why_not", {"query": phrase, "target": near_miss(fact_id)}),
        ("got_read_node", {"node_id": fact_id}),
        ("got_outline", {"doc_id": fact_id}),
        ("got_bridge", {"a": fact_id, "b": rng.choice(ids)}),
        # ground_answer lists the claim's words it found no support for: asked without
        # names, it repeats none of them.
        ("ground_answer", {"answer": f"{phrase} caused {rng.choice(PHRASES)}."}),
        ("ground_answer", {"answer": f"{phrase} happened.", "node_ids": [fact_id]}),
        ("got_list_documents", {}),
        ("verify_relation", {"subject": rng.choice(NAMES), "relation": "met", "object": "x"}),
    ]


def keyed(rng: random.Random, seed: int, scopes: list[str]) -> tuple[dict[str, Access], KeyRing]:
    """Three read-only keys, each bound to one or two random scopes."""
    keys: dict[str, Access] = {}
    ring = []
    for i in range(3):
        bound = tuple(sorted(rng.sample(scopes, rng.choice([1, 2]))))
        secret = f"mcp-leak-key-{seed}-{i}-{rng.randrange(10**9)}"
        keys[secret] = Access(bound, False, f"k{i}")
        ring.append(ApiKey(f"k{i}", hash_key(secret), bound, False))
    return keys, KeyRing(ring)


def reason(result: Any) -> str:
    """Why a tool call was refused: it reads every document, or names nothing it may read."""
    text = result.content[0].text
    if "reads or changes every document" in text:
        return "every document"
    if "in the memory this call may read" in text or any(u in text for u in UNKNOWN):
        return "not found"
    return text


def assert_nothing_hidden(shown: str, shut: Hidden, ids: list[str], where: tuple) -> None:
    for text in shut.texts:
        assert text not in shown, (*where, text)
    for fact_id in ids:
        assert fact_id not in shown, (*where, fact_id)
    for name in shut.names:
        assert name.lower() not in shown.lower(), (*where, name)
    for scope in shut.scopes:
        assert scope not in shown, (*where, scope)


async def probe(
    app: Any, secret: str, rng: random.Random, calls: list[list[tuple[str, dict[str, Any]]]]
) -> list[tuple[str, dict[str, Any], Any]]:
    """Each call's tool, arguments and result, as the key ``secret`` (sent in either of
    the two key headers)."""
    header = rng.choice([{"Authorization": f"Bearer {secret}"}, {"X-API-Key": secret}])
    transport = httpx2.ASGITransport(app=app)
    results = []
    async with (
        httpx2.AsyncClient(transport=transport, headers=header) as http,
        Client(streamable_http_client("http://127.0.0.1/mcp", http_client=http)) as client,
    ):
        for batch in calls:
            for name, arguments in batch:
                sent = {k: v for k, v in arguments.items() if v is not None}
                results.append((name, sent, await client.call_tool(name, sent)))
    return results


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_tool_result_holds_anything_of_another_scope(seed):
    rng = random.Random(seed)
    service, scopes, truth = build(rng)
    fact_ids = {text: service.graph.fact(text).fact_id for text in truth}
    keys, ring = keyed(rng, seed, scopes)
    mcp = create_mcp(service, keys=ring)
    app = create_app(service, keys=ring, mcp=mcp)
    texts, ids = sorted(truth), sorted(fact_ids.values())

    async def every_key() -> dict[str, list[tuple[str, dict[str, Any], Any]]]:
        async with mcp.session_manager.run():  # as the app's lifespan does
            found = {}
            for secret, access in keys.items():
                assert access.scopes is not None
                calls = [tool_calls(rng, rng.choice(access.scopes), texts, ids) for _ in range(3)]
                found[secret] = await probe(app, secret, rng, calls)
            return found

    answers = asyncio.run(every_key())
    for secret, access in keys.items():
        shut = hidden_from(access, truth, scopes)
        hidden_ids = [fact_ids[text] for text in shut.texts]
        sessions: set[str] = set()
        for name, sent, result in answers[secret]:
            if name in EVERY_DOCUMENT or result.is_error:
                assert result.is_error and reason(result) == (
                    "every document" if name in EVERY_DOCUMENT else "not found"
                ), (name, sent, result.content)
            shown = result.model_dump_json()
            for said in asked_texts(sent):
                shown = shown.replace(json.dumps(said)[1:-1], "")
            assert_nothing_hidden(shown, shut, hidden_ids, (name, sent, access.scopes))
            if name == "list_sessions":
                sessions = set(result.structured_content["result"])
        assert sessions == {s for t in shut.seen for s in truth[t] if access.sees_scope(s)}
    service.graph.close()


def test_the_probe_would_see_a_leak():
    """The check is not blind: an unscoped key's answers do hold other tenants' facts."""
    rng = random.Random(7)
    service, scopes, truth = build(rng)
    fact_ids = {text: service.graph.fact(text).fact_id for text in truth}
    secret = "mcp-leak-admin-key-0123456789"
    ring = KeyRing([ApiKey("admin", hash_key(secret), None, False)])
    mcp = create_mcp(service, keys=ring)
    app = create_app(service, keys=ring, mcp=mcp)
    calls = [[("query_memory", {"query": " ".join(PHRASES), "top_k": 50})]]

    async def run() -> list[tuple[str, dict[str, Any], Any]]:
        async with mcp.session_manager.run():
            return await probe(app, secret, rng, calls)

    shown = asyncio.run(run())[0][2].model_dump_json()
    one_scope = Access((scopes[0],), False, "one")
    shut = hidden_from(one_scope, truth, scopes)
    assert shut.texts
    with pytest.raises(AssertionError):
        assert_nothing_hidden(shown, shut, [fact_ids[t] for t in shut.texts], ("admin",))
    service.graph.close()


def never_stored(text: str) -> str:
    """A text, fact id or entity id of the same form that names nothing in the memory."""
    if text.startswith("fact:"):
        return "fact:" + "0" * (len(text) - len("fact:"))
    if text.startswith("entity:"):
        return "entity:zz" + text.removeprefix("entity:")
    return "Zz" + text


def masked(result: Any, said: str) -> tuple[str, list[str]]:
    """The result with the asked text masked, apart from the ids ``got_why_not``
    suggests (they depend on the spelling asked; each must be one the key may see)."""
    structured = json.loads(json.dumps(result.structured_content))
    found = structured.get("result") if isinstance(structured, dict) else None
    near = list(found.pop("nearest", [])) if isinstance(found, dict) else []
    errors = [c.text for c in result.content] if result.is_error else []
    shown = json.dumps([result.is_error, errors, structured])
    return shown.replace(json.dumps(said)[1:-1], "<asked>"), near


@pytest.mark.parametrize("seed", [4, 5])
def test_another_scopes_fact_is_answered_as_one_never_stored(seed):
    """Naming another tenant's fact (by text or id) gets the answer a fact nobody stored
    gets: no result tells whether another scope holds it."""
    rng = random.Random(seed)
    service, scopes, truth = build(rng)
    fact_ids = {text: service.graph.fact(text).fact_id for text in truth}
    keys, ring = keyed(rng, seed, scopes)
    mcp = create_mcp(service, keys=ring)
    app = create_app(service, keys=ring, mcp=mcp)
    asked: dict[str, list[tuple[str, str, str]]] = {}
    for secret, access in keys.items():
        shut = hidden_from(access, truth, scopes)
        chosen = rng.sample(shut.texts, min(4, len(shut.texts)))
        asked[secret] = [
            (tool, argument, named)
            for text in chosen
            for named in (text, fact_ids[text])
            for tool, argument in (
                ("memory_history", "text"),
                ("what_if_memory", "content"),
                ("trace_memory", "content"),
                ("got_why_not", "target"),
            )
        ]
        asked[secret] += [
            ("got_why_not", "target", f"entity:{name.lower()}") for name in sorted(shut.names)
        ]
    assert any(asked.values())

    def calls(secret: str) -> list[list[tuple[str, dict[str, Any]]]]:
        extra = {"got_why_not": {"query": "the flood", "max_results": 3}}
        return [
            [
                (tool, {**extra.get(tool, {}), argument: said})
                for said in (named, never_stored(named))
            ]
            for tool, argument, named in asked[secret]
        ]

    async def every_key() -> dict[str, list[tuple[str, dict[str, Any], Any]]]:
        async with mcp.session_manager.run():
            return {secret: await probe(app, secret, rng, calls(secret)) for secret in keys}

    answers = asyncio.run(every_key())
    for secret, access in keys.items():
        seen_ids = {fact_ids[t] for t in hidden_from(access, truth, scopes).seen}
        results = answers[secret]
        for (tool, argument, named), real, fake in zip(
            asked[secret], results[::2], results[1::2], strict=True
        ):
            (shown, near), (other, near_other) = (
                masked(real[2], named),
                masked(fake[2], never_stored(named)),
            )
            assert shown == other, (tool, argument, named)
            assert set(near) | set(near_other) <= seen_ids, (tool, named, near, near_other)
    service.graph.close()
