"""The explorer's document list over a store of more documents than one page holds: it
asks the server for one page at a time (``POST /graph/documents/page``, never the whole
``/graph/documents``), shows where it is, and Next and Prev walk the pages the API gives."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explorer_store import api

from groundgraph.graph import DocumentGraph
from groundgraph.service.http_app import create_app
from groundgraph.service.memory_service import MemoryService
from service_server import matrix_ring, running

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGE = 25  # the explorer's OUTLINE_PAGE


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    graph = DocumentGraph()
    for i in range(2 * PAGE + 7):
        graph.add_document(f"# Manual {i}\nHow part {i} works.", f"Manual {i:02d}")
    service = MemoryService(graph)
    app = create_app(service, keys=matrix_ring(), allowed_hosts=["127.0.0.1"])
    with running(app) as base:
        yield base
    graph.close()


def titles(watched) -> list[str]:
    return watched.page.locator("#doc-list li button").all_inner_texts()


def test_the_document_list_is_paged_by_the_server(watched):
    first = api(watched.base, "admin", "/graph/documents/page", {"limit": PAGE})
    second = api(
        watched.base,
        "admin",
        "/graph/documents/page",
        {"limit": PAGE, "cursor": first["next_cursor"]},
    )
    watched.sign_in("admin")
    page = watched.page
    page.click("#tabs button[data-view=outline]")
    page.wait_for_selector("#doc-list li")
    watched.idle()
    assert titles(watched) == [d["title"] for d in first["documents"]]
    assert f"1–{PAGE} of {first['total']}" in page.inner_text("#doc-pager")
    page.click("#doc-pager button.next")
    page.wait_for_function(
        f"() => document.getElementById('doc-pager').innerText.includes('{PAGE + 1}–')"
    )
    watched.idle()
    assert titles(watched) == [d["title"] for d in second["documents"]]
    page.click("#doc-pager button.prev")
    page.wait_for_function("() => document.getElementById('doc-pager').innerText.includes('1–')")
    assert titles(watched) == [d["title"] for d in first["documents"]]
    asked = [u for u in watched.urls if "/graph/documents" in u]
    assert asked and all(u.endswith("/graph/documents/page") for u in asked)
    # The scope pickers are filled from one bounded page of names, never the whole list.
    names = [u for u in watched.urls if u.split("?")[0].endswith("/sessions")]
    assert names and all("limit=1000" in u for u in names)
