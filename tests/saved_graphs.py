"""A small graph with every kind of saved data, and its whole state, for the saved-graph tests."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from groundgraph import DocumentGraph

V2_EDGE_TYPES = ("parent-child", "next", "reference", "semantic")

#: Files that are not saved graphs, and what the refusal says.
OTHER_FORMATS: list[tuple[Any, str]] = [
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
]

#: Changes that break a saved memory graph, and what the refusal says.
BROKEN_SAVED_GRAPHS: list[tuple[Callable[[Any], None], str]] = [
    (lambda d: d.__setitem__("groundgraph", []), "version"),
    (lambda d: d["groundgraph"].__setitem__("version", 9), "version"),
    (lambda d: d["groundgraph"].__setitem__("edges", "x"), "list of objects"),
    (lambda d: d["groundgraph"]["edges"][0].__setitem__("type", "parent-child"), "belong"),
    (lambda d: d["groundgraph"]["edges"][0].__setitem__("to", "nowhere"), "not a node"),
    (lambda d: d["groundgraph"]["edges"][0].__setitem__("weight", "1"), "number"),
    (lambda d: d["groundgraph"]["edges"][0].__setitem__("weight", 1.5), "from 0 to 1"),
    (lambda d: d["edges"][0].__setitem__("weight", -0.1), "from 0 to 1"),
    (lambda d: d["groundgraph"]["edges"][0].__setitem__("spans", [[1, 2]]), "triples"),
    (lambda d: d["groundgraph"]["entities"][0].__setitem__("nodeId", "x"), "entity:"),
    (lambda d: d["groundgraph"]["factEvents"][0].__setitem__("factId", "fact:x"), "fact"),
    (lambda d: d["groundgraph"]["conflicts"][0].__setitem__("new", None), "object"),
    (lambda d: d["nodes"][0].__setitem__("scopes", "team"), "scopes"),
    (lambda d: d["nodes"][0].__setitem__("invalidAt", 3), "invalidAt"),
]


def memory_graph() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_document("# Ops\n\n## Rain\nHeavy rain caused the flooding of the cellar.", "Ops")
    graph.add_text("Ana lives in Lisbon.", scopes=["team/a"])
    graph.add_text("Ana lives in Porto.", scopes=["team/a"])  # retires the Lisbon fact
    graph.add_text("Heavy rain caused the flooding of the cellar.", scopes=["team/b"])
    graph.add_text(
        "The flooding of the cellar caused damage to the archive boxes.", scopes=["team/b"]
    )
    return graph


def graph_state(graph: DocumentGraph) -> dict[str, object]:
    """Every row of the store, as comparable text."""

    def record(r: object, drop: tuple[str, ...] = ()) -> str:
        fields = {k: v for k, v in dataclasses.asdict(r).items() if k not in drop}
        return json.dumps(fields, sort_keys=True, default=str)

    store = graph.store
    return {
        "documents": sorted(record(d) for d in store.reads.documents()),
        "nodes": sorted(
            record(n) for n in [*store.reads.iter_nodes(), *store.reads.entity_nodes()]
        ),
        # Structure edges are re-made on load (new created_at); the rest come back as saved.
        "edges": sorted(
            record(e, ("created_at",) if e.type in V2_EDGE_TYPES else ())
            for e in store.reads.iter_edges()
        ),
        "events": [record(e) for e in store.ledger.fact_events()],
        "conflicts": [record(c) for c in store.ledger.conflict_records()],
    }
