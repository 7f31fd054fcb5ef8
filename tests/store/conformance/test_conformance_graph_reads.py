"""GraphReads conformance: what was written reads back exactly, in the promised orders,
and walk steps follow valid edges and skip hubs. Written through DocumentWrites."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_data import STAMP, column_edges, doc, documents, write

from groundgraph.model import Edge, Node
from groundgraph.store import DocumentWrites, GraphReads

REQUIRES = (DocumentWrites, GraphReads)


def test_an_empty_store_reads_empty(store):
    assert store.reads.documents() == [] and store.reads.get_document("a") is None
    assert store.reads.get_nodes([]) == {} and store.reads.get_nodes(["a"]) == {}
    assert store.reads.document_nodes("a") == [] and store.reads.entity_nodes() == []
    assert list(store.reads.iter_nodes()) == [] and list(store.reads.iter_edges()) == []
    assert store.reads.edges_touching([]) == [] and store.reads.edges_touching(["a"]) == []
    assert store.reads.owned_edges([]) == [] and store.reads.owned_edges(["a"]) == []
    assert store.reads.walk_arcs([], 10) == [] and store.reads.walk_arcs(["a"], 10) == []
    assert store.reads.pending_links_to(["a"]) == []
    counts = store.reads.counts()
    assert (counts.documents, counts.nodes, counts.edges, counts.edge_types) == (0, 0, 0, {})
    assert store.reads.node_counts() == {}


def test_nodes_are_read_by_id_by_document_and_in_order(store):
    write(store, "a", n=3)
    write(store, "b", n=1, entities=("entity:x",))
    assert set(store.reads.get_nodes(["a#2", "b", "entity:x", "zzz"])) == {"a#2", "b", "entity:x"}
    node = store.reads.get_nodes(["a#1"])["a#1"]
    assert node.span == (1, 7) and node.parent_id == "a" and node.level == 2
    expected = ["a", "a#1", "a#2", "a#3", "b", "b#1"]  # documents' nodes, not entities
    for batch in (1, 2, 5000):
        assert [n.node_id for n in store.reads.iter_nodes(batch=batch)] == expected
    assert [n.node_id for n in store.reads.entity_nodes()] == ["entity:x"]
    assert store.reads.node_counts() == {"a": 4, "b": 2, "": 1}
    assert store.reads.node_counts(["b", "zzz"]) == {"b": 2} and store.reads.node_counts([]) == {}


def test_iter_nodes_follows_the_order_of_last_write(store):
    write(store, "a", n=1)
    write(store, "b", n=1)
    write(store, "a", n=1)
    assert [n.node_id for n in store.reads.iter_nodes(batch=1)] == ["b", "b#1", "a", "a#1"]


def test_entities_keep_the_order_they_were_first_added(store):
    write(store, "a", entities=("entity:z", "entity:m"))
    write(store, "b", entities=("entity:a", "entity:z"))
    assert [n.node_id for n in store.reads.entity_nodes()] == ["entity:z", "entity:m", "entity:a"]


def test_edges_in_the_order_added_filtered_by_type(store):
    write(store, "a", n=2, extra_edges=(Edge("a#1", "a#2", "next", 0.4),))
    write(store, "b", n=1, extra_edges=(Edge("b#1", "a#1", "semantic", 0.3),))
    kinds = [e.type for e in store.reads.iter_edges()]
    assert kinds == ["parent-child", "parent-child", "next", "parent-child", "semantic"]
    assert [e.target for e in store.reads.iter_edges(["next", "semantic"])] == ["a#2", "a#1"]
    assert list(store.reads.iter_edges(["nothing"])) == []
    counts = store.reads.counts()
    assert (counts.documents, counts.nodes, counts.edges) == (2, 5, 5)
    assert counts.edge_types == {"next": 1, "parent-child": 3, "semantic": 1}


def test_edges_touching_gives_each_edge_once_in_order(store):
    write(store, "a", n=2, extra_edges=(Edge("a#1", "a#2", "next", 0.4),))
    touching = store.reads.edges_touching(["a#1", "a#2"])
    assert [(e.source, e.target) for e in touching] == [("a", "a#1"), ("a", "a#2"), ("a#1", "a#2")]
    typed = store.reads.edges_touching(["a#1", "a#2"], ["next", "semantic"])
    assert [(e.source, e.target, e.type) for e in typed] == [("a#1", "a#2", "next")]
    assert store.reads.edges_touching(["a#1"], []) == []
    leaving = store.reads.edges_touching(["a", "a#1"], leaving=True)
    assert [(e.source, e.target) for e in leaving] == [("a", "a#1"), ("a", "a#2"), ("a#1", "a#2")]
    assert store.reads.edges_touching(["a#2"], leaving=True) == []
    typed = store.reads.edges_touching(["a", "a#1"], ["next"], leaving=True)
    assert [(e.source, e.target) for e in typed] == [("a#1", "a#2")]


def test_owned_edges_are_those_stored_with_the_documents_in_order(store):
    write(store, "a", n=2, entities=("entity:x",))
    write(store, "b", n=1, entities=("entity:x",))
    store.writes.add_edges("b", [Edge("entity:x", "a#2", "relation", 0.3, ("b#1",), "r")])
    owned = store.reads.owned_edges(["b", "zzz"])
    assert [(e.source, e.target, e.type) for e in owned] == [
        ("b", "b#1", "parent-child"),
        ("b#1", "entity:x", "mentions"),
        ("entity:x", "a#2", "relation"),  # owned by b though it touches no node of b
    ]
    assert owned[-1].sources == ("b#1",) and owned[-1].label == "r"
    assert store.reads.owned_edges(["a", "b"]) == [
        e for e in store.reads.iter_edges() if e.source.startswith(("a", "b", "entity"))
    ]
    assert [e.type for e in store.reads.owned_edges(["a"])] == ["parent-child"] * 2 + ["mentions"]
    store.writes.remove_document("b")
    assert store.reads.owned_edges(["b"]) == []
    assert store.reads.owned_edges(["a"]) == [e for e in store.reads.iter_edges()]


def test_walk_arcs_step_both_ways_over_valid_edges(store):
    extra = (
        Edge("a#1", "a#2", "next", 0.4),
        Edge("a#1", "a#1", "loop", 1.0),  # a self-loop is no step
        Edge("a#2", "a#1", "old", 0.9, invalid_at=STAMP),  # retired: not walked
        Edge("a#1", "a#2", "old", 0.9, invalid_at=STAMP),  # either way
    )
    write(store, "a", n=2, extra_edges=extra)
    arcs = store.reads.walk_arcs(["a#1"], max_fanout=10)
    assert sorted(arcs) == [
        ("a#1", "a", "parent-child", 0.8, True, 2),
        ("a#1", "a#2", "next", 0.4, False, 2),
    ]


def test_walk_arcs_skip_hubs_over_the_fanout_cap(store):
    for i in range(4):
        write(store, f"d{i}", n=1, entities=("entity:hub",) if i else ("entity:hub", "entity:rare"))
    hub = store.reads.walk_arcs(["entity:hub"], max_fanout=4)
    assert len(hub) == 4 and {a[1] for a in hub} == {f"d{i}#1" for i in range(4)}
    assert all(a[4] and a[5] == 4 for a in hub)  # against the edge's direction
    assert store.reads.walk_arcs(["entity:hub"], max_fanout=3) == []  # more than 3 edges: a hub
    assert len(store.reads.walk_arcs(["entity:hub", "entity:rare"], max_fanout=3)) == 1
    # Only ids with the hub prefix are capped.
    assert len(store.reads.walk_arcs(["d0#1"], max_fanout=0)) == 3
    assert store.reads.walk_arcs(["d0#1"], max_fanout=0, hub_prefix="d0") == []


def test_walk_arcs_leave_out_steps_lighter_than_asked_except_a_hubs(store):
    extra = (Edge("d0#1", "d0#2", "next", 0.4), Edge("d0#2", "entity:x", "mentions", 0.3))
    write(store, "d0", n=2, entities=("entity:x",), extra_edges=extra)
    light = sorted(store.reads.walk_arcs(["d0#1", "d0#2", "entity:x"], 10, weakest=0.45))
    assert [a[:5] for a in light if a[0] != "entity:x"] == [
        ("d0#1", "d0", "parent-child", 0.8, True),
        ("d0#1", "entity:x", "mentions", 0.5, False),
        ("d0#2", "d0", "parent-child", 0.8, True),
    ]
    # A hub's steps all come, however light, and are counted whole: its degree.
    hub = [a for a in light if a[0] == "entity:x"]
    assert sorted(a[1] for a in hub) == ["d0#1", "d0#2"] and all(a[5] == 2 for a in hub)
    every = store.reads.walk_arcs(["d0#1", "d0#2", "entity:x"], 10)
    assert {a[:5] for a in light} <= {a[:5] for a in every}


def test_walk_arcs_step_back_only_from_nodes_few_edges_point_to(store):
    # Three sections name d0 (reference edges point to it); with max_fan_in=2 it gives
    # no steps back to them, but still steps along its own edges (to its sections).
    write(store, "d0", n=2)
    for i in (1, 2, 3):
        write(store, f"r{i}", n=1, extra_edges=(Edge(f"r{i}#1", "d0", "reference", 0.75),))
    capped = store.reads.walk_arcs(["d0", "r1#1"], 10, max_fan_in=2)
    assert sorted((a[0], a[1], a[4]) for a in capped) == [
        ("d0", "d0#1", False),
        ("d0", "d0#2", False),
        ("r1#1", "d0", False),
        ("r1#1", "r1", True),
    ]
    uncapped = store.reads.walk_arcs(["d0"], 10, max_fan_in=3)
    assert sorted(a[1] for a in uncapped) == ["d0#1", "d0#2", "r1#1", "r2#1", "r3#1"]
    assert len(store.reads.walk_arcs(["d0"], 10)) == 5  # no cap unless asked
    # An entity is capped by its degree (max_fanout) alone.
    for i in range(3):
        write(store, f"e{i}", n=1, entities=("entity:hub",))
    assert len(store.reads.walk_arcs(["entity:hub"], 10, max_fan_in=1)) == 3


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_store_gives_back_exactly_what_it_was_given(new_store, data):
    store = new_store()
    written = [data.draw(documents(doc_id)) for doc_id in ("p", "q")]
    for document, nodes, edges in written:
        store.writes.replace_document(document, nodes, edges)
    assert store.reads.documents() == [document for document, _, _ in written]
    for document, nodes, _ in written:
        assert store.reads.get_document(document.doc_id) == document
        assert store.reads.document_nodes(document.doc_id) == nodes
        assert store.reads.get_nodes([n.node_id for n in nodes]) == {n.node_id: n for n in nodes}
    assert list(store.reads.iter_edges()) == [e for _, _, edges in written for e in edges]
    assert list(store.reads.iter_nodes(batch=2)) == [n for _, nodes, _ in written for n in nodes]


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("abc"), st.booleans())))
def test_walk_arcs_agree_with_the_edges(new_store, triples):
    # Every step is a valid edge read in one direction; every valid edge gives one step
    # from each end asked for.
    store = new_store()
    nodes = [Node(x, "g", "section", x, "") for x in "gabc"]
    edges = [
        Edge(s, t, "semantic", 0.5, invalid_at=STAMP if old else None) for s, t, old in triples
    ]
    store.writes.replace_document(doc("g", n=0)[0], nodes, edges)
    arcs = store.reads.walk_arcs(["a", "b"], max_fanout=100)
    pairs = [(s, t) for s, t, old in triples if not old and s != t]
    expected = [(s, t, False) for s, t in pairs if s in "ab"]
    expected += [(t, s, True) for s, t in pairs if t in "ab"]
    assert sorted((n, o, back) for n, o, _, _, back, _ in arcs) == sorted(expected)
    for node, *_, degree in arcs:
        assert degree == sum(1 for a in arcs if a[0] == node)


def test_edge_columns_hold_every_edge_of_one_state(store):
    extra = (
        Edge("a#1", "a#2", "next", 0.4),
        Edge("a#2", "a#1", "old", 0.9, invalid_at=STAMP),
        Edge("a#1", "a#1", "loop", 0.3),
    )
    write(store, "a", n=2, extra_edges=extra, entities=("entity:x",))
    write(store, "b", n=1, extra_edges=(Edge("b#1", "a#2", "semantic", 0.1234567890123456789),))
    columns = store.reads.edge_columns()
    assert columns.generation == store.changes.generation()
    assert sorted(columns.node_ids) == ["a", "a#1", "a#2", "b", "b#1", "entity:x"]
    edges = store.reads.iter_edges()
    assert column_edges(columns) == sorted(
        (e.source, e.target, e.type, e.weight, e.invalid_at is None) for e in edges
    )


def test_the_walks_adjacency_built_from_the_columns_gives_the_stores_arcs(store):
    # The in-memory adjacency (walk.adjacency) agrees with walk_arcs on every backend.
    from groundgraph.walk.adjacency import WalkAdjacency
    from groundgraph.walk.dijkstra import HUB_PREFIX, arcs_from_steps

    for i in range(12):
        write(
            store, f"d{i}", n=2, entities=("entity:hub",) if i % 3 else ("entity:hub", "entity:x")
        )
    write(
        store,
        "r",
        n=1,
        extra_edges=tuple(Edge("r#1", f"d{i}", "reference", 0.75) for i in range(5)),
    )
    columns = store.reads.edge_columns()
    names = sorted(columns.node_ids)
    for weakest, fan_in in itertools.product((0.0, 0.5, 0.8), (None, 0, 3)):
        adjacency = WalkAdjacency.build(columns, 64, HUB_PREFIX, fan_in)
        steps = store.reads.walk_arcs(names, 64, HUB_PREFIX, weakest, fan_in)
        want = arcs_from_steps(steps, names)
        got = adjacency.arcs(names, weakest)
        for name in names:
            assert sorted(got[name]) == sorted(a for a in want[name] if a.weight >= weakest)


def test_reads_inside_and_after_a_fill_are_those_of_any_write(store):
    # ``filling`` may leave its lookups for the end: what is read meanwhile is the same.
    with store.writes.filling():
        write(store, "a", n=2, extra_edges=(Edge("a#1", "a#2", "next", 0.4),))
        write(store, "b", n=1, extra_edges=(Edge("b#1", "a#1", "semantic", 0.3),))
        inside = (
            store.reads.edges_touching(["a#1"]),
            sorted(store.reads.walk_arcs(["a#1", "b#1"], 10)),  # in no promised order
            list(store.reads.iter_edges()),
        )
    after = (
        store.reads.edges_touching(["a#1"]),
        sorted(store.reads.walk_arcs(["a#1", "b#1"], 10)),
        list(store.reads.iter_edges()),
    )
    assert inside == after
    touching = [(e.source, e.target) for e in after[0]]
    assert touching == [("a", "a#1"), ("a#1", "a#2"), ("b#1", "a#1")]
    with store.writes.filling():  # a store with edges: a fill like any other writes
        write(store, "c", n=1)
    assert len(list(store.reads.iter_edges())) == 6
