"""Documents read by scopes, in the library: ``add_document(scopes=)`` and ``index_files``
store them, and every view run with ``scopes`` shows only the documents those scopes read,
answering another's id exactly as an id no store holds (graph.document_scope)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph import DocumentGraph
from groundgraph.ingest import plan_folder

ALICE, BOB = ["acme/alice"], ["acme/bob"]
ATLAS = "# Atlas\n\nAtlas runs on Kestrel servers in Lisbon.\n\n## Deploy\n\nDeploy Atlas."
ZEPHYR = "# Zephyr\n\nZephyr runs on Kestrel servers in Porto.\n\n## Price\n\nQuenby set it."


@pytest.fixture
def graph() -> DocumentGraph:
    found = DocumentGraph()
    found.add_document(ATLAS, "Atlas handbook", scopes=ALICE)
    found.add_document(ZEPHYR, "Zephyr plan", scopes="acme/bob")
    found.add_document("# Notes\n\nMarlow keeps the Kestrel servers.", "Notes")
    return found


def test_a_document_and_its_nodes_carry_its_scopes(graph):
    assert graph.store.reads.get_document("zephyr-plan").scopes == ("acme/bob",)
    assert {n.scopes for n in graph.store.reads.document_nodes("atlas-handbook")} == {
        ("acme/alice",)
    }
    assert graph.store.reads.get_document("notes").scopes == ()


@pytest.mark.parametrize("scopes", [["bad scope"], [""], ["a/" * 9 + "a"], [7], "x" * 65])
def test_a_bad_scope_is_an_input_error_and_nothing_is_stored(scopes):
    graph = DocumentGraph()
    with pytest.raises(InputError):
        graph.add_document("# A\n\ntext", "A", scopes=scopes)
    assert graph.documents() == []


def test_the_views_show_only_what_the_scopes_read(graph):
    assert [d.doc_id for d in graph.documents(scopes=ALICE)] == ["atlas-handbook"]
    assert len(graph.documents()) == 3
    assert {h.doc_id for h in graph.search("Kestrel servers", scopes=ALICE)} == {"atlas-handbook"}
    kestrel = graph.show("entity:kestrel", scopes=BOB)
    linked = [link.node_id for link in kestrel.links]
    assert any(n.startswith("zephyr-plan#") for n in linked)
    assert not [n for n in linked if n.startswith(("atlas-handbook", "notes", "entity:lisbon"))]
    assert all(graph.node(n, scopes=BOB) for n in linked)  # each one Bob's key may open
    assert len(graph.show("entity:kestrel").links) > len(linked)
    for bridge in graph.bridge("Kestrel", "servers", k=5, scopes=ALICE):
        assert all(not n.startswith(("zephyr", "notes")) for n in bridge.nodes)
        assert all(h.support is None or h.support.doc_id == "atlas-handbook" for h in bridge.hops)
    grounded = graph.ground("Quenby set it.", scopes=ALICE)
    assert not grounded.supported and not grounded.citations
    assert graph.ground("Quenby set it.", scopes=BOB).supported


def test_an_unscoped_document_is_read_only_without_scopes(graph):
    with pytest.raises(NotFoundError):
        graph.outline("notes", scopes=ALICE)
    assert "Notes" in graph.outline("notes")


def message(call) -> str:
    with pytest.raises(NotFoundError) as caught:
        call()
    return str(caught.value)


def answers(view: DocumentGraph, target: str) -> list[object]:
    """What each view answers Alice's scope for ``target``."""
    doc = target.split("#")[0]
    found: list[object] = [
        message(lambda: view.node(target, scopes=ALICE)),
        message(lambda: view.show(target, scopes=ALICE)),
        message(lambda: view.outline(doc, scopes=ALICE)),
        message(lambda: view.bridge(target, "Kestrel", scopes=ALICE)),
        message(lambda: view.ground("Zephyr.", node_ids=[target], scopes=ALICE)),
    ]
    return [*found, view.why_not("Zephyr Kestrel", target, scopes=ALICE).to_dict()]


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["zephyr-plan", "zephyr-plan#1", "zephyr-plan#2", "notes#1"]))
def test_another_scopes_id_is_answered_as_if_it_were_not_there(target):
    graph = DocumentGraph()
    graph.add_document(ATLAS, "Atlas handbook", scopes=ALICE)
    graph.add_document(ZEPHYR, "Zephyr plan", scopes=BOB)
    graph.add_document("# Notes\n\nMarlow keeps the Kestrel servers.", "Notes")
    alone = DocumentGraph()
    alone.add_document(ATLAS, "Atlas handbook", scopes=ALICE)
    found = answers(graph, target)
    assert found == answers(alone, target)
    assert found[-1]["stage"] == "missing"  # type: ignore[index]


def test_index_files_stores_for_scopes_and_keeps_what_it_may_not_replace(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\nKestrel notes.\n", "utf-8")
    (tmp_path / "b.md").write_text("# B\n\nOther notes.\n", "utf-8")
    graph = DocumentGraph()
    list(graph.index_files(plan_folder([tmp_path])[0], workers=0))
    files = plan_folder([tmp_path])[0]
    results = list(
        graph.index_files(files, workers=0, scopes=ALICE, may_replace=lambda d: d.doc_id != "a")
    )
    reasons = [str(getattr(r, "reason", "")) for _, r in results]
    assert sum("may not replace" in r for r in reasons) == 1
    held = {d.doc_id: d.scopes for d in graph.store.reads.documents()}
    assert held == {"a": (), "b": ("acme/alice",)}
    again = list(graph.index_files(plan_folder([tmp_path])[0], workers=0, scopes=ALICE))
    assert {type(r).__name__ for _, r in again} >= {"UnchangedFile"}


def test_a_shared_document_names_only_the_readers_scopes(graph):
    graph.add_document("# Shared\n\nBoth teams read this.", "Shared", scopes=[*ALICE, *BOB])
    assert graph.node("shared", scopes=ALICE).scopes == ("acme/alice",)
    assert graph.node("shared", scopes=["acme/bob/chat"]).scopes == ("acme/bob",)
    assert graph.node("shared").scopes == ("acme/alice", "acme/bob")


def test_a_change_of_scopes_is_seen_by_the_next_read_in_every_process(tmp_path):
    path = tmp_path / "g.db"
    reader = DocumentGraph(path)
    reader.add_document("# Kiln\n\nThe kiln fires on Friday.", "Kiln", scopes=[*ALICE, *BOB])
    assert reader.search("kiln Friday", scopes=BOB)  # read once: the documents are kept
    writer = DocumentGraph(path)
    writer.add_document("# Kiln\n\nThe kiln fires on Friday.", "Kiln", scopes=ALICE)
    writer.close()
    assert reader.search("kiln Friday", scopes=BOB) == []
    assert reader.why_not("kiln Friday", "kiln", scopes=BOB).stage == "missing"
    assert reader.search("kiln Friday", scopes=ALICE)
    reader.close()
