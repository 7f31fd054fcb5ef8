"""ReasonGraph's graph calls (add_nodes, add_edges, get_all_nodes, get_all_edges) give
the same graph on PostgreSQL as on SQLite (tests/memory/test_reasongraph_graph_calls.py
has the rest)."""

from __future__ import annotations

import pytest

from groundgraph import DocumentGraph

RAIN = "Heavy rain fell on the hills overnight."
RIVER = "The river burst its banks at dawn."
ROADS = "Commuters found every bridge closed."


@pytest.mark.postgres
def test_the_graph_calls_give_the_same_graph_on_postgresql():
    from groundgraph.store.postgres import PostgresStore
    from postgres_server import fresh_schema_url

    def build(memory: DocumentGraph) -> tuple[list[object], list[object], list[str]]:
        memory.add_nodes([(RAIN, "text"), (RIVER, "text"), (ROADS, "text")], scopes=["w"])
        memory.add_edges([(RAIN, RIVER), (RIVER, ROADS, "causes"), ("Valley Transit", ROADS)])
        nodes = [(n.content, n.type, n.scopes) for n in memory.get_all_nodes()]
        edges = sorted((e.source, e.target, e.type, e.label) for e in memory.get_all_edges())
        return nodes, edges, memory.query("heavy rain hills", top_k=3)

    on_sqlite = build(DocumentGraph(conflict_resolver=False))
    store = PostgresStore(fresh_schema_url(), pool_size=2)
    with DocumentGraph(store=store, conflict_resolver=False) as memory:
        assert build(memory) == on_sqlite
