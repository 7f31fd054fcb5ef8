"""DocumentWrites conformance: whole documents in, whole documents out, and removal
leaves nothing behind. Observed through GraphReads and the ChangeLog."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_data import doc, everything, write

from groundgraph.errors import InputError, NotFoundError
from groundgraph.model import Document, Edge, Node
from groundgraph.model.store_records import PendingLink
from groundgraph.store import ChangeLog, DocumentWrites, GraphReads

REQUIRES = (DocumentWrites, GraphReads, ChangeLog)


def test_a_written_document_reads_back(store):
    document, nodes, edges, _ = doc("a", n=3)
    generation, removed = store.writes.replace_document(document, nodes, edges)
    assert (generation, removed) == (1, None)
    got = store.reads.get_document("a")
    assert got is not None and got.title == "A" and got.added_at  # stamped when unset
    assert [n.node_id for n in store.reads.document_nodes("a")] == ["a", "a#1", "a#2", "a#3"]
    assert all(n.created_at for n in store.reads.document_nodes("a"))
    assert [(e.source, e.target, e.type) for e in store.reads.iter_edges()] == [
        (e.source, e.target, e.type) for e in edges
    ]


def test_each_write_is_one_generation(store):
    assert write(store, "a")[0] == 1
    assert write(store, "b")[0] == 2
    assert write(store, "a")[0] == 3
    assert store.writes.add_edges("b", [Edge("b#1", "a#1", "semantic", 0.3)]) == 4
    assert store.writes.remove_document("a") is not None
    assert store.changes.generation() == 5
    assert store.writes.remove_document("a") is None  # nothing to remove: no write
    assert store.changes.generation() == 5


def test_replacing_a_document_reports_what_went_and_moves_it_last(store):
    write(store, "a", n=3)
    write(store, "b")
    document, nodes, edges, _ = doc("a", n=1)
    _, removed = store.writes.replace_document(document, nodes, edges)
    assert removed is not None and removed.doc_id == "a"
    assert set(removed.nodes) == {"a", "a#1", "a#2", "a#3"}
    assert set(removed.edges) == {("a", f"a#{i}", "parent-child") for i in (1, 2, 3)}
    assert [d.doc_id for d in store.reads.documents()] == ["b", "a"]
    assert [n.node_id for n in store.reads.document_nodes("a")] == ["a", "a#1"]
    assert store.reads.counts().nodes == 2 + 3


def test_removal_leaves_nothing_behind(store):
    write(store, "a", entities=("entity:shared",))
    before = everything(store)
    cross = (Edge("b#1", "a#1", "semantic", 0.5), Edge("a#2", "b#2", "reference", 0.7))
    write(store, "b", n=2, extra_edges=cross, entities=("entity:shared", "entity:own"))
    store.writes.add_edges("b", [Edge("b#2", "entity:late", "mentions", 0.5)], [_entity("late")])
    removal = store.writes.remove_document("b")
    assert removal is not None
    assert set(removal.nodes) == {"b", "b#1", "b#2", "entity:own", "entity:late"}
    assert ("b#1", "a#1", "semantic") in removal.edges
    assert ("a#2", "b#2", "reference") in removal.edges  # owned by a, but touches b
    after = everything(store)
    assert {k: v for k, v in after.items() if k != "edges"} == {
        k: v for k, v in before.items() if k != "edges"
    }
    assert after["edges"] == before["edges"]
    assert store.reads.get_nodes(["b", "b#1", "entity:own", "entity:late"]) == {}
    assert store.reads.edges_touching(["b", "b#1", "b#2"]) == []


def test_an_entity_lives_as_long_as_an_edge_touches_it(store):
    write(store, "a", entities=("entity:aurora",))
    document, nodes, edges, _ = doc("b", n=1, entities=("entity:aurora",))
    spelled = Node("entity:aurora", "", "entity", "AURORA", "")
    store.writes.replace_document(document, nodes, edges, entities=[spelled])
    assert [n.title for n in store.reads.entity_nodes()] == ["AURORA"]  # sorts first, came second
    first = store.writes.remove_document("a")
    assert first is not None and "entity:aurora" not in first.nodes
    assert [n.node_id for n in store.reads.entity_nodes()] == ["entity:aurora"]
    last = store.writes.remove_document("b")
    assert last is not None and "entity:aurora" in last.nodes
    assert store.reads.entity_nodes() == [] and store.reads.counts().nodes == 0


@pytest.mark.parametrize("reverse", [False, True])
def test_an_entity_is_shown_under_its_shortest_spelling_whatever_the_order(store, reverse):
    spellings = ["The Windows SDK", "*Windows SDK*", "Windows SDK", "WINDOWS SDK"]
    for i, title in enumerate(reversed(spellings) if reverse else spellings):
        document, nodes, edges, _ = doc(f"d{i}", n=1, entities=("entity:windows sdk",))
        # one write holds two spellings: the shortest of them is the one stored
        given = [Node("entity:windows sdk", "", "entity", t, "") for t in (title, title + "!")]
        store.writes.replace_document(document, nodes, edges, entities=given)
    assert [n.title for n in store.reads.entity_nodes()] == ["WINDOWS SDK"]


def test_edges_into_a_removed_document_go_with_it(store):
    write(store, "a")
    write(store, "b", extra_edges=(Edge("b#1", "a#2", "reference", 0.75),))
    store.writes.remove_document("a")
    assert all("a#2" not in (e.source, e.target) for e in store.reads.iter_edges())
    assert [n.node_id for n in store.reads.document_nodes("b")] == ["b", "b#1", "b#2"]


def test_added_edges_belong_to_their_document(store):
    write(store, "a")
    write(store, "b")
    store.writes.add_edges("a", [Edge("b#1", "b#2", "semantic", 0.2)])
    assert any(e.type == "semantic" for e in store.reads.edges_touching(["b#1"]))
    store.writes.remove_document("a")
    assert not any(e.type == "semantic" for e in store.reads.iter_edges())


def test_edges_for_an_unknown_document_are_refused_whole(store):
    write(store, "a")
    before = everything(store)
    with pytest.raises(NotFoundError):
        store.writes.add_edges("nobody", [Edge("a", "a#1", "semantic", 0.1)], [_entity("x")])
    assert everything(store) == before and store.changes.generation() == 1


def test_a_failed_write_leaves_the_previous_document(store):
    write(store, "a", n=2)
    document, nodes, edges, _ = doc("a", n=3)
    nodes.append(nodes[1])  # a duplicate node id fails the write halfway
    before = everything(store)
    with pytest.raises(Exception):  # noqa: B017 - the backend's own integrity error
        store.writes.replace_document(document, nodes, edges)
    assert everything(store) == before
    assert store.changes.generation() == 1 and store.changes.changed_documents(0) == ["a"]


def test_pending_links_wait_and_go_with_their_document(store):
    document, nodes, edges, _ = doc("a")
    links = [PendingLink("a#1", "a", "later"), PendingLink("a#2", "a", "other")]
    store.writes.replace_document(document, nodes, edges, links)
    assert store.reads.pending_links_to(["later", "nowhere"]) == links[:1]
    assert store.reads.pending_links_to([]) == []
    store.writes.remove_document("a")
    assert store.reads.pending_links_to(["later", "other"]) == []


def test_a_document_keeps_every_field(store):
    document = Document("d", "Title", "about", "notes/d.md", "hash", ("team", "ops"), "then")
    store.writes.replace_document(document, [Node("d", "d", "document", "Title", "")], [])
    assert store.reads.get_document("d") == document
    assert store.reads.documents() == [document]


_OPS = st.lists(
    st.tuples(st.sampled_from(["add", "remove"]), st.sampled_from("abcd"), st.integers(1, 3)),
    max_size=20,
)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_OPS)
def test_any_mix_of_writes_matches_a_model(new_store, ops):
    # A dict model of the store: documents in order of their last write, each with its
    # own nodes and one entity of its own (which lives as long as that version).
    store = new_store()
    model: dict[str, int] = {}
    for op, doc_id, n in ops:
        mine = f"entity:{doc_id}{n}"
        if op == "add":
            _, removed = write(store, doc_id, n=n, entities=(mine,))
            assert (removed is not None) == (doc_id in model)
            model.pop(doc_id, None)
            model[doc_id] = n
        else:
            assert (store.writes.remove_document(doc_id) is not None) == (doc_id in model)
            model.pop(doc_id, None)
        assert [d.doc_id for d in store.reads.documents()] == list(model)
        assert [n.node_id for n in store.reads.entity_nodes()] == [
            f"entity:{d}{k}" for d, k in model.items()
        ]
        counts = store.reads.counts()
        assert counts.documents == len(model)
        assert counts.nodes == sum(k + 2 for k in model.values())
        assert counts.edges == sum(k + 1 for k in model.values())
        for doc_id, k in model.items():
            assert len(store.reads.document_nodes(doc_id)) == k + 1


def _entity(name: str) -> Node:
    return Node(f"entity:{name}", "", "entity", name.title(), "")


def test_an_edge_to_a_node_that_is_not_stored_is_refused_whole(store):
    write(store, "a")
    before = everything(store)
    with pytest.raises(InputError, match="not a stored node"):
        store.writes.add_edges(
            "a", [Edge("a#1", "a#2", "next", 0.4), Edge("a#1", "nowhere", "next", 0.4)]
        )
    with pytest.raises(InputError, match="not a stored node"):
        write(store, "b", extra_edges=(Edge("b#1", "ghost#1", "semantic", 0.3),))
    assert everything(store) == before


def test_derived_edges_replace_every_edge_of_their_type_in_one_write(store):
    write(store, "a", n=3)
    write(store, "b", n=2, extra_edges=(Edge("b#1", "a#1", "semantic", 0.5),))
    derived = [
        Edge("a#1", "b#2", "semantic", 0.4),
        Edge("a#2", "a", "semantic", 0.9),  # a parent-child edge joins a and a#2
        Edge("b#1", "a#3", "semantic", 0.6),
    ]
    before = store.changes.generation()
    assert store.writes.replace_derived_edges("semantic", derived) == before + 1
    found = {(e.source, e.target, e.weight) for e in store.reads.iter_edges(["semantic"])}
    assert found == {("a#1", "b#2", 0.4), ("b#1", "a#3", 0.6)}
    assert store.changes.changed_documents(before) == [""]
    # Each belongs to its source's document: removing b takes b#1's edge with it.
    store.writes.remove_document("b")
    assert [(e.source, e.target) for e in store.reads.iter_edges(["semantic"])] == []
    with pytest.raises(InputError, match="not a stored node"):
        store.writes.replace_derived_edges("semantic", [Edge("a#1", "zz#1", "semantic", 0.5)])
    with pytest.raises(InputError):
        store.writes.replace_derived_edges("semantic", [Edge("a#1", "a#3", "next", 0.4)])


def test_typed_edges_of_a_document_are_replaced_and_orphans_go(store):
    write(store, "a", n=2, entities=("entity:old", "entity:kept"))
    write(store, "b", n=1, entities=("entity:kept",))
    new = [Edge("a#1", "entity:new", "mentions", 0.7), Edge("a#2", "entity:kept", "mentions", 0.7)]
    entity = Node("entity:new", "", "entity", "New", "")
    before = store.changes.generation()
    assert store.writes.replace_typed_edges("a", ["mentions"], new, [entity]) == before + 1
    assert store.changes.changed_documents(before) == ["a"]
    mentions = {(e.source, e.target) for e in store.reads.iter_edges(["mentions"])}
    assert ("a#1", "entity:new") in mentions and ("a#2", "entity:kept") in mentions
    assert not any(s.startswith("a") and t == "entity:old" for s, t in mentions)
    names = {n.node_id for n in store.reads.entity_nodes()}
    assert "entity:new" in names and "entity:kept" in names and "entity:old" not in names
    assert {e.type for e in store.reads.iter_edges() if e.source.startswith("a")} >= {
        "parent-child"
    }
    with pytest.raises(NotFoundError):
        store.writes.replace_typed_edges("zz", ["mentions"], [])


def test_a_nodes_edges_of_one_type_are_replaced_whoever_owns_them(store):
    write(store, "a", n=2)
    write(store, "b", n=1, extra_edges=(Edge("a#1", "b", "reference", 0.75),))
    write(store, "c", n=1)
    store.writes.add_edges("a", [Edge("a#1", "a#2", "reference", 0.75)])
    store.writes.add_edges("a", [Edge("a#2", "b", "reference", 0.75)])
    before = store.changes.generation()
    new = [Edge("a#1", "a#2", "reference", 0.75), Edge("a#1", "c", "reference", 0.75)]
    assert store.writes.replace_node_edges("a#1", "reference", new) == before + 1
    assert store.changes.changed_documents(before) == ["a"]
    found = {(e.source, e.target) for e in store.reads.iter_edges(["reference"])}
    # b's edge from a#1 went; a#2's edge and a#1's edges of other types stay
    assert found == {("a#1", "a#2"), ("a#1", "c"), ("a#2", "b")}
    assert ("a", "a#1") in {(e.source, e.target) for e in store.reads.iter_edges(["parent-child"])}
    # the new edges belong to a: removing a takes them, removing c takes the one to c
    store.writes.remove_document("c")
    assert ("a#1", "c") not in {(e.source, e.target) for e in store.reads.iter_edges()}
    assert store.writes.replace_node_edges("a#1", "reference", []) == before + 3
    assert {(e.source, e.target) for e in store.reads.iter_edges(["reference"])} == {("a#2", "b")}
    generation = store.changes.generation()
    with pytest.raises(NotFoundError):
        store.writes.replace_node_edges("zz#1", "reference", [])
    with pytest.raises(InputError):
        store.writes.replace_node_edges("a#1", "reference", [Edge("a#2", "b", "reference", 0.75)])
    with pytest.raises(InputError):
        store.writes.replace_node_edges("a#1", "reference", [Edge("a#1", "b", "next", 0.4)])
    with pytest.raises(InputError, match="not a stored node"):
        store.writes.replace_node_edges("a#1", "reference", [Edge("a#1", "zz", "reference", 0.7)])
    assert store.changes.generation() == generation
    assert {(e.source, e.target) for e in store.reads.iter_edges(["reference"])} == {("a#2", "b")}
