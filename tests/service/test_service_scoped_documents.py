"""Documents bound to scopes, through a real uvicorn and the MCP SDK's client: Alice's and
Bob's keys each add documents (read by their own scope), then every graph verb, called
with each key, returns nothing of the other's documents (ids, text, titles, scope names)
nor of a document without scopes; and another tenant's id gets exactly the answer an
unknown id gets, so a key cannot probe for it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser

from groundgraph.graph import DocumentGraph
from groundgraph.service import Access, MemoryService
from groundgraph.service.http_app import create_app
from groundgraph.service.mcp_server import KeyVerifier, create_mcp
from service.conftest import ALICE_FACTS
from service_server import MATRIX_KEYS, bearer, matrix_ring, running

pytestmark = pytest.mark.slow

ATLAS = (
    "# Atlas\n\nThe Atlas rollout runs on Kestrel servers in Lisbon.\n\n"
    "## Deploy\n\nDeploy Atlas with the Kestrel tool and check the Lisbon racks."
)
ZEPHYR = (
    "# Zephyr\n\nThe Zephyr merger runs on Kestrel servers in Porto, as the Atlas handbook "
    "says.\n\n## Price\n\nQuenby set the Zephyr price at 42 million in Porto."
)
PUBLIC = "# Notes\n\nMarlow keeps the Kestrel servers of Braga running."
#: What each tenant's answers may never hold: the other's ids, titles and words.
SECRETS = {
    "alice": ("zephyr", "quenby", "porto", "42 million", "acme/bob", "marlow", "braga", "notes"),
    "bob": ("atlas-handbook", "lisbon", "deploy", "acme/alice", "marlow", "braga", "notes"),
}
#: A key bound to scopes adds in its scopes' name space ("acme/alice~" + the id it gave).
OWN = {"alice": "acme/alice~atlas-handbook", "bob": "acme/bob~zephyr-plan"}
UNKNOWN = {"alice": "acme/bob~zephyr-plbn", "bob": "acme/alice~atlas-handbokk"}
FOREIGN = {"alice": OWN["bob"], "bob": OWN["alice"]}
#: Words of both tenants' documents (no secret of either: answers may repeat them).
QUESTION = "Kestrel servers merger price racks rollout"
ANSWER = "The merger price was set on the Kestrel servers. The rollout runs on Kestrel servers."


def leaked(who: str, body: Any) -> list[str]:
    text = json.dumps(body).lower()
    return [secret for secret in SECRETS[who] if secret in text]


def serve_documents(
    stack: ExitStack, documents: list[tuple[str, str, str]]
) -> tuple[str, MemoryService]:
    """A keyed server (HTTP and MCP) with each document added by the key named, and the
    notes without scopes: its base URL and its service."""
    service = MemoryService(DocumentGraph())
    stack.callback(service.close)
    ring = matrix_ring()
    mcp = create_mcp(service, writes=True, keys=ring)
    app = create_app(service, keys=ring, allowed_hosts=["127.0.0.1"], mcp=mcp)
    base = stack.enter_context(running(app))
    for who, content, title in documents:
        body = {"content": content, "title": title}
        added = httpx.post(base + "/graph/add_document", json=body, headers=bearer(who))
        assert added.status_code == 200, added.text
    service.graph.add_document(PUBLIC, "Notes")  # no scopes: only '*' reads it
    return base, service


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, MemoryService]]:
    with ExitStack() as stack:
        both = [("alice", ATLAS, "Atlas handbook"), ("bob", ZEPHYR, "Zephyr plan")]
        yield serve_documents(stack, both)


@pytest.fixture(scope="module")
def alone() -> Iterator[dict[str, str]]:
    """Per tenant, a server holding only its own document: the other's never added."""
    with ExitStack() as stack:
        yield {
            "alice": serve_documents(stack, [("alice", ATLAS, "Atlas handbook")])[0],
            "bob": serve_documents(stack, [("bob", ZEPHYR, "Zephyr plan")])[0],
        }


