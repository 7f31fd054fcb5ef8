"""The graph is a function of the set of documents: the order they came in, how they were
split into runs, and re-adds of the same text leave the same nodes and edges."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.ingest import plan_folder
from groundgraph.model import SEMANTIC

# Few words, so that sections share terms (and tie in similarity) often.
WORDS = ["harbour", "ferry", "tide", "ledger", "crane", "signal", "rope", "lamp", "cargo"]
TITLES = ["North Pier", "South Dock", "Old Quay", "Salt Yard", "Tow Path", "Ice House"]
body = st.lists(st.sampled_from(WORDS), min_size=1, max_size=10).map(" ".join)
document = st.lists(st.tuples(st.sampled_from(WORDS), body), min_size=1, max_size=4)
corpus = st.lists(document, min_size=2, max_size=6)


def _text(d: int, sections: list[tuple[str, str]]) -> str:
    # Sections may name another document's title (a reference edge) or link to one.
    parts = [
        f"## {heading} {k}\n\n{words}." + (f" See {TITLES[(d + k) % len(TITLES)]}." if k else "")
        for k, (heading, words) in enumerate(sections)
    ]
    return "\n\n".join(parts) + f"\n\n[next](doc{(d + 1) % len(TITLES)}.md)\n"


def _edges(graph: DocumentGraph) -> dict[tuple[str, str, str], float]:
    graph.indexes.sync()  # semantic edges are derived at the first read after writes
    return {(e.source, e.target, e.type): e.weight for e in graph.store.reads.iter_edges()}


def _nodes(graph: DocumentGraph) -> set[tuple[str, str, str]]:
    nodes = [*graph.store.reads.iter_nodes(), *graph.store.reads.entity_nodes()]
    return {(n.node_id, n.kind, n.content) for n in nodes}


def _same(a: dict[tuple[str, str, str], float], b: dict[tuple[str, str, str], float]) -> bool:
    return a.keys() == b.keys() and all(abs(a[k] - b[k]) <= 1e-9 for k in a)


def _add(graph: DocumentGraph, docs: list[tuple[int, list[tuple[str, str]]]]) -> None:
    for d, sections in docs:
        graph.add_document(_text(d, sections), TITLES[d], doc_id=f"doc{d}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus, st.randoms(use_true_random=False), st.integers(0, 6))
def test_any_order_any_split_and_re_adds_give_the_same_graph(docs, rng, cut):
    indexed = list(enumerate(docs))
    first = DocumentGraph()
    _add(first, indexed)
    expected, nodes = _edges(first), _nodes(first)

    shuffled = indexed[:]
    rng.shuffle(shuffled)
    second = DocumentGraph()
    _add(second, shuffled[:cut])
    _edges(second)  # a read between the runs derives the links of the first part
    _add(second, shuffled[cut:])
    _add(second, shuffled[: cut % len(shuffled) + 1])  # the same text again
    assert _same(_edges(second), expected)
    assert _nodes(second) == nodes

    # Removing a document and adding it back leaves what was there before.
    d, sections = shuffled[0]
    second.remove_document(f"doc{d}")
    _add(second, [(d, sections)])
    assert _same(_edges(second), expected)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus)
def test_removing_a_document_leaves_the_graph_of_the_others(docs):
    indexed = list(enumerate(docs))
    with_all = DocumentGraph()
    _add(with_all, indexed)
    with_all.remove_document("doc0")
    without = DocumentGraph()
    _add(without, indexed[1:])
    assert _same(_edges(with_all), _edges(without))


def _index(db: Path, folder: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "groundgraph", "--db", str(db), "index", str(folder)],
        check=True,
        capture_output=True,
    )


def stored_edges(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return sorted(
            conn.execute(
                "SELECT s.node_id, t.node_id, k.name, round(COALESCE(e.weight, k.weight), 9)"
                " FROM edges e JOIN nodes s ON s.key = e.src JOIN nodes t ON t.key = e.dst"
                " JOIN edge_types k ON k.code = e.type"
            )
        )


def test_cli_runs_in_two_parts_store_the_graph_of_one_run(tmp_path):
    docs = [
        (f"doc{d}", _text(d, [(WORDS[d], " ".join(WORDS[d:] + WORDS[:2])), (WORDS[-d], "rope")]))
        for d in range(6)
    ]
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in docs[::2]:  # the first run sees half the files
        (folder / f"{name}.md").write_text(text, encoding="utf-8")
    _index(tmp_path / "two.db", folder)
    for name, text in docs[1::2]:
        (folder / f"{name}.md").write_text(text, encoding="utf-8")
    _index(tmp_path / "two.db", folder)
    _index(tmp_path / "one.db", folder)
    one = stored_edges(tmp_path / "one.db")
    assert any(edge[2] == SEMANTIC for edge in one)
    assert stored_edges(tmp_path / "two.db") == one
    assert len(plan_folder([folder]).files) == len(docs)
