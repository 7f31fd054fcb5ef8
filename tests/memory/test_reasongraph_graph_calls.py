"""ReasonGraph's graph calls on DocumentGraph: add_nodes, add_edges, get_all_nodes,
get_all_edges; what the drawn edges do to recall, causal reads, scopes and deletion."""

from __future__ import annotations

import pytest

from groundgraph import DocumentGraph, InputError
from groundgraph.errors import InputTooLargeError
from groundgraph.graph.memory_nodes import MAX_GRAPH_ITEMS

# Three facts with no word in common with each other: only drawn edges join them.
RAIN = "Heavy rain fell on the hills overnight."
RIVER = "The river burst its banks at dawn."
ROADS = "Commuters found every bridge closed."


def fresh() -> DocumentGraph:
    return DocumentGraph(conflict_resolver=False)


def reached(memory: DocumentGraph, **read: object) -> list[str]:
    """The facts a walk from the one fact matching the query reaches (discover does not
    fill up to top_k as query does, so only edges bring a fact in)."""
    return [c.content for c in memory.discover("heavy rain hills", top_k=1, **read)]


@pytest.fixture
def graph() -> DocumentGraph:
    memory = fresh()
    memory.add_nodes([(RAIN, "text"), (RIVER, "text")], scopes=["weather"])
    memory.add_nodes([(ROADS, "text"), ("Valley Transit", "entity")], scopes=["traffic"])
    return memory


def test_nodes_read_as_reasongraph_nodes(graph):
    nodes = graph.get_all_nodes()
    assert [(n.content, n.type) for n in nodes] == [
        (RAIN, "text"),
        (RIVER, "text"),
        (ROADS, "text"),
    ]
    first = nodes[0]
    assert first.scopes == ("weather",) and first.invalid_at is None and first.created_at
    assert dict(first)["content"] == RAIN and first["type"] == "text" and "scopes" in first
    assert graph.get_all_edges() == []  # raw nodes: nothing extracted
    assert graph.fact(RAIN).entities == ()


def test_an_entity_is_listed_once_a_fact_names_it(graph):
    edges = graph.add_edges([("Valley Transit", ROADS)])
    assert [(e.from_content, e.to_content, e.label, e.type) for e in edges] == [
        (ROADS, "Valley Transit", None, "mentions")
    ]
    (entity,) = [n for n in graph.get_all_nodes() if n.type == "entity"]
    assert entity.content == "Valley Transit" and entity.scopes == ("traffic",)
    assert entity.node_id == "entity:valley transit"


def test_scopes_filter_the_nodes_and_the_entities_they_name(graph):
    graph.add_edges([("Valley Transit", ROADS)])
    assert [n.content for n in graph.get_all_nodes(scopes=["weather"])] == [RAIN, RIVER]
    traffic = graph.get_all_nodes(scopes="traffic")
    assert [n.content for n in traffic] == [ROADS, "valley transit"]  # a scoped read: the key
    assert graph.get_all_edges(scopes=["weather"]) == []


def test_a_fact_to_fact_edge_is_walked_by_recall(graph):
    assert reached(graph) == [RAIN]
    graph.add_edges([(RAIN, RIVER), (RIVER, ROADS)])
    assert reached(graph) == [RAIN, RIVER, ROADS]
    assert graph.query("heavy rain hills", top_k=3) == [RAIN, RIVER, ROADS]
    (link,) = [c for c in graph.discover("heavy rain hills") if c.content == RIVER]
    assert "reference" in link.edge_types


def test_facts_that_name_one_entity_are_joined_through_it(graph):
    graph.add_edges([(RAIN, "Valley Transit"), ("Valley Transit", ROADS)])
    assert reached(graph) == [RAIN, ROADS]
    (via,) = [c for c in graph.discover("heavy rain hills") if c.content == ROADS]
    # the walk names an entity as the facts spell it; no fact's text holds this one
    assert {"entity": "valley transit"} in via.path


def test_causes_edges_chain_facts_for_the_causal_reads(graph):
    drawn = graph.add_edges([(RAIN, RIVER, "causes"), (RIVER, ROADS, "causes")])
    assert [(e.from_content, e.to_content) for e in drawn if e.label == "causes"] == [
        (RAIN, RIVER),
        (RIVER, ROADS),
    ]
    trace = graph.trace_effects(RAIN)
    assert trace["terminals"] == [ROADS]
    chain = graph.causal_chain(RAIN, ROADS)
    assert chain is not None and [hop.fact for hop in chain] == [RAIN, RIVER]
    what_if = graph.what_if(RIVER)
    assert ROADS in [c["span"] for c in what_if["collapsed"]]


