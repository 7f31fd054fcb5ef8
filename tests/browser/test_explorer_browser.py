"""The web explorer in a real chromium against a real uvicorn, with API keys on: the key
asked once, search and the hit's path drawn, a node, an outline, a bridge, the memory
(facts, as_of, trace, what_if, contradictions), grounding and a reasoning result.

What each view must show is read from the same HTTP API with the same key, never written
into the test.
"""

from __future__ import annotations

import json

import pytest
from explorer_store import api

from service_server import MATRIX_KEYS
from thought_fakes import Scripted, answer, make_graph, thoughts

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NODES = "() => window.groundgraphExplorer.graphs[{name!r}].nodes().map(n => n.id())"
# Pixels cytoscape drew in a view's canvases (non-transparent), summed over its layers.
INKED = """(name) => {
  let inked = 0;
  for (const canvas of document.querySelectorAll('#' + name + '-graph canvas')) {
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked += 1;
  }
  return inked;
}"""


def drawn(watched, name: str) -> list[str]:
    watched.page.wait_for_function(
        f"() => window.groundgraphExplorer.graphs[{name!r}] && "
        f"window.groundgraphExplorer.graphs[{name!r}].nodes().length > 0"
    )
    watched.page.wait_for_function(
        INKED.replace("(name) =>", "() => (name =>") + f")({name!r}) > 50"
    )
    return watched.page.evaluate(NODES.format(name=name))


def test_the_key_is_asked_once_kept_in_the_tab_and_never_put_in_a_url(watched):
    watched.sign_in("alice")
    page = watched.page
    assert (
        page.evaluate("() => sessionStorage.getItem('groundgraph.key')") == MATRIX_KEYS["alice"][0]
    )
    before = len(watched.urls)
    page.reload()
    page.wait_for_selector("#forget-key:not([hidden])")
    assert page.is_hidden("#key-panel")
    key = MATRIX_KEYS["alice"][0]
    assert not any(key in url for url in watched.urls)
    after = zip(watched.urls[before:], watched.headers[before:], strict=True)
    api_calls = [h for u, h in after if u.split("?")[0].endswith("/sessions")]
    assert api_calls and all(h.get("authorization") == f"Bearer {key}" for h in api_calls)


def test_a_wrong_key_is_refused_and_asked_again(watched):
    page = watched.page
    page.goto(watched.base + "/")
    page.fill("#key-input", "not-a-key")
    page.click("#key-form button")
    page.wait_for_function(
        "() => document.getElementById('key-message').textContent.includes('not accepted')"
    )
    assert page.is_visible("#key-panel")
    assert page.evaluate("() => sessionStorage.getItem('groundgraph.key')") is None


def test_search_explains_each_hit_and_draws_the_path_of_the_one_selected(watched):
    watched.sign_in("admin")
    page = watched.page
    page.fill("#search-query", "config fails")
    page.click("#search-form button")
    page.wait_for_selector("#search-hits li.hit")
    hits = api(watched.base, "admin", "/graph/search", {"query": "config fails", "max_results": 50})
    shown = page.locator("#search-hits li.hit")
    assert shown.count() == min(len(hits), 10)
    walked = next(h for h in hits if h["hops"] >= 1)
    item = page.locator(f"#search-hits li[data-node='{walked['nodeId']}']")
    assert walked["edgeType"] in item.inner_text() and "hop" in item.inner_text()
    assert "direct match" in shown.first.inner_text()
    item.locator(".hit-title").click()
    watched.idle()
    nodes = drawn(watched, "search")
    assert set(walked["path"]) <= set(nodes)
    view = api(watched.base, "admin", "/graph/show", {"node_id": walked["nodeId"]})
    neighbours = {link["nodeId"] for link in view["links"]} | {
        c["nodeId"] for c in view["children"]
    }
    assert neighbours <= set(nodes)
    classes = page.evaluate(
        "() => Object.fromEntries(window.groundgraphExplorer.graphs.search.nodes()"
        ".map(n => [n.id(), n.classes()]))"
    )
    assert all("path" in classes[n] for n in walked["path"])
    assert all("dim" in classes[n] for n in neighbours - set(walked["path"]))
    assert "hit" in classes[walked["nodeId"]]
    watched.shot("search")


def test_a_scoped_key_searches_its_facts_and_sees_no_other_tenant(watched):
    watched.sign_in("alice")
    page = watched.page
    page.fill("#search-query", "flood valley")
    page.click("#search-form button")
    page.wait_for_selector("#search-hits li.hit")
    watched.idle()
    assert "Heavy rain" in page.inner_text("#search-hits")
    assert "Zephyr" not in page.content()
    # the hit's neighbourhood is drawn too, cut to what Alice's key reads
    hit = api(watched.base, "alice", "/graph/search", {"query": "flood valley"})[0]
    view = api(watched.base, "alice", "/graph/show", {"node_id": hit["nodeId"]})
    page.locator(f"#search-hits li[data-node='{hit['nodeId']}'] .hit-title").click()
    watched.idle()
    nodes = set(drawn(watched, "search"))
    assert {link["nodeId"] for link in view["links"]} <= nodes and view["links"]
    everyone = {d["docId"] for d in api(watched.base, "admin", "/graph/documents")}
    hers = {d["docId"] for d in api(watched.base, "alice", "/graph/documents")}
    assert not nodes & (everyone - hers)
    assert "every scope" not in page.inner_text("#search-legend")


