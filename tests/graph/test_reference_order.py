"""Reference edges from named titles are a function of the set of documents.

A node that names more titles than it may link to (``MAX_TITLE_LINKS_PER_NODE``) links to
the first ones it names, whichever documents arrived first: the documents added in any
order, in one run or one at a time, removed and added again, store the same edges.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graph.test_order_free import stored_edges
from groundgraph import DocumentGraph
from groundgraph.graph import title_links
from groundgraph.graph.linking import MAX_TITLE_LINKS_PER_NODE
from groundgraph.ingest import parse_markdown
from groundgraph.model import REFERENCE

# Two words each, some sharing a word, and one of stop words only (no term to find its
# namers by). Documents may share a title (a name named once links to each of them), so
# that 4 to 12 documents cross the cap often.
TITLES = ["Amber Fox", "Blue Heron", "Amber Lake", "Cedar Mill", "Blue Ridge", ".WHILE"]
WORDS = ["walk", "stone", "river", "bench", "lamp", "gate"]

# A document: its title (an index into TITLES) and sections, each naming some titles, in
# any order, some twice, and maybe a markdown link to a document. The first, if it has no
# heading, is the root's own text (two roots may name each other).
named = st.lists(st.integers(0, len(TITLES) - 1), max_size=8)
section = st.tuples(st.sampled_from([*WORDS, ""]), named, st.none() | st.integers(0, 11))
document = st.tuples(st.integers(0, len(TITLES) - 1), st.lists(section, min_size=1, max_size=3))
corpus = st.lists(document, min_size=4, max_size=12)


def _text(sections: list[tuple[str, list[int], int | None]]) -> str:
    parts = []
    for k, (word, names, link) in enumerate(sections):
        mentions = " ".join(f"Past {TITLES[n]} we {word or 'go'}." for n in names)
        heading = f"## {word.title()} {k}\n\n" if word or k else ""
        linked = "" if link is None else f" [More](doc{link}.md)."
        parts.append(f"{heading}The {word or 'way'} here. {mentions}{linked}")
    return "\n\n".join(parts) + "\n"


def _parsed(docs: list[tuple[int, list[tuple[str, list[int], int | None]]]], order: Iterable[int]):
    return [parse_markdown(_text(docs[i][1]), TITLES[docs[i][0]], doc_id=f"doc{i}") for i in order]


def _index(db: Path, parsed) -> list[tuple[object, ...]]:
    with DocumentGraph(db) as graph:
        list(graph.add_documents(parsed, workers=0))
    return stored_edges(db)


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(corpus, st.data())
def test_any_permutation_of_adds_stores_the_same_edges(tmp_path_factory, docs, data):
    first = data.draw(st.permutations(range(len(docs))))
    second = data.draw(st.permutations(range(len(docs))))
    folder = tmp_path_factory.mktemp("order")
    a = _index(folder / "a.db", _parsed(docs, first))
    b = _index(folder / "b.db", _parsed(docs, second))
    assert [e for e in b if e[2] == REFERENCE] == [e for e in a if e[2] == REFERENCE]
    assert b == a

    # One at a time, each add a run of its own (reads in between), and a re-add.
    with DocumentGraph(folder / "c.db") as graph:
        for parsed in _parsed(docs, second):
            graph.add_parsed(parsed)
            graph.indexes.sync()
        graph.add_parsed(_parsed(docs, second[:1])[0])
        graph.indexes.sync()
    assert stored_edges(folder / "c.db") == a


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(corpus, st.data())
def test_removing_a_document_leaves_the_edges_of_the_others(tmp_path_factory, docs, data):
    order = data.draw(st.permutations(range(len(docs))))
    gone = data.draw(st.integers(0, len(docs) - 1))
    folder = tmp_path_factory.mktemp("removal")
    with DocumentGraph(folder / "all.db") as graph:
        list(graph.add_documents(_parsed(docs, order), workers=0))
        graph.remove_document(f"doc{gone}")
        graph.indexes.sync()
    rest = _parsed(docs, [i for i in order if i != gone])
    # doc ids are kept: the other documents' edges are compared as they are
    assert stored_edges(folder / "all.db") == _index(folder / "rest.db", rest)


def test_a_node_naming_many_titles_links_the_first_ones_it_names(tmp_path):
    # doc0 names Blue Heron, then Amber Lake, then Cedar Mill: six documents hold each,
    # and those of one title come by document id
    docs = [(0, [("walk", [1, 2, 3], None)])] + [
        (1 + k // 6, [("lamp", [], None)]) for k in range(18)
    ]
    named = [sorted(f"doc{i}" for i in range(t, t + 6)) for t in (1, 7, 13)]
    first = [d for ids in named for d in ids][:MAX_TITLE_LINKS_PER_NODE]
    for name, order in (("up", range(19)), ("down", range(18, -1, -1))):
        edges = _index(tmp_path / f"{name}.db", _parsed(docs, order))
        linked = [t for s, t, kind, _ in edges if s == "doc0#1" and kind == REFERENCE]
        assert sorted(linked) == sorted(first)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(corpus, st.permutations(range(12)))
def test_settling_in_small_reads_stores_each_reference_once(tmp_path_factory, docs, order):
    # The settled nodes are read from the store a few at a time: an edge between two
    # nodes read apart is still stored once, and the graph is the one read at once.
    order = [i for i in order if i < len(docs)]
    folder = tmp_path_factory.mktemp("batches")
    whole = _index(folder / "whole.db", _parsed(docs, order))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(title_links, "_READ_BATCH", 1)
        apart = _index(folder / "apart.db", _parsed(docs, order))
    assert apart == whole
    pairs = [(s, t) for s, t, kind, _ in apart if kind == REFERENCE]
    assert len(pairs) == len(set(pairs))
