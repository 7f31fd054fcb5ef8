"""Saved graphs: the graph-of-thought v2 JSON format."""

from __future__ import annotations

import json

import pytest

from groundgraph import DocumentGraph, FormatError


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
    assert copy.to_json()["edges"] == data["edges"]


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "JSON object"),
        ({"format": "other", "version": 2}, "not a graph-of-thought v2"),
        ({"format": "graph-of-thought", "version": 1}, "not a graph-of-thought v2"),
        ({"format": "graph-of-thought", "version": 2, "documents": {}}, "list under"),
        (
            {
                "format": "graph-of-thought",
                "version": 2,
                "documents": [],
                "edges": [],
                "nodes": [
                    {"nodeId": "x", "docId": "x", "title": "t", "content": 5, "type": "document"}
                ],
            },
            "content",
        ),
        (
            {
                "format": "graph-of-thought",
                "version": 2,
                "documents": [],
                "nodes": [],
                "edges": [{"from": "a", "to": "b", "type": "next", "weight": 1}],
            },
            "not a node",
        ),
        (
            {
                "format": "graph-of-thought",
                "version": 2,
                "documents": [],
                "edges": [],
                "nodes": [
                    {"nodeId": "x", "docId": "x", "title": "t", "content": "", "type": "document"}
                ],
            },
            "not listed",
        ),
    ],
)
def test_other_formats_are_refused(data, message):
    with pytest.raises(FormatError, match=message):
        DocumentGraph.from_json(data)