def test_a_node_shows_its_text_parent_children_links_and_entities(watched):
    watched.sign_in("admin")
    page = watched.page
    hits = api(watched.base, "admin", "/graph/search", {"query": "Acme Corp wrote config"})
    target = hits[0]["nodeId"]
    view = api(watched.base, "admin", "/graph/show", {"node_id": target})
    page.click("#tabs button[data-view=node]")
    page.fill("#node-id", target)
    page.click("#node-form button")
    page.wait_for_selector("#node-panel .node-title")
    watched.idle()
    assert page.inner_text("#node-panel .content") == view["content"]
    assert view["parentTitle"] in page.inner_text("#node-panel")
    entities = [link for link in view["links"] if link["nodeId"].startswith("entity:")]
    assert entities
    watched.shot("node")
    entity = entities[0]["nodeId"]
    page.click(f"#node-panel .entities button[title='{entity}']")
    page.wait_for_function(
        f"() => document.querySelector('#node-panel .meta')?.textContent.includes({entity!r})"
    )
    watched.idle()
    assert page.inner_text("#node-panel .node-title") == entities[0]["title"]


def test_why_not_on_a_node_says_where_it_fell_out_and_what_brings_it_in(watched):
    watched.sign_in("admin")
    page = watched.page
    query = "Acme Corp wrote config"
    found = {h["nodeId"] for h in api(watched.base, "admin", "/graph/search", {"query": query})}
    listed = api(watched.base, "admin", "/graph/documents", {})
    outlines = [
        api(watched.base, "admin", "/graph/outline", {"doc_id": d["docId"]}) for d in listed
    ]
    ids = [line.split("[", 1)[1].split("]", 1)[0] for o in outlines for line in o.splitlines()]
    target = next(i for i in ids if i not in found)  # a section the search did not return
    expected = api(watched.base, "admin", "/graph/why_not", {"query": query, "target": target})
    page.click("#tabs button[data-view=node]")
    page.fill("#node-id", target)
    page.click("#node-form button")
    page.wait_for_selector("#node-panel .node-title")
    page.fill("#node-panel .why-query", query)
    page.click("#node-panel .why-not button")
    page.wait_for_selector("#node-panel .why-stage")
    watched.idle()
    assert page.inner_text("#node-panel .why-stage") == f"{expected['stage']}: {expected['reason']}"
    change = expected["counterfactual"]
    if change and change["parameter"]:
        assert f"rank {change['rank']}" in page.inner_text("#node-panel .why-change")


def test_the_outline_lists_documents_and_opens_their_sections(watched):
    watched.sign_in("admin")
    page = watched.page
    page.click("#tabs button[data-view=outline]")
    page.wait_for_selector("#doc-list li")
    watched.idle()
    assert "Setup guide" in page.inner_text("#doc-list")
    page.click("#doc-list button:text('Setup guide')")
    page.wait_for_selector("#outline-tree li")
    outline = api(watched.base, "admin", "/graph/outline", {"doc_id": "setup"})
    assert page.locator("#outline-tree li").count() == len(str(outline).splitlines())
    watched.shot("outline")
    page.click("#outline-tree button:text('Troubleshooting')")
    page.wait_for_selector("#node-panel .node-title:text('Troubleshooting')")


def test_a_bridge_cites_the_sentence_of_each_hop(watched):
    watched.sign_in("admin")
    page = watched.page
    page.click("#tabs button[data-view=bridge]")
    page.fill("#bridge-a", "Acme Corp")
    page.fill("#bridge-b", "Bob Smith")
    page.click("#bridge-form button")
    page.wait_for_selector("#bridge-paths .bridge-path")
    watched.idle()
    paths = api(watched.base, "admin", "/graph/bridge", {"a": "Acme Corp", "b": "Bob Smith"})
    assert page.locator("#bridge-paths .bridge-path").count() == len(paths)
    assert paths[0]["hops"][0]["support"]["text"] in page.inner_text("#bridge-paths")
    assert set(drawn(watched, "bridge")) == set(paths[0]["nodes"])
    watched.shot("bridge")


def open_memory(watched, key: str) -> None:
    watched.sign_in(key)
    watched.page.click("#tabs button[data-view=memory]")
    watched.page.wait_for_selector("#memory-facts li.fact")
    watched.idle()


