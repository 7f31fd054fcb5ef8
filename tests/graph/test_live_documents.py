"""Live documents: add, replace and remove change only that document."""

from __future__ import annotations

import sqlite3

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph


def _rows(path):
    conn = sqlite3.connect(path)
    try:
        nodes = conn.execute(
            "SELECT node_id, COALESCE(d.doc_id, ''), n.title, content FROM nodes n"
            " LEFT JOIN documents d ON d.seq = n.doc AND n.doc != 0"
        ).fetchall()
        edges = conn.execute(
            "SELECT d.doc_id, s.node_id, t.node_id, k.name, COALESCE(e.weight, k.weight)"
            " FROM edges e JOIN nodes s ON s.key = e.src JOIN nodes t ON t.key = e.dst"
            " JOIN documents d ON d.seq = e.doc JOIN edge_types k ON k.code = e.type"
        ).fetchall()
        docs = conn.execute("SELECT doc_id, title FROM documents").fetchall()
        return set(nodes), set(edges), set(docs)
    finally:
        conn.close()


def _mine(doc_id, row_ids):
    return any(r == doc_id or str(r).startswith(doc_id + "#") for r in row_ids)


def test_removal_changes_only_that_documents_rows(tmp_path, kitchen, garden, guide):
    path = tmp_path / "g.db"
    graph = DocumentGraph(path)
    for text, title in ((kitchen, "Kitchen Notes"), (garden, "Garden Log"), (guide, "User Guide")):
        graph.add_document(text, title)
    before = _rows(path)
    removal = graph.remove_document("garden-log")
    after = _rows(path)
    assert removal is not None and "garden-log#1" in removal.nodes
    still_linked = {end for edge in after[1] for end in edge[1:3]}
    for old, new in zip(before, after, strict=True):
        assert new <= old
        for row in old - new:
            orphan_entity = str(row[0]).startswith("entity:") and row[0] not in still_linked
            assert _mine("garden-log", row) or orphan_entity, row
    gone = {row[0] for row in before[0] - after[0]}
    assert {n for n in removal.nodes} == gone
    # Nothing of it is left in the derived index either.
    assert all(not n.startswith("garden-log") for n in graph.index.position)
    assert graph.index.df("tomato") == 0
    assert graph.search("tomatoes") == []
    graph.close()


def test_replacing_keeps_others_and_refreshes_terms(tmp_path, kitchen, garden):
    path = tmp_path / "g.db"
    graph = DocumentGraph(path)
    graph.add_document(kitchen, "Kitchen Notes")
    graph.add_document(garden, "Garden Log")
    kitchen_rows = {r for r in _rows(path)[0] if r[1] == "kitchen-notes"}
    graph.add_document("# Garden Log\n\n## Roses\n\nPrune roses in March.", "Garden Log")
    assert {r for r in _rows(path)[0] if r[1] == "kitchen-notes"} == kitchen_rows
    assert graph.search("tomatoes") == [] or all(
        h.doc_id != "garden-log" for h in graph.search("tomatoes")
    )
    assert graph.search("roses")[0].node_id == "garden-log#1"
    assert [d["docId"] for d in graph.documents()] == ["kitchen-notes", "garden-log"]
    graph.close()


def test_reopening_gives_identical_results(tmp_path, kitchen, garden, guide):
    path = tmp_path / "g.db"
    graph = DocumentGraph(path)
    for text, title in ((kitchen, "Kitchen Notes"), (garden, "Garden Log"), (guide, "User Guide")):
        graph.add_document(text, title)
    queries = ["config fails", "flour pantry", "tomatoes", "cold room cleaning"]
    before = {q: [h.to_dict() for h in graph.search(q)] for q in queries}
    graph.close()
    reopened = DocumentGraph(path)
    assert {q: [h.to_dict() for h in reopened.search(q)] for q in queries} == before
    reopened.close()


def test_second_process_sees_changes_of_the_first(tmp_path, kitchen, garden):
    path = tmp_path / "g.db"
    reader = DocumentGraph(path)
    writer = DocumentGraph(path)
    writer.add_document(kitchen, "Kitchen Notes")
    assert reader.search("flour")[0].doc_id == "kitchen-notes"
    writer.add_document(garden, "Garden Log")
    writer.remove_document("kitchen-notes")
    assert {h.doc_id for h in reader.search("flour tomatoes")} == {"garden-log"}
    writer.close()
    reader.close()


def test_a_process_the_change_log_left_behind_rebuilds_and_sees_everything(
    tmp_path, monkeypatch, kitchen, garden
):
    from groundgraph.store import sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "_CHANGES_KEPT", 5)
    monkeypatch.setattr(sqlite_module, "_TRIM_EVERY", 3)
    path = tmp_path / "g.db"
    reader = DocumentGraph(path)
    writer = DocumentGraph(path)
    writer.add_document(kitchen, "Kitchen Notes")
    assert reader.search("flour")[0].doc_id == "kitchen-notes"
    for i in range(12):  # more writes than the change log keeps
        writer.add_document(f"# Shed {i}\n\nRakes and spades, shelf {i}.", f"Shed {i}")
    writer.add_document(garden, "Garden Log")
    writer.remove_document("kitchen-notes")
    writer.add_text("Mara keeps the shed key.", scopes=["team"])
    # The reader cannot replay the log any more: it rebuilds from the store instead.
    assert {h.doc_id for h in reader.search("flour tomatoes")} == {"garden-log"}
    assert len({h.doc_id for h in reader.search("rakes spades", max_results=20)}) == 12
    assert reader.query("Who keeps the shed key?", scopes=["team"]) == ["Mara keeps the shed key."]
    assert reader.search("tomatoes") == writer.search("tomatoes")
    writer.close()
    reader.close()


words = st.sampled_from(["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa"])
sections = st.lists(st.lists(words, min_size=1, max_size=8), min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["d1", "d2", "d3"]), sections), min_size=1, max_size=6),
    st.sampled_from(["d1", "d2", "d3"]),
)
def test_removal_leaves_no_node_edge_or_posting(ops, victim):
    graph = DocumentGraph()
    for doc_id, body in ops:
        text = "\n\n".join(f"## {doc_id} part {i}\n\n{' '.join(ws)}" for i, ws in enumerate(body))
        graph.add_document(text, f"Doc {doc_id}", doc_id=doc_id)
    graph.remove_document(victim)
    assert not graph.store.reads.document_nodes(victim)
    for edge in graph.store.reads.iter_edges():
        assert not _mine(victim, [edge.source, edge.target])
    assert not graph.index.doc_positions.get(victim)
    for pos in range(len(graph.index.node_ids)):
        if graph.index.doc_of[pos] == victim:
            assert not graph.index.alive_mask(np.array([pos]))[0]
    graph.index.compact()
    live = sum(len(graph.index.node_terms(p)[0]) for p in graph.index.position.values())
    assert graph.index.posting_count() == live
