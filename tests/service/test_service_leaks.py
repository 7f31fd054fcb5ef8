"""Leak test: random tenants, facts and keys; random reads through every reading route on a
real uvicorn. Nothing of a fact a key may not see (its text, a name only it mentions, a
scope name) comes back in any JSON, and the counts are those of the key's own facts."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from groundgraph.model.ids import fact_id
from groundgraph.service import Access, ApiKey, KeyRing, hash_key
from groundgraph.service.http_app import create_app
from leak_tenants import NAMES, PHRASES, PLACES, asked_texts, build, hidden_from, near_miss
from service_server import running

pytestmark = pytest.mark.slow


def requests(rng: random.Random, session: str, texts: list[str]) -> list[tuple[str, str, dict]]:
    words = [*PHRASES, *NAMES, *PLACES]
    query = " ".join(rng.sample(words, 3))
    fact = rng.choice(texts)
    phrase = rng.choice(PHRASES)
    sess = rng.choice([None, session])
    return [
        ("POST", "/query", {"query": query, "top_k": 10, "detailed": True, "session": sess}),
        ("POST", "/query", {"query": query, "isolate": False, "synthesize": True}),
        ("POST", "/discover", {"query": query, "max_results": 20, "session": sess}),
        ("POST", "/trace", {"content": phrase, "session": sess}),
        ("POST", "/trace", {"content": phrase, "direction": "causes"}),
        ("POST", "/what_if", {"content": fact}),
        ("POST", "/causal_chain", {"from_content": phrase, "to_content": rng.choice(PHRASES)}),
        ("POST", "/history", {"text": fact}),
        ("POST", "/facts", {"texts": rng.sample(texts, 5)}),
        ("GET", "/sessions", {}),
        ("GET", "/stats", {}),
        ("POST", "/graph/search", {"query": query, "max_results": 20}),
        ("POST", "/graph/retrieve", {"query": query}),
        ("POST", "/graph/ask", {"question": query}),
        # the document views, on facts (one-node documents) of any scope
        ("POST", "/graph/documents", {}),
        ("POST", "/graph/show", {"node_id": fact_id(fact)}),
        ("POST", "/graph/node", {"node_id": fact_id(fact)}),
        ("POST", "/graph/outline", {"doc_id": fact_id(fact)}),
        ("POST", "/graph/bridge", {"a": rng.choice(NAMES), "b": rng.choice(PLACES), "k": 5}),
        ("POST", "/graph/bridge", {"a": fact_id(fact), "b": phrase.split()[-1]}),
        ("POST", "/graph/ground", {"answer": f"{phrase} caused {rng.choice(PHRASES)}."}),
        ("POST", "/graph/why_not", {"query": phrase, "target": fact_id(fact)}),
        # why_not's reason repeats the query's terms: asked without names, it says none.
        ("POST", "/graph/why_not", {"query": phrase, "target": near_miss(fact_id(fact))}),
    ]


@pytest.mark.parametrize("seed", [1, 2])
def test_no_answer_holds_anything_of_another_scope(seed):
    rng = random.Random(seed)
    service, scopes, truth = build(rng)
    keys = {}
    ring = []
    for i in range(3):
        bound = tuple(sorted(rng.sample(scopes, rng.choice([1, 2]))))
        secret = f"leak-key-{seed}-{i}-{rng.randrange(10**9)}"
        keys[secret] = Access(bound, False, f"k{i}")
        ring.append(ApiKey(f"k{i}", hash_key(secret), bound, False))
    texts = sorted(truth)
    with running(create_app(service, keys=KeyRing(ring))) as base:
        for secret, access in keys.items():
            shut = hidden_from(access, truth, scopes)
            hidden, seen, names, hidden_scopes = shut.texts, shut.seen, shut.names, shut.scopes
            headers = {"Authorization": f"Bearer {secret}"}
            assert access.scopes is not None
            for _ in range(3):
                session = rng.choice(access.scopes)
                for method, path, body in requests(rng, session, texts):
                    sent = {k: v for k, v in body.items() if v is not None}
                    answer = httpx.request(method, base + path, json=sent or None, headers=headers)
                    assert answer.status_code in (200, 404), (path, answer.text)
                    shown = answer.text
                    for said in asked_texts(sent):
                        shown = shown.replace(json.dumps(said)[1:-1], "")
                    where = (path, sent, access.scopes)
                    for text in hidden:
                        assert text not in shown, (*where, text)
                        assert fact_id(text) not in shown, (*where, fact_id(text))
                    for name in names:
                        assert name.lower() not in shown.lower(), (*where, name)
                    for scope in hidden_scopes:
                        assert scope not in shown, (*where, scope)
            stats = httpx.get(base + "/stats", headers=headers).json()
            assert stats["facts"] == len(seen)
            sessions = httpx.get(base + "/sessions", headers=headers).json()["sessions"]
            assert set(sessions) == {s for t in seen for s in truth[t] if access.sees_scope(s)}
    service.graph.close()
