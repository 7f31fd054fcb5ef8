"""Saved graphs: the graph-of-thought v2 JSON format."""

from __future__ import annotations

import json

import pytest

from groundgraph import DocumentGraph, FormatError
from saved_graphs import BROKEN_SAVED_GRAPHS, OTHER_FORMATS, graph_state, memory_graph


def test_seed_format_example_round_trips():
    graph = DocumentGraph()
    text = (
        "# FAQ\n\n## Refunds\nMoney back within 30 days.\n\n## Shipping\nSee Refunds for returns."
    )
    graph.add_document(text, "FAQ")
    data = graph.to_json()
    assert data["format"] == "graph-of-thought" and data["version"] == 2
    assert data["documents"][0]["nodeIds"] == ["faq", "faq#1", "faq#2"]
    assert data["documents"][0]["rootId"] == "faq"
    node = data["nodes"][1]
    assert {k: node[k] for k in ("nodeId", "title", "content", "type", "level", "parentId")} == {
        "nodeId": "faq#1",
        "title": "Refunds",
        "content": "Money back within 30 days.",
        "type": "section",
        "level": 2,
        "parentId": "faq",
    }
    edges = {(e["from"], e["to"], e["type"], e["weight"]) for e in data["edges"]}
    assert edges == {
        ("faq", "faq#1", "parent-child", 0.8),
        ("faq", "faq#2", "parent-child", 0.8),
        ("faq#2", "faq#1", "reference", 0.75),
    }


def test_round_trip_gives_identical_search_results(kitchen, garden, guide):
    graph = DocumentGraph()
    for text, title in ((kitchen, "Kitchen Notes"), (garden, "Garden Log"), (guide, "User Guide")):
        graph.add_document(text, title)
    data = json.loads(json.dumps(graph.to_json()))
    copy = DocumentGraph.from_json(data)
    for query in ("config fails", "flour", "tomatoes pantry", "bake bread"):
        assert [h.to_dict() for h in copy.search(query)] == [
            h.to_dict() for h in graph.search(query)
        ]
    # The same edges (semantic ones are derived last, so they are listed in another order).
    assert sorted(map(json.dumps, copy.to_json()["edges"])) == sorted(
        map(json.dumps, data["edges"])
    )


@pytest.mark.parametrize(("data", "message"), OTHER_FORMATS)
def test_other_formats_are_refused(data, message):
    with pytest.raises(FormatError, match=message):
        DocumentGraph.from_json(data)


def test_memory_survives_a_round_trip():
    graph = memory_graph()
    data = json.loads(json.dumps(graph.to_json()))
    copy = DocumentGraph.from_json(data)
    assert graph_state(copy) == graph_state(graph)
    for scopes in (["team/a"], ["team/b"], None):
        assert copy.query("Where does Ana live?", scopes=scopes) == graph.query(
            "Where does Ana live?", scopes=scopes
        )
    assert copy.query("Where does Ana live?", scopes=["team/a"]) == ["Ana lives in Porto."]
    effects = copy.trace_effects("Heavy rain", scopes=["team/b"])
    assert effects == graph.trace_effects("Heavy rain", scopes=["team/b"])
    assert [step["effect"] for step in effects["chain"]][-1] == "damage to the archive boxes"
    # Before the Porto fact, Ana lived in Lisbon: the history came along.
    lisbon = next(e for e in copy.store.ledger.fact_events() if e.kind == "invalidated")
    before = copy.store.reads.get_nodes([lisbon.fact_id])[lisbon.fact_id].created_at
    assert copy.query("Where does Ana live?", as_of=before) == ["Ana lives in Lisbon."]
    assert graph.query("Where does Ana live?", as_of=before) == ["Ana lives in Lisbon."]


def test_a_plain_v2_file_still_loads_with_its_evidence_rebuilt(kitchen):
    graph = DocumentGraph()
    graph.add_document(kitchen, "Kitchen Notes")
    data = graph.to_json()
    del data["groundgraph"]
    copy = DocumentGraph.from_json(data)
    rebuilt = {
        (e.source, e.target, e.type, e.sources, e.spans) for e in copy.store.reads.iter_edges()
    }
    saved = {
        (e.source, e.target, e.type, e.sources, e.spans) for e in graph.store.reads.iter_edges()
    }
    assert rebuilt == saved and any(kind == "mentions" for _, _, kind, _, _ in saved)


@pytest.mark.parametrize(("change", "message"), BROKEN_SAVED_GRAPHS)
def test_a_broken_extension_is_refused_and_nothing_is_loaded(change, message):
    data = json.loads(json.dumps(memory_graph().to_json()))
    change(data)
    target = DocumentGraph()
    with pytest.raises(FormatError, match=message):
        target.load_json(data)
    assert target.store.reads.documents() == []
