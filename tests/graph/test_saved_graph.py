"""Saved graphs: the graph-of-thought v2 JSON format."""

from __future__ import annotations

import dataclasses
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


def _memory_graph() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_document("# Ops\n\n## Rain\nHeavy rain caused the flooding of the cellar.", "Ops")
    graph.add_text("Ana lives in Lisbon.", scopes=["team/a"])
    graph.add_text("Ana lives in Porto.", scopes=["team/a"])  # retires the Lisbon fact
    graph.add_text("Heavy rain caused the flooding of the cellar.", scopes=["team/b"])
    graph.add_text(
        "The flooding of the cellar caused damage to the archive boxes.", scopes=["team/b"]
    )
    return graph


def _state(graph: DocumentGraph) -> dict[str, object]:
    def record(r: object, drop: tuple[str, ...] = ()) -> str:
        fields = {k: v for k, v in dataclasses.asdict(r).items() if k not in drop}
        return json.dumps(fields, sort_keys=True, default=str)

    store = graph.store
    v2 = ("parent-child", "next", "reference", "semantic")
    return {
        "documents": sorted(record(d) for d in store.documents()),
        "nodes": sorted(record(n) for n in [*store.iter_nodes(), *store.entity_nodes()]),
        # Structure edges are re-made on load (new created_at); the rest come back as saved.
        "edges": sorted(
            record(e, ("created_at",) if e.type in v2 else ()) for e in store.iter_edges()
        ),
        "events": [record(e) for e in store.fact_events()],
        "conflicts": [record(c) for c in store.conflict_records()],
    }


def test_memory_survives_a_round_trip():
    graph = _memory_graph()
    data = json.loads(json.dumps(graph.to_json()))
    copy = DocumentGraph.from_json(data)
    assert _state(copy) == _state(graph)
    for scopes in (["team/a"], ["team/b"], None):
        assert copy.query("Where does Ana live?", scopes=scopes) == graph.query(
            "Where does Ana live?", scopes=scopes
        )
    assert copy.query("Where does Ana live?", scopes=["team/a"]) == ["Ana lives in Porto."]
    effects = copy.trace_effects("Heavy rain", scopes=["team/b"])
    assert effects == graph.trace_effects("Heavy rain", scopes=["team/b"])
    assert [step["effect"] for step in effects["chain"]][-1] == "damage to the archive boxes"
    # Before the Porto fact, Ana lived in Lisbon: the history came along.
    lisbon = next(e for e in copy.store.fact_events() if e.kind == "invalidated")
    before = copy.store.get_nodes([lisbon.fact_id])[lisbon.fact_id].created_at
    assert copy.query("Where does Ana live?", as_of=before) == ["Ana lives in Lisbon."]
    assert graph.query("Where does Ana live?", as_of=before) == ["Ana lives in Lisbon."]


def test_a_plain_v2_file_still_loads_with_its_evidence_rebuilt(kitchen):
    graph = DocumentGraph()
    graph.add_document(kitchen, "Kitchen Notes")
    data = graph.to_json()
    del data["groundgraph"]
    copy = DocumentGraph.from_json(data)
    rebuilt = {(e.source, e.target, e.type, e.sources, e.spans) for e in copy.store.iter_edges()}
    saved = {(e.source, e.target, e.type, e.sources, e.spans) for e in graph.store.iter_edges()}
    assert rebuilt == saved and any(kind == "mentions" for _, _, kind, _, _ in saved)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.__setitem__("groundgraph", []), "version"),
        (lambda d: d["groundgraph"].__setitem__("version", 9), "version"),
        (lambda d: d["groundgraph"].__setitem__("edges", "x"), "list of objects"),
        (lambda d: d["groundgraph"]["edges"][0].__setitem__("type", "parent-child"), "belong"),
        (lambda d: d["groundgraph"]["edges"][0].__setitem__("to", "nowhere"), "not a node"),
        (lambda d: d["groundgraph"]["edges"][0].__setitem__("weight", "1"), "number"),
        (lambda d: d["groundgraph"]["edges"][0].__setitem__("spans", [[1, 2]]), "triples"),
        (lambda d: d["groundgraph"]["entities"][0].__setitem__("nodeId", "x"), "entity:"),
        (lambda d: d["groundgraph"]["factEvents"][0].__setitem__("factId", "fact:x"), "fact"),
        (lambda d: d["groundgraph"]["conflicts"][0].__setitem__("new", None), "object"),
        (lambda d: d["nodes"][0].__setitem__("scopes", "team"), "scopes"),
        (lambda d: d["nodes"][0].__setitem__("invalidAt", 3), "invalidAt"),
    ],
)
def test_a_broken_extension_is_refused_and_nothing_is_loaded(change, message):
    data = json.loads(json.dumps(_memory_graph().to_json()))
    change(data)
    target = DocumentGraph()
    with pytest.raises(FormatError, match=message):
        target.load_json(data)
    assert target.store.documents() == []