def reads(who: str) -> list[tuple[str, dict[str, Any]]]:
    own = OWN[who]
    return [
        ("search", {"query": QUESTION, "max_results": 20}),
        ("search", {"query": QUESTION, "max_hops": 4, "max_seeds": 20, "min_score": 0.01}),
        ("retrieve", {"query": QUESTION}),
        ("ask", {"question": QUESTION}),
        ("why_not", {"query": QUESTION, "target": f"{own}#2", "max_results": 1}),
        ("outline", {"doc_id": own}),
        ("show", {"node_id": f"{own}#1"}),
        ("show", {"node_id": "entity:kestrel"}),
        ("node", {"node_id": f"{own}#1"}),
        ("node", {"node_id": "entity:kestrel"}),
        ("bridge", {"a": "Kestrel", "b": "servers", "k": 5, "max_hops": 4}),
        ("bridge", {"a": f"{own}#1", "b": "entity:kestrel", "k": 5}),
        ("ground", {"answer": ANSWER}),
        ("ground", {"answer": ANSWER, "query": QUESTION}),
        ("ground", {"answer": ANSWER, "node_ids": [f"{own}#1", f"{own}#2"]}),
        ("documents", {}),
    ]


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_each_graph_verb_shows_only_the_keys_documents(server, who):
    base, _ = server
    for verb, body in reads(who):
        answer = httpx.post(f"{base}/graph/{verb}", json=body, headers=bearer(who))
        assert answer.status_code == 200, (verb, answer.text)
        assert not leaked(who, answer.json()), (verb, body, leaked(who, answer.json()))
    listed = httpx.get(base + "/graph/documents", headers=bearer(who)).json()
    assert [d["docId"] for d in listed] == [OWN[who]]
    hits = httpx.post(base + "/graph/search", json={"query": "Kestrel"}, headers=bearer(who))
    assert hits.json() and {h["docId"] for h in hits.json()} <= {OWN[who], ""}


def test_the_documents_carry_the_scope_of_the_key_that_added_them(server):
    _, service = server
    scopes = {d.doc_id: d.scopes for d in service.graph.store.reads.documents()}
    assert scopes == {OWN["alice"]: ("acme/alice",), OWN["bob"]: ("acme/bob",), "notes": ()}


def test_an_admin_key_reads_every_document(server):
    base, _ = server
    listed = httpx.get(base + "/graph/documents", headers=bearer("admin")).json()
    assert {d["docId"] for d in listed} == {OWN["alice"], OWN["bob"], "notes"}
    found = httpx.post(base + "/graph/search", json={"query": "Quenby"}, headers=bearer("admin"))
    assert any("Quenby" in h["content"] for h in found.json())


def probes(name: str) -> list[tuple[str, dict[str, Any]]]:
    """Requests naming the id ``name`` (a document id; ``#1`` is its first section)."""
    return [
        ("outline", {"doc_id": name}),
        ("node", {"node_id": f"{name}#1"}),
        ("show", {"node_id": f"{name}#1"}),
        ("show", {"node_id": name}),
        ("bridge", {"a": f"{name}#1", "b": "entity:kestrel"}),
        ("ground", {"answer": ANSWER, "node_ids": [f"{name}#1"]}),
        ("why_not", {"query": QUESTION, "target": f"{name}#1"}),
        ("why_not", {"query": QUESTION, "target": name}),
    ]