def test_memory_lists_only_the_keys_facts_and_marks_the_retired(watched):
    open_memory(watched, "alice")
    page = watched.page
    listed = api(watched.base, "alice", "/facts/page", {"limit": 200})
    assert page.locator("#memory-facts li.fact").count() == min(listed["total"], 10)
    assert "Zephyr" not in page.content()
    retired = [f for f in listed["facts"] if f["retiredAt"]]
    assert page.locator("#memory-facts li.retired").count() == len(retired) > 0


def test_the_as_of_slider_shows_the_memory_as_it_stood(watched):
    open_memory(watched, "alice")
    page = watched.page
    listed = api(watched.base, "alice", "/facts/page", {"limit": 200})
    page.fill("#memory-asof", "0")
    page.dispatch_event("#memory-asof", "change")
    watched.idle()
    page.wait_for_function(
        "() => document.getElementById('memory-asof-label').textContent !== 'now'"
    )
    early = api(
        watched.base, "alice", "/facts/page", {"as_of": page.inner_text("#memory-asof-label")}
    )
    page.wait_for_function(
        f"() => document.querySelectorAll('#memory-facts li.fact').length === {len(early['facts'])}"
    )
    assert early["total"] < listed["total"]


def test_a_trace_is_drawn_both_ways_and_the_ledger_listed(watched):
    open_memory(watched, "alice")
    page = watched.page
    for content, direction in (("the road closure", "causes"), ("Heavy rain", "effects")):
        page.fill("#trace-content", content)
        page.select_option("#trace-direction", direction)
        page.click("#trace-form button[type=submit]")
        page.wait_for_selector("#trace-chain li.hop")
        watched.idle()
        trace = api(watched.base, "alice", "/trace", {"content": content, "direction": direction})
        assert page.locator("#trace-chain li.hop").count() == len(trace["chain"]) > 0
        nodes = drawn(watched, "trace")
        ends = {
            "span:" + hop[side].lower() for hop in trace["chain"] for side in ("cause", "effect")
        }
        assert ends <= set(nodes)
    page.click("#conflicts-load")
    page.wait_for_selector("#conflicts li")
    watched.idle()
    ledger = api(watched.base, "alice", "/graph/conflicts")
    assert ledger and ledger[0]["old"]["content"] in page.inner_text("#conflicts")
    assert ledger[0]["new"]["content"] in page.inner_text("#conflicts")
    watched.shot("memory")


def test_what_if_marks_the_collapsed_and_the_surviving_effects(watched):
    open_memory(watched, "alice")
    page = watched.page
    first = api(watched.base, "alice", "/facts/page")["facts"][0]["text"]
    page.locator("#memory-facts li.fact").first.locator("button:text('what if false')").click()
    page.wait_for_selector("#whatif h3")
    watched.idle()
    what_if = api(watched.base, "alice", "/what_if", {"content": first})
    assert what_if["collapsed"]
    assert page.locator("#whatif li.collapsed").count() == len(what_if["collapsed"])
    assert page.locator("#whatif li.survived").count() == len(what_if["survived"])
    assert drawn(watched, "trace")


def test_grounding_colours_each_sentence_by_its_support(watched):
    watched.sign_in("admin")
    page = watched.page
    text = "The config file is read at start. The moon is made of green cheese."
    page.click("#tabs button[data-view=grounding]")
    page.fill("#ground-answer", text)
    page.click("#ground-form button")
    page.wait_for_selector("#ground-claims li.claim")
    watched.idle()
    found = api(watched.base, "admin", "/graph/ground", {"answer": text})
    verdicts = page.eval_on_selector_all(
        "#ground-claims li.claim", "els => els.map(e => e.dataset.verdict)"
    )
    assert [v == "supported" for v in verdicts] == [c["supported"] for c in found["claims"]]
    assert page.locator("#ground-text .sentence").count() == len(found["claims"])
    assert page.inner_text("#ground-text") == text
    backing = found["claims"][0]["evidence"][0]["text"]
    assert backing in page.inner_text("#ground-claims")
    watched.shot("grounding")


def test_a_reason_result_shows_its_thought_graph(watched, tmp_path):
    edit = "Edit config.json to customize settings."
    moon = "The moon is made of cheese."
    llm = Scripted(thoughts(edit, moon), answer(edit))
    from groundgraph.reason.thought import GroundedGraphOfThought

    result = GroundedGraphOfThought(make_graph(), llm, max_llm_calls=2).reason("My config fails?")
    saved = tmp_path / "reason.json"
    saved.write_text(json.dumps(result.to_dict()), encoding="utf-8")
    watched.sign_in("admin")
    page = watched.page
    page.click("#tabs button[data-view=reasoning]")
    page.set_input_files("#reason-file", str(saved))
    page.click("#reason-form button")
    watched.idle()
    nodes = drawn(watched, "reason")
    assert set(nodes) == {f"thought:{t.thought_id}" for t in result.thoughts}
    edges = page.evaluate("() => window.groundgraphExplorer.graphs.reason.edges().length")
    assert edges == sum(len(t.parents) for t in result.thoughts)
    assert result.answer in page.inner_text("#reason-detail")
    watched.shot("reasoning")