def test_a_fact_can_cause_an_entity(graph):
    graph.add_edges([(RAIN, "landslides", "causes")])
    assert graph.trace_effects(RAIN)["terminals"] == ["landslide"]  # its key: no text spells it
    labels = {(e.from_content, e.to_content, e.label) for e in graph.get_all_edges()}
    assert (RAIN, "landslides", "causes") in labels


def test_the_same_edge_twice_is_stored_once(graph):
    graph.add_edges([(RAIN, RIVER), (RAIN, RIVER)])
    graph.add_edges([(RAIN, RIVER)])
    assert len([e for e in graph.get_all_edges() if e.type == "reference"]) == 1


def test_deleting_a_fact_takes_its_drawn_edges(graph):
    graph.add_edges([(RAIN, RIVER), (RIVER, "Valley Transit"), (RIVER, ROADS, "causes")])
    graph.delete(RIVER)
    assert graph.get_all_edges() == []
    assert "Valley Transit" not in [n.content for n in graph.get_all_nodes()]
    assert reached(graph) == [RAIN]


def test_an_isolated_read_does_not_cross_a_drawn_edge_into_another_scope(graph):
    graph.add_edges([(RAIN, ROADS)])
    assert reached(graph, scopes=["weather"]) == [RAIN, ROADS]
    assert reached(graph, scopes=["weather"], isolate=True) == [RAIN]


def test_a_searcher_lists_without_writing(graph):
    graph.add_edges([(RAIN, RIVER)])
    reader = graph.searcher()
    assert reader.verb("get_all_nodes")() == graph.get_all_nodes()
    assert reader.verb("get_all_edges")() == graph.get_all_edges()
    with pytest.raises(InputError, match="writes"):
        reader.verb("add_edges")


def test_a_reasongraph_dataset_file_loads_as_written():
    # ReasonGraph's dataset JSON: nodes {content, type}, unlabelled edges {from, to}.
    data = {
        "nodes": [
            {"content": "Loose lending inflated house prices.", "type": "text"},
            {"content": "Falling prices left banks with bad loans.", "type": "text"},
            {"content": "banks", "type": "entity"},
        ],
        "edges": [
            {
                "from": "Loose lending inflated house prices.",
                "to": "Falling prices left banks with bad loans.",
            },
            {"from": "banks", "to": "Falling prices left banks with bad loans."},
        ],
    }
    memory = fresh()
    memory.add_nodes([(n["content"], n["type"]) for n in data["nodes"]])
    memory.add_edges([(e["from"], e["to"]) for e in data["edges"]])
    assert len(memory.get_all_nodes()) == 3 and len(memory.get_all_edges()) == 2
    found = [c.content for c in memory.discover("loose lending", top_k=1)]
    assert found == [data["nodes"][0]["content"], data["nodes"][1]["content"]]


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("edges", "message"),
    [
        ([("Valley Transit", "Harbour Board")], "two entities"),
        ([(RAIN, RIVER, "same_as")], "label"),
        ([(RAIN, RAIN)], "itself"),
        ([(RAIN,)], "edge #0"),
        (["ab"], "edge #0"),
        ([(RAIN, 3)], "edge #0"),
        ([(RAIN, "  ")], "edge #0"),
        ([(RAIN, "!!!")], "no letters"),
        ([(RAIN, "x" * 30_000)], "too long"),
        ("not a list", "list"),
    ],
)
def test_bad_edges_are_refused_with_what_to_fix(graph, edges, message):
    with pytest.raises(InputError, match=message):
        graph.add_edges(edges)
    assert graph.get_all_edges() == []


@pytest.mark.parametrize(
    ("nodes", "message"),
    [
        ([("A fact.", "fact")], "'text' or 'entity'"),
        ([("A fact.",)], "node #0"),
        (["A fact."], "node #0"),
        ([("", "text")], "empty"),
        ([(None, "entity")], "text, not NoneType"),
    ],
)
def test_bad_nodes_are_refused(nodes, message):
    with pytest.raises(InputError, match=message):
        fresh().add_nodes(nodes)


def test_a_call_holds_at_most_max_graph_items():
    too_many = ((f"Fact number {i}.", "text") for i in range(MAX_GRAPH_ITEMS + 1))
    memory = fresh()
    with pytest.raises(InputTooLargeError):
        memory.add_nodes(too_many)
    assert memory.get_all_nodes() == []