def same_shape(body: str, name: str) -> str:
    return body.replace(name, "<id>")


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_another_tenants_id_is_answered_as_an_unknown_id(server, who):
    base, _ = server
    for (verb, foreign), (_, unknown) in zip(
        probes(FOREIGN[who]), probes(UNKNOWN[who]), strict=True
    ):
        a = httpx.post(f"{base}/graph/{verb}", json=foreign, headers=bearer(who))
        b = httpx.post(f"{base}/graph/{verb}", json=unknown, headers=bearer(who))
        assert a.status_code == b.status_code, (verb, a.text, b.text)
        assert same_shape(a.text, FOREIGN[who]) == same_shape(b.text, UNKNOWN[who]), verb
        assert not leaked(who, json.loads(same_shape(a.text, FOREIGN[who]))), verb
    # an entity named only in the other tenant's document does not exist for this key
    only = "entity:quenby" if who == "alice" else "entity:deploy atlas"
    a = httpx.post(base + "/graph/node", json={"node_id": only}, headers=bearer(who))
    b = httpx.post(base + "/graph/node", json={"node_id": "entity:nobody"}, headers=bearer(who))
    assert (a.status_code, same_shape(a.text, only)) == (404, same_shape(b.text, "entity:nobody"))
    a = httpx.post(
        base + "/graph/bridge",
        json={"a": "Quenby" if who == "alice" else "Lisbon", "b": "Kestrel"},
        headers=bearer(who),
    )
    b = httpx.post(
        base + "/graph/bridge", json={"a": "Nobodyatall", "b": "Kestrel"}, headers=bearer(who)
    )
    assert a.status_code == b.status_code == 404


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_another_tenants_id_is_answered_as_if_it_were_not_there(server, alone, who):
    base, _ = server
    for verb, body in probes(FOREIGN[who]):
        shared = httpx.post(f"{base}/graph/{verb}", json=body, headers=bearer(who))
        single = httpx.post(f"{alone[who]}/graph/{verb}", json=body, headers=bearer(who))
        assert (shared.status_code, shared.text) == (single.status_code, single.text), verb


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_a_scoped_search_moves_no_figure_for_another_tenants_documents(server, alone, who):
    """Scores, BM25 parts (tf, idf) and paths of a scoped search are those of a store that
    never held the other tenant's document: no count of theirs can be read off them."""
    base, _ = server
    for verb, body in [
        ("search", {"query": QUESTION, "max_results": 20}),
        ("search", {"query": "Kestrel servers", "max_hops": 4, "min_score": 0.01}),
        ("retrieve", {"query": QUESTION}),
        ("ask", {"question": QUESTION}),
        ("ground", {"answer": ANSWER}),
        ("ground", {"answer": ANSWER, "query": QUESTION}),
    ]:
        shared = httpx.post(f"{base}/graph/{verb}", json=body, headers=bearer(who))
        single = httpx.post(f"{alone[who]}/graph/{verb}", json=body, headers=bearer(who))
        assert shared.status_code == single.status_code == 200
        assert shared.json() == single.json(), verb
    hits = httpx.post(base + "/graph/search", json={"query": QUESTION}, headers=bearer(who))
    assert any(term["idf"] > 0 for hit in hits.json() for term in hit["terms"])
    found = asyncio.run(over_http(base, who, [("got_search", {"query": QUESTION})]))
    again = asyncio.run(over_http(alone[who], who, [("got_search", {"query": QUESTION})]))
    assert found == again and not found[0].startswith("error")


def test_removing_another_tenants_document_is_removing_an_unknown_one(server):
    base, service = server
    for doc_id in (FOREIGN["alice"], "zephyr-plan"):
        foreign = httpx.post(
            base + "/graph/remove_document", json={"doc_id": doc_id}, headers=bearer("alice")
        )
        unknown = httpx.post(
            base + "/graph/remove_document",
            json={"doc_id": UNKNOWN["alice"]},
            headers=bearer("alice"),
        )
        assert (
            (foreign.status_code, foreign.json())
            == (unknown.status_code, unknown.json())
            == (200, None)
        )
    assert service.graph.store.reads.get_document(OWN["bob"]) is not None


def test_a_key_adds_only_as_scopes_it_may_name(server):
    base, _ = server
    body = {"content": "# X\nhello", "title": "Elsewhere", "scopes": ["acme/bob"]}
    refused = httpx.post(base + "/graph/add_document", json=body, headers=bearer("alice"))
    assert refused.status_code == 403
    read_only = httpx.post(base + "/graph/add_document", json=body, headers=bearer("alice-ro"))
    assert read_only.status_code == 403


# ----------------------------------------------------------------- MCP
TOOLS = [
    ("got_search", {"query": QUESTION, "max_results": 20}),
    ("got_ask", {"question": QUESTION}),
    ("got_list_documents", {}),
    ("got_bridge", {"a": "Kestrel", "b": "servers", "max_hops": 4, "k": 5}),
    ("ground_answer", {"answer": ANSWER}),
    ("got_read_node", {"node_id": "entity:kestrel"}),
]


def own_tools(who: str) -> list[tuple[str, dict[str, Any]]]:
    own = OWN[who]
    return [
        *TOOLS,
        ("got_outline", {"doc_id": own}),
        ("got_read_node", {"node_id": f"{own}#1"}),
        ("got_why_not", {"query": QUESTION, "target": f"{own}#2", "max_results": 1}),
    ]


