"""The HTTP API on a real uvicorn: ReasonGraph's routes and shapes, keys, limits, Host and
Origin checks, CORS, probes, and verb routes whose bodies are the CLI's ``--json``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import httpx
import pytest

from groundgraph.graph import DocumentGraph
from groundgraph.service import Limits, MemoryService
from groundgraph.service.http_app import create_app
from groundgraph.service.http_verbs import HTTP_VERBS, verb_path
from service.conftest import ALICE_FACTS, BOB_FACTS
from service_server import bearer, running

pytestmark = pytest.mark.slow

ALICE_KEY = bearer("alice")


def test_probes_are_open_and_say_nothing_of_the_configuration(keyed_server):
    assert httpx.get(keyed_server + "/health").json() == {"status": "ok", "worker": os.getpid()}
    assert httpx.get(keyed_server + "/ready").json() == {"ready": True}


def test_a_route_without_a_key_is_401_with_a_challenge(keyed_server):
    answer = httpx.get(keyed_server + "/stats")
    assert answer.status_code == 401
    assert answer.json() == {"detail": "invalid or missing API key"}
    assert answer.headers["www-authenticate"] == "Bearer"
    wrong = httpx.get(keyed_server + "/stats", headers={"X-API-Key": "nope"})
    assert wrong.status_code == 401


def test_bearer_and_x_api_key_both_carry_the_key(keyed_server):
    by_bearer = httpx.get(keyed_server + "/stats", headers=ALICE_KEY).json()
    by_header = httpx.get(
        keyed_server + "/stats", headers={"X-API-Key": ALICE_KEY["Authorization"][7:]}
    ).json()
    assert by_bearer == by_header and by_bearer["facts"] == len(ALICE_FACTS)


def test_reasongraph_shapes_round_trip(keyed_server):
    base, key = keyed_server, ALICE_KEY
    pushed = httpx.post(
        base + "/sessions/acme/alice/memory",
        json={"text": "The Atlas launch moved to March."},
        headers=key,
    )
    assert pushed.status_code == 200, pushed.text  # a session may hold slashes
    pushed = httpx.post(
        base + "/sessions/acme%2Falice/memory",
        json={"text": "The Atlas launch moved to March."},  # or quoted
        headers=key,
    )
    assert pushed.status_code == 200, pushed.text
    assert pushed.json()["session"] == "acme/alice" and pushed.json()["duplicate"]
    batch = httpx.post(
        base + "/sessions/acme%2Falice/memory/batch",
        json={"texts": ["The Atlas demo is on Friday.", "The Atlas budget is approved."]},
        headers=key,
    ).json()
    assert batch["count"] == 2 and len(batch["entities"]) == 2
    query = httpx.post(base + "/query", json={"query": "Atlas launch"}, headers=key).json()
    assert query["facts"][0] == "The Atlas launch moved to March."
    detailed = httpx.post(
        base + "/query", json={"query": "Atlas launch", "detailed": True}, headers=key
    ).json()
    assert {"content", "score", "created_at", "scopes"} <= set(detailed["facts"][0])
    discover = httpx.post(base + "/discover", json={"query": "flood"}, headers=key).json()
    assert {"content", "scopes", "cross_session", "causes", "path"} <= set(
        discover["connections"][0]
    )
    trace = httpx.post(base + "/trace", json={"content": "Heavy rain"}, headers=key).json()
    assert set(trace) >= {"origin", "chain", "terminals"}
    assert {"cause", "effect", "fact", "depth", "scopes", "cross_session"} <= set(trace["chain"][0])
    what_if = httpx.post(base + "/what_if", json={"content": ALICE_FACTS[0]}, headers=key).json()
    assert set(what_if) >= {"pruned", "origin", "pruned_edges", "collapsed", "survived"}
    chain = httpx.post(
        base + "/causal_chain",
        json={"from_content": ALICE_FACTS[0], "to_content": "the road closure"},
        headers=key,
    ).json()
    assert set(chain) == {"from", "to", "chain"} and chain["chain"]
    new = "Alice leads the Atlas team in Porto."
    sup = httpx.post(
        base + "/supersede",
        json={"session": "acme/alice", "old_text": ALICE_FACTS[2], "new_text": new},
        headers=key,
    ).json()
    assert sup == {"superseded": True, "new": new}
    history = httpx.post(base + "/history", json={"text": new}, headers=key).json()
    assert history == {"supersedes": [ALICE_FACTS[2]], "superseded_by": []}
    facts = httpx.post(base + "/facts", json={"texts": [new]}, headers=key).json()
    assert facts["facts"][0]["stored"] and facts["pending"] == 0
    assert httpx.get(base + "/sessions", headers=key).json() == {"sessions": ["acme/alice"]}
    assert httpx.post(base + "/delete", json={"text": new}, headers=key).json() == {"deleted": True}
    assert httpx.post(base + "/forget", headers=key).json() == {"deleted": 0}
    gone = httpx.request("DELETE", base + "/sessions/acme%2Falice", headers=key).json()
    assert gone["deleted"] >= 1
    assert httpx.get(base + "/stats", headers=key).json()["facts"] == 0


def test_errors_are_json_with_the_right_status(keyed_server):
    base, key = keyed_server, ALICE_KEY
    denied = httpx.post(base + "/query", json={"query": "x", "session": "acme/bob"}, headers=key)
    assert denied.status_code == 403 and "acme/alice" in denied.json()["detail"]
    missing = httpx.post(base + "/trace", json={"content": "no such thing at all"}, headers=key)
    assert missing.status_code == 404
    bad = httpx.post(base + "/query", json={"query": "x", "as_of": "yesterday"}, headers=key)
    assert bad.status_code == 422
    unknown = httpx.post(base + "/query", json={"query": "x", "sesion": "a"}, headers=key)
    assert unknown.status_code == 422 and "sesion" in unknown.text


def test_a_write_is_answered_after_it_is_committed(tmp_path):
    path = tmp_path / "memory.db"
    with MemoryService(path=path) as service, running(create_app(service)) as base:
        answer = httpx.post(base + "/sessions/s/memory", json={"text": "Heavy rain fell."})
        assert answer.status_code == 200
        other = DocumentGraph(path)  # another connection, as another process would
        try:
            assert other.query("rain", scopes=["s"]) == ["Heavy rain fell."]
        finally:
            other.close()


def test_get_routes_change_nothing(keyed_server, service):
    admin = bearer("admin")
    before = (service.graph.stats().to_dict(), service.stats())
    schema = httpx.get(keyed_server + "/openapi.json").json()
    gets = [path for path, methods in schema["paths"].items() if "get" in methods]
    assert {"/sessions", "/stats", "/graph/documents", "/graph/stats"} <= set(gets)
    for path in gets:
        answer = httpx.get(keyed_server + path, headers=admin)
        # a route with an id in its path (GET /jobs/{job_id}) answers 404 for a made-up one
        assert answer.status_code == (404 if "{" in path else 200), path
    assert (service.graph.stats().to_dict(), service.stats()) == before


def test_openapi_holds_the_memory_routes_and_the_verbs_schemas(keyed_server):
    schema = httpx.get(keyed_server + "/openapi.json").json()
    paths = schema["paths"]
    memory = ("/sessions/{session}/memory", "/sessions/{session}/memory/batch", "/query")
    for route in (*memory, "/discover", "/trace", "/what_if"):
        assert route in paths
    for name in HTTP_VERBS:
        assert verb_path(name) in paths, name
    body = paths["/graph/search"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"]["required"] == ["query"]
    assert "max_results" in body["schema"]["properties"]


def test_limits_name_the_field_and_the_limit():
    limits = Limits(max_body_bytes=2000, max_text_chars=100, max_query_chars=50, max_list_items=3)
    with MemoryService() as service, running(create_app(service, limits=limits)) as base:
        long_text = httpx.post(base + "/sessions/s/memory", json={"text": "x" * 101})
        assert long_text.status_code == 422
        detail = long_text.json()["detail"][0]
        assert detail["loc"] == ["body", "text"] and detail["ctx"]["limit"] == 100
        many = httpx.post(base + "/sessions/s/memory/batch", json={"texts": ["a"] * 4})
        assert many.status_code == 422 and "'texts'" in many.text and "3" in many.text
        query = httpx.post(base + "/graph/search", json={"query": "q" * 51})
        assert query.status_code == 422 and "query" in query.text and "50" in query.text
        big = httpx.post(base + "/sessions/s/memory", content=b"{" + b" " * 3000 + b"}")
        assert big.status_code == 413 and "2,000 bytes" in big.json()["detail"]

        def chunks():
            yield b'{"text": "'
            yield b"y" * 3000
            yield b'"}'

        streamed = httpx.post(
            base + "/sessions/s/memory",
            content=chunks(),
            headers={"content-type": "application/json"},
        )
        assert streamed.status_code == 413
        assert httpx.get(base + "/stats").json()["facts"] == 0


def test_host_and_origin_are_checked(keyed_server):
    wrong_host = httpx.get(keyed_server + "/health", headers={"Host": "evil.example"})
    assert wrong_host.status_code == 421 and "GROUNDGRAPH_ALLOWED_HOSTS" in wrong_host.text
    foreign = httpx.get(
        keyed_server + "/stats", headers={**ALICE_KEY, "Origin": "https://evil.example"}
    )
    assert foreign.status_code == 403 and "Origin" in foreign.text
    own = httpx.get(keyed_server + "/stats", headers={**ALICE_KEY, "Origin": keyed_server})
    assert own.status_code == 200
    assert "access-control-allow-origin" not in own.headers  # CORS is off


def test_cors_answers_only_the_configured_origins():
    site = "https://app.example"
    with (
        MemoryService() as service,
        running(create_app(service, cors_origins=[site])) as base,
    ):
        preflight = httpx.options(
            base + "/query",
            headers={"Origin": site, "Access-Control-Request-Method": "POST"},
        )
        assert preflight.headers["access-control-allow-origin"] == site
        assert "access-control-allow-credentials" not in preflight.headers
        other = httpx.options(
            base + "/query",
            headers={"Origin": "https://other.example", "Access-Control-Request-Method": "POST"},
        )
        assert other.status_code == 403
    with pytest.raises(Exception, match="refused"):
        create_app(MemoryService(), cors_origins=["*"])


def test_verb_routes_answer_what_the_cli_prints_with_json(tmp_path, monkeypatch):
    path = tmp_path / "docs.db"
    graph = DocumentGraph(path)
    graph.add_document(
        "# Guide\n## Setup\nInstall the tool.\n## Config\nEdit config.json to set the port.",
        "Guide",
    )
    graph.close()
    commands = {
        "search": (["search", "config port", "--json"], {"query": "config port"}),
        "show": (["show", "guide#2", "--json"], {"node_id": "guide#2"}),
    }
    with MemoryService(path=path) as service, running(create_app(service)) as base:
        for name, (argv, body) in commands.items():
            printed = subprocess.run(
                [sys.executable, "-m", "groundgraph", "--db", str(path), *argv],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            served = httpx.post(base + verb_path(name), json=body)
            assert served.status_code == 200, served.text
            assert served.json() == json.loads(printed), name


def test_a_scoped_key_searches_and_lists_only_its_own(keyed_server):
    hits = httpx.post(
        keyed_server + "/graph/search", json={"query": "flood Zephyr"}, headers=ALICE_KEY
    ).json()
    assert hits and {h["content"] for h in hits} <= set(ALICE_FACTS)
    assert not {h["content"] for h in hits} & set(BOB_FACTS)
    listed = httpx.get(keyed_server + "/graph/documents", headers=ALICE_KEY)
    assert listed.status_code == 200 and len(listed.json()) == len(ALICE_FACTS)
    counted = httpx.get(keyed_server + "/graph/stats", headers=ALICE_KEY)
    assert counted.status_code == 403 and "every scope" in counted.json()["detail"]
    other = httpx.post(
        keyed_server + "/graph/search",
        json={"query": "flood", "scopes": ["acme/bob"]},
        headers=ALICE_KEY,
    )
    assert other.status_code == 403


def test_a_read_over_the_time_limit_is_504_and_a_write_is_never_cut():
    with (
        MemoryService() as service,
        running(create_app(service, limits=Limits(timeout_seconds=1e-9))) as base,
    ):
        pushed = httpx.post(base + "/sessions/s/memory", json={"text": "Heavy rain fell."})
        assert pushed.status_code == 200
        slow = httpx.post(base + "/query", json={"query": "rain"})
        assert slow.status_code == 504 and "took over" in slow.json()["detail"]
        assert service.facts(["Heavy rain fell."])["facts"][0]["stored"]


def test_a_sentence_two_tenants_hold_is_deleted_and_replaced_per_tenant(keyed_server):
    # Before, Alice's /delete of a sentence Bob also held was a 403: it told her he had it.
    base, bob = keyed_server, bearer("bob")
    own = "Alice keeps her own note on the Atlas budget."
    for text in (BOB_FACTS[0], own):
        pushed = httpx.post(
            base + "/sessions/acme/alice/memory", json={"text": text}, headers=ALICE_KEY
        )
        assert pushed.status_code == 200
    answers = [
        httpx.post(base + "/delete", json={"text": text}, headers=ALICE_KEY)
        for text in (BOB_FACTS[0], own)
    ]
    assert [(a.status_code, a.json()) for a in answers] == [(200, {"deleted": True})] * 2
    httpx.post(base + "/sessions/acme/alice/memory", json={"text": BOB_FACTS[1]}, headers=ALICE_KEY)
    replaced = httpx.post(
        base + "/supersede",
        json={
            "session": "acme/alice",
            "old_text": BOB_FACTS[1],
            "new_text": "Bob dropped the Zephyr merger.",
        },
        headers=ALICE_KEY,
    )
    assert replaced.status_code == 200 and replaced.json()["superseded"] is True

    def facts(key: dict[str, str], query: str) -> list[str]:
        return httpx.post(base + "/query", json={"query": query, "top_k": 20}, headers=key).json()[
            "facts"
        ]

    assert BOB_FACTS[0] not in facts(ALICE_KEY, "power cut server outage")
    assert BOB_FACTS[0] in facts(bob, "power cut server outage")
    assert "Bob dropped the Zephyr merger." in facts(ALICE_KEY, "Zephyr merger")
    assert BOB_FACTS[1] in facts(bob, "Zephyr merger")
    assert "Bob dropped the Zephyr merger." not in facts(bob, "Zephyr merger")
