"""The explorer's files over HTTP: served without a key under a strict
Content-Security-Policy, nothing else under /explorer/, and the page of facts it lists,
cut to the caller's key and paged, as held at an ``as_of`` time."""

from __future__ import annotations

import re

import httpx
import pytest

from groundgraph.service.http_explorer import CYTOSCAPE_STYLE, FILES, explorer_file
from service.conftest import ALICE_FACTS
from service_server import bearer

pytestmark = pytest.mark.slow


def test_the_page_and_its_files_need_no_key_and_carry_the_policy(keyed_server):
    page = httpx.get(keyed_server + "/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    for src in re.findall(r'(?:src|href)="(/explorer/[^"]+)"', page.text):
        asset = httpx.get(keyed_server + src)
        assert asset.status_code == 200, src
        assert asset.headers["content-security-policy"] == policy
    assert re.search(r"<script(?![^>]*\bsrc=)", page.text) is None  # no inline script
    assert re.search(r"\son[a-z]+=", page.text) is None  # no inline handler


def test_only_the_explorers_own_files_are_served(keyed_server):
    for name in ("../http_app.py", "..%2Fhttp_app.py", "keys.py", "index.htm"):
        assert httpx.get(keyed_server + "/explorer/" + name).status_code == 404


def test_every_file_is_in_the_package_and_cytoscape_keeps_its_licence():
    for name in FILES:
        assert explorer_file(name)
    assert b"Cytoscape Consortium" in explorer_file("LICENSE.cytoscape")
    cytoscape = explorer_file("cytoscape.min.js").decode()
    assert CYTOSCAPE_STYLE.split(" {")[0].lstrip(".") in cytoscape  # the hashed inline style
    ours = explorer_file("explorer.js").decode()
    parsers = r"\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|\beval\(|new Function"
    assert re.search(parsers, ours) is None


def test_the_fact_page_is_the_callers_own_paged_and_as_of(keyed_server):
    alice = httpx.post(keyed_server + "/facts/page", json={"limit": 2}, headers=bearer("alice"))
    page = alice.json()
    assert page["total"] == len(ALICE_FACTS) and len(page["facts"]) == 2
    rest = httpx.post(
        keyed_server + "/facts/page", json={"offset": 2}, headers=bearer("alice")
    ).json()
    texts = [f["text"] for f in page["facts"] + rest["facts"]]
    assert sorted(texts) == sorted(ALICE_FACTS)
    assert all(f["scopes"] == ["acme/alice"] for f in page["facts"])
    early = httpx.post(
        keyed_server + "/facts/page", json={"as_of": page["first"]}, headers=bearer("alice")
    ).json()
    assert early["total"] == 1 and early["facts"][0]["addedAt"] == page["first"]
    bob = httpx.post(keyed_server + "/facts/page", json={}, headers=bearer("bob")).json()
    assert not set(texts) & {f["text"] for f in bob["facts"]}
    too_many = httpx.post(
        keyed_server + "/facts/page", json={"limit": 10_000}, headers=bearer("alice")
    )
    assert too_many.status_code == 422
    assert httpx.post(keyed_server + "/facts/page", json={}).status_code == 401


def test_the_page_is_served_beside_the_mcp_transport(service):
    from groundgraph.service.http_app import create_app
    from groundgraph.service.mcp_server import create_mcp
    from service_server import matrix_ring, running

    ring = matrix_ring()
    app = create_app(
        service, keys=ring, allowed_hosts=["127.0.0.1"], mcp=create_mcp(service, keys=ring)
    )
    with running(app) as base:
        page = httpx.get(base + "/")
        assert page.status_code == 200 and "explorer.js" in page.text
        assert "content-security-policy" in page.headers
        assert httpx.post(base + "/mcp", json={}).status_code == 401