def tool_probes(name: str) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("got_outline", {"doc_id": name}),
        ("got_read_node", {"node_id": f"{name}#1"}),
        ("got_bridge", {"a": f"{name}#1", "b": "entity:kestrel"}),
        ("ground_answer", {"answer": ANSWER, "node_ids": [f"{name}#1"]}),
        ("got_why_not", {"query": QUESTION, "target": name}),
    ]


def shown(result: Any) -> str:
    if result.is_error:
        return "error: " + " ".join(getattr(c, "text", "") for c in result.content)
    return json.dumps(result.structured_content)


async def call_tools(client: Client, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [shown(await client.call_tool(name, arguments)) for name, arguments in calls]


async def in_process(service: MemoryService, who: str, calls: list) -> list[str]:
    """The tools called in-process as ``who``'s key (the token the server's auth would set)."""
    ring = matrix_ring()
    token = await KeyVerifier(ring).verify_token(MATRIX_KEYS[who][0])
    assert token is not None
    reset = auth_context_var.set(AuthenticatedUser(token))
    try:
        async with Client(create_mcp(service, writes=True, keys=ring)) as client:
            return await call_tools(client, calls)
    finally:
        auth_context_var.reset(reset)


async def over_http(base: str, who: str, calls: list) -> list[str]:
    headers = {"Authorization": f"Bearer {MATRIX_KEYS[who][0]}"}
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(base + "/mcp", http_client=http)) as client,
    ):
        return await call_tools(client, calls)


@pytest.mark.parametrize("who", ["alice", "bob"])
@pytest.mark.parametrize("transport", ["in-process", "http"])
def test_each_graph_tool_shows_only_the_keys_documents(server, who, transport):
    base, service = server

    def run(calls: list) -> list[str]:
        if transport == "http":
            return asyncio.run(over_http(base, who, calls))
        return asyncio.run(in_process(service, who, calls))

    calls = own_tools(who)
    for (name, arguments), answer in zip(calls, run(calls), strict=True):
        assert not answer.startswith("error"), (name, answer)
        assert not leaked(who, answer), (name, arguments, leaked(who, answer))
    foreign, unknown = run(tool_probes(FOREIGN[who])), run(tool_probes(UNKNOWN[who]))
    for (name, _), a, b in zip(tool_probes(FOREIGN[who]), foreign, unknown, strict=True):
        assert same_shape(a, FOREIGN[who]) == same_shape(b, UNKNOWN[who]), name


def test_why_not_answers_another_tenants_fact_as_if_it_were_not_there(service):
    """Before documents took scopes, ``why_not`` named a fact of Bob's as "outside the
    scopes read" and suggested Bob's fact ids for a mistyped one. Now Alice's key gets for
    Bob's fact id what it gets from a store where that fact was never added."""
    alone = MemoryService(DocumentGraph())
    for text in ALICE_FACTS:
        alone.push("acme/alice", text)
    alice = Access(("acme/alice",), True)
    bob = sorted(d.doc_id for d in service.graph.store.reads.documents() if "acme/bob" in d.scopes)
    for target in (*bob, bob[0][:-3] + "xyz", "entity:zephyr"):
        body = {"query": "flood valley", "target": target}
        found = service.verb("why_not", body, access=alice)
        assert found == alone.verb("why_not", body, access=alice), target
        assert found["stage"] == "missing" and not set(found["nearest"]) & set(bob)
    alone.close()


def test_an_admin_key_gets_what_the_scoped_keys_are_kept_from(server):
    """The reads above do reach both tenants' documents: only the scopes keep them apart."""
    base, _ = server
    reached = []
    for verb, body in reads("alice"):
        answer = httpx.post(f"{base}/graph/{verb}", json=body, headers=bearer("admin"))
        reached.append(bool(leaked("alice", answer.json())))
    assert sum(reached) >= 8, reached


# ------------------------------------------------------- writes on another tenant's id
TIMES = ("addedAt", "created_at", "createdAt")


def _without_times(body: Any) -> Any:
    """An answer with its times left out (two servers add at other times)."""
    if isinstance(body, dict):
        return {k: _without_times(v) for k, v in body.items() if k not in TIMES}
    if isinstance(body, list):
        return [_without_times(v) for v in body]
    return body


