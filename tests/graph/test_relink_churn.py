"""A read whose semantic relink keeps meeting documents other processes just changed goes
on with the edges it has (they stay due), instead of failing the read (8 writers and 4
readers on one PostgreSQL store found it: benchmarks/postgres_processes.py)."""

from __future__ import annotations

import logging

import pytest

from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.graph.indexes import LINKS_SETTING


def _doc(i: int) -> str:
    return f"# Pump {i}\n\n## Care\n\nThe pump {i} feeds the boiler and the valve opens."


def _churning(reader: DocumentGraph, writer: DocumentGraph, times: int | None) -> list[int]:
    """Make ``reader``'s relink fail as a concurrent removal would: each try, another
    process writes first (the store moves on) and the store refuses the edges."""
    store_writes = reader.store.writes
    real = store_writes.replace_derived_edges
    tries = [0]

    def refuse(edge_type, edges):
        tries[0] += 1
        if times is not None and tries[0] > times:
            return real(edge_type, edges)
        writer.add_document(_doc(100 + tries[0]), f"Churn {tries[0]}", f"churn{tries[0]}")
        raise InputError("a 'semantic' edge ends at 'gone#1', which is not a stored node")

    store_writes.replace_derived_edges = refuse  # type: ignore[method-assign]
    return tries


def test_a_relink_that_never_lands_leaves_the_edges_due_and_the_read_answers(tmp_path, caplog):
    path = tmp_path / "s.db"
    with DocumentGraph(path) as first:
        for i in range(3):
            first.add_document(_doc(i), f"Pump {i}", f"pump{i}")
    reader, writer = DocumentGraph(path), DocumentGraph(path)
    reader.add_document(_doc(9), "Pump 9", "pump9")  # the reader's own write: links due
    tries = _churning(reader, writer, times=None)
    with caplog.at_level(logging.WARNING, logger="groundgraph.graph.indexes"):
        hits = reader.search("pump boiler")
    assert hits and tries[0] == 5
    assert "stay due" in caplog.text
    assert reader.store.settings.get_setting(LINKS_SETTING) == "due"
    assert {h.doc_id for h in reader.search("churn")} >= {"churn1"}  # it caught up
    reader.close()
    writer.close()


def test_a_relink_that_lands_on_a_later_try_clears_the_due_mark(tmp_path):
    path = tmp_path / "s.db"
    reader, writer = DocumentGraph(path), DocumentGraph(path)
    reader.add_document(_doc(1), "Pump 1", "pump1")
    tries = _churning(reader, writer, times=2)
    assert reader.search("pump boiler")
    assert tries[0] == 3
    assert reader.store.settings.get_setting(LINKS_SETTING) == ""
    reader.close()
    writer.close()


def test_a_refused_relink_with_no_other_writer_is_still_an_error(tmp_path):
    graph = DocumentGraph(tmp_path / "s.db")
    graph.add_document(_doc(1), "Pump 1", "pump1")

    def refuse(edge_type, edges):
        raise InputError("a 'semantic' edge ends at 'gone#1', which is not a stored node")

    real = graph.store.writes.replace_derived_edges
    graph.store.writes.replace_derived_edges = refuse  # type: ignore[method-assign]
    with pytest.raises(InputError, match="not a stored node"):
        graph.search("pump")
    graph.store.writes.replace_derived_edges = real  # type: ignore[method-assign]
    graph.close()
