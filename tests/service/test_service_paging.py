"""Paged listings over a real server: ``POST /facts/page``, ``GET /sessions`` and
``POST /graph/documents/page`` hand out every item the key may see exactly once across
pages, in a stable order, never an item, count or scope name of another tenant; a bad
cursor or limit is a 422 naming the field."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from groundgraph.service.document_listing import MAX_DOCUMENT_PAGE
from groundgraph.service.http_explorer import MAX_PAGE
from groundgraph.service.http_memory import MAX_SESSION_PAGE
from service_server import bearer

pytestmark = pytest.mark.slow

ALICE, BOB = "acme/alice", "acme/bob"


def fill(service) -> None:
    for i in range(9):
        service.push(f"{ALICE}/chat-{i % 4}", f"Alice noted item {i} of the Atlas plan.")
        service.push(f"{BOB}/chat-{i % 3}", f"Bob noted secret {i} of the Zephyr deal.")
    for i in range(7):
        service.graph.add_document(f"# Guide {i}\nAtlas text {i}.", f"A{i}", scopes=[ALICE])
        service.graph.add_document(f"# Memo {i}\nZephyr text {i}.", f"B{i}", scopes=[BOB])


def pages(base: str, method: str, path: str, key: str, **ask: Any) -> list[dict[str, Any]]:
    """Every page of a listing, following ``next_cursor``."""
    found, cursor = [], None
    for _ in range(100):
        body = dict(ask, **({"cursor": cursor} if cursor else {}))
        if method == "GET":
            answer = httpx.get(base + path, params=body, headers=bearer(key))
        else:
            answer = httpx.post(base + path, json=body, headers=bearer(key))
        assert answer.status_code == 200, answer.text
        found.append(answer.json())
        cursor = found[-1]["next_cursor"]
        if cursor is None:
            return found
    raise AssertionError("the pages never ended")


def test_fact_pages_hold_each_of_the_keys_facts_once_in_order(service, keyed_server):
    fill(service)
    whole = httpx.post(
        keyed_server + "/facts/page", json={"limit": MAX_PAGE}, headers=bearer("alice")
    )
    every = whole.json()["facts"]
    walked = pages(keyed_server, "POST", "/facts/page", "alice", limit=4)
    ids = [f["id"] for page in walked for f in page["facts"]]
    assert ids == [f["id"] for f in every] and len(set(ids)) == len(ids) == 12
    assert [(f["addedAt"], f["id"]) for f in every] == sorted(
        (f["addedAt"], f["id"]) for f in every
    )
    assert {page["total"] for page in walked} == {12}
    text = str(walked)
    assert "Zephyr" not in text and BOB not in text
    bob = pages(keyed_server, "POST", "/facts/page", "bob", limit=5)
    assert not set(ids) & {f["id"] for page in bob for f in page["facts"]}
    admin = pages(keyed_server, "POST", "/facts/page", "admin", limit=7)
    assert admin[0]["total"] == 24 and sum(len(p["facts"]) for p in admin) == 24


def test_session_pages_hold_each_visible_session_once(service, keyed_server):
    fill(service)
    whole = httpx.get(keyed_server + "/sessions", headers=bearer("alice")).json()
    assert set(whole) == {"sessions"}  # the unpaged answer keeps ReasonGraph's shape
    walked = pages(keyed_server, "GET", "/sessions", "alice", limit=2)
    names = [n for page in walked for n in page["sessions"]]
    assert names == whole["sessions"] == sorted(set(names))
    assert ALICE in names and all(n.startswith(ALICE) for n in names) and len(names) == 5
    stats = httpx.get(keyed_server + "/stats", headers=bearer("alice")).json()
    assert stats["sessions"] == len(names) and stats["facts"] == 12


def test_document_pages_hold_each_readable_document_once(service, keyed_server):
    fill(service)
    walked = pages(keyed_server, "POST", "/graph/documents/page", "alice", limit=3)
    rows = [d for page in walked for d in page["documents"]]
    listed = httpx.get(keyed_server + "/graph/documents", headers=bearer("alice")).json()
    # the same documents as the unpaged verb (documents of the key's scope and above, the
    # facts of its own scope among them), each once, oldest first
    assert sorted(d["docId"] for d in rows) == sorted(d["docId"] for d in listed)
    assert len({d["docId"] for d in rows}) == len(rows) == len(listed)
    assert [(d["addedAt"], d["docId"]) for d in rows] == sorted(
        (d["addedAt"], d["docId"]) for d in rows
    )
    assert {d["title"] for d in rows} >= {f"A{i}" for i in range(7)}
    assert {page["total"] for page in walked} == {len(listed)}
    assert {d["docId"]: d["nodes"] for d in rows} == {d["docId"]: d["nodes"] for d in listed}
    assert "Zephyr" not in str(walked) and not any(d["title"].startswith("B") for d in rows)
    plain = pages(keyed_server, "POST", "/graph/documents/page", "alice", limit=4, facts=False)
    kept = [d["docId"] for page in plain for d in page["documents"]]
    assert kept == [d["docId"] for d in rows if not d["docId"].startswith("fact:")]
    assert len(kept) == 7 and {page["total"] for page in plain} == {7}
    admin = pages(keyed_server, "POST", "/graph/documents/page", "admin", limit=10)
    assert admin[0]["total"] == len(service.graph.documents())
    named = httpx.post(
        keyed_server + "/graph/documents/page", json={"scopes": [BOB]}, headers=bearer("alice")
    )
    assert named.status_code == 403


def test_the_documents_verb_answers_a_page_and_says_where_the_next_is(service, keyed_server):
    fill(service)
    paged = pages(keyed_server, "POST", "/graph/documents/page", "alice", limit=MAX_DOCUMENT_PAGE)
    every = [d for page in paged for d in page["documents"]]
    walked, link, cursor = [], None, None
    for method in ("GET", "POST", "GET", "POST", "GET", "POST", "GET", "POST"):
        ask = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        if method == "GET":
            answer = httpx.get(
                keyed_server + "/graph/documents", params=ask, headers=bearer("alice")
            )
        else:
            answer = httpx.post(
                keyed_server + "/graph/documents", json=ask, headers=bearer("alice")
            )
        assert answer.status_code == 200, answer.text
        assert isinstance(answer.json(), list) and len(answer.json()) <= 3
        assert answer.headers["x-total-count"] == str(len(every))
        walked += answer.json()
        cursor = answer.headers.get("x-next-cursor")
        link = answer.headers.get("link", link)
        if cursor is None:
            assert "link" not in answer.headers
            break
    assert walked == every and len(every) > 6  # each once, in the order of the pages
    assert link is not None and link.endswith('>; rel="next"')
    followed = httpx.get(keyed_server + link[1 : link.index(">")], headers=bearer("alice"))
    assert followed.status_code == 200 and followed.json()
    # a caller that passes nothing reads the first page of the default size
    plain = httpx.get(keyed_server + "/graph/documents", headers=bearer("alice"))
    assert plain.json() == every[: len(plain.json())] and "x-next-cursor" not in plain.headers
    bob = httpx.post(
        keyed_server + "/graph/documents", json={"scopes": BOB}, headers=bearer("alice")
    )
    assert bob.status_code == 403


@pytest.mark.parametrize(
    ("method", "path", "cap"),
    [
        ("POST", "/facts/page", MAX_PAGE),
        ("GET", "/sessions", MAX_SESSION_PAGE),
        ("POST", "/graph/documents/page", MAX_DOCUMENT_PAGE),
        ("GET", "/graph/documents", MAX_DOCUMENT_PAGE),
        ("POST", "/graph/documents", MAX_DOCUMENT_PAGE),
    ],
)
def test_bad_limits_and_cursors_are_422_naming_the_field(keyed_server, method, path, cap):
    def ask(**body: Any) -> httpx.Response:
        if method == "GET":
            return httpx.get(keyed_server + path, params=body, headers=bearer("alice"))
        return httpx.post(keyed_server + path, json=body, headers=bearer("alice"))

    for limit in (0, cap + 1, -3):
        answer = ask(limit=limit)
        assert answer.status_code == 422, answer.text
        assert "limit" in answer.text
    assert str(cap) in ask(limit=cap + 1).text
    for cursor in ("not a cursor!", "bm90IGpzb24", "WzEsMl0", "W10", "x" * 5000):
        answer = ask(cursor=cursor)
        assert answer.status_code == 422, (cursor, answer.text)
        assert "cursor" in answer.text


def test_an_offset_too_large_to_bind_is_422_not_a_server_error(keyed_server):
    # found by the schema fuzz run: 10**30 overflowed SQLite's integer binding
    for offset in (10**30, 2**63, -1):
        answer = httpx.post(
            keyed_server + "/facts/page", json={"offset": offset}, headers=bearer("alice")
        )
        assert answer.status_code == 422, answer.text
        assert "offset" in answer.text
    answer = httpx.post(
        keyed_server + "/facts/page", json={"offset": 10**6}, headers=bearer("alice")
    )
    assert answer.status_code == 200 and answer.json()["facts"] == []