def _alices_section(base: str) -> Any:
    node = {"node_id": OWN["alice"] + "#1"}
    answer = httpx.post(base + "/graph/node", json=node, headers=bearer("alice"))
    assert answer.status_code == 200, answer.text
    return answer.json()


def _bobs_writes(base: str) -> list[Any]:
    """Bob's key adds, replaces, reads and removes documents named as Alice's are (her
    title, her stored id), over HTTP: every answer, status and body."""

    def post(verb: str, body: dict[str, Any]) -> Any:
        answer = httpx.post(f"{base}/graph/{verb}", json=body, headers=bearer("bob"))
        return answer.status_code, _without_times(answer.json())

    found = []
    for named in ({"title": "Atlas handbook"}, {"title": "Mine", "doc_id": OWN["alice"]}):
        first = post("add_document", {"content": "# Bob's\nBob keeps notes.", **named})
        found.append(first)
        doc_id = first[1]["doc_id"]
        replaced = post("add_document", {"content": "# Bob's\nBob v2.", **named, "doc_id": doc_id})
        found += [replaced, post("outline", {"doc_id": doc_id})]
        found += [post("node", {"node_id": f"{doc_id}#1"}), post("documents", {})]
        found += [post("remove_document", {"doc_id": doc_id})]
        found += [post("remove_document", {"doc_id": doc_id}), post("outline", {"doc_id": doc_id})]
    return found


def test_writing_under_another_tenants_id_answers_as_for_a_fresh_id():
    """Bob's writes under Alice's title and Alice's stored id answer exactly what they
    answer on a server where Alice never added anything, and leave her document as it was."""
    with ExitStack() as stack:
        shared, service = serve_documents(
            stack, [("alice", ATLAS, "Atlas handbook"), ("bob", ZEPHYR, "Zephyr plan")]
        )
        fresh, _ = serve_documents(stack, [("bob", ZEPHYR, "Zephyr plan")])
        before = _alices_section(shared)
        answers = _bobs_writes(shared)
        assert answers == _bobs_writes(fresh)
        assert (
            answers[0] == (200, answers[0][1])
            and answers[0][1]["doc_id"] == "acme/bob~atlas-handbook"
        )
        text = json.dumps(answers).lower()  # Bob named her title and id himself, no more
        assert not any(word in text for word in ("lisbon", "deploy", "rollout"))
        assert _alices_section(shared) == before and "Lisbon" in before["content"]
        assert service.graph.store.reads.get_document(OWN["alice"]).scopes == ("acme/alice",)


async def _bobs_tool_writes(base: str) -> list[str]:
    headers = {"Authorization": f"Bearer {MATRIX_KEYS['bob'][0]}"}
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(base + "/mcp", http_client=http)) as client,
    ):
        found = []
        added = await client.call_tool(
            "got_add_document", {"title": "Atlas handbook", "content": "# Bob's\nBob notes."}
        )
        found.append(shown(added))
        doc_id = added.structured_content["result"]["doc_id"]
        for name, arguments in [
            ("got_add_document", {"title": "Atlas handbook", "content": "# Bob's\nBob v2."}),
            ("got_outline", {"doc_id": doc_id}),
            ("got_read_node", {"node_id": f"{doc_id}#1"}),
            ("got_remove_document", {"doc_id": doc_id}),
            ("got_remove_document", {"doc_id": OWN["alice"]}),
            ("got_outline", {"doc_id": OWN["alice"]}),
        ]:
            found.append(shown(await client.call_tool(name, arguments)))
        return [json.dumps(_without_times(json.loads(a))) if a[0] == "{" else a for a in found]


def test_mcp_writes_under_another_tenants_id_answer_as_for_a_fresh_id():
    with ExitStack() as stack:
        shared, _ = serve_documents(
            stack, [("alice", ATLAS, "Atlas handbook"), ("bob", ZEPHYR, "Zephyr plan")]
        )
        fresh, _ = serve_documents(stack, [("bob", ZEPHYR, "Zephyr plan")])
        answers = asyncio.run(_bobs_tool_writes(shared))
        assert answers == asyncio.run(_bobs_tool_writes(fresh))
        assert not answers[0].startswith("error") and "acme/bob~atlas-handbook" in answers[0]
        assert "Lisbon" in _alices_section(shared)["content"]
