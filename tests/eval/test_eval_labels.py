"""Evaluation labels may be section or chunk ids: hits are judged at that level."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.eval.labels import Lineage, judge, node_level
from groundgraph.eval.metrics import distinct
from groundgraph.eval.questions import Question
from groundgraph.eval.runner import evaluate, search_ranker

MILL = (
    "# Mill\n\nThe old mill by the river.\n\n"
    "## Flour\n\nThe mill ground flour for the village bakery.\n\n"
    "## Wheel\n\nThe water wheel turns in the spring floods.\n\n"
    "### Repairs\n\nThe wheel paddles were replaced after the floods of one wet spring."
)
BAKERY = "# Bakery\n\nThe village bakery sells plum cake made with the mill's flour."


@pytest.fixture(scope="module")
def graph():
    with DocumentGraph() as built:
        built.add_document(MILL, "Mill", doc_id="mill")
        built.add_document(BAKERY, "Bakery", doc_id="bakery")
        yield built


def section(graph: DocumentGraph, title: str) -> str:
    return next(n.node_id for n in graph.store.reads.document_nodes("mill") if n.title == title)


def test_document_labels_keep_document_level(graph):
    question = Question("q", "flour bakery", ("mill", "bakery"))
    assert not node_level(question.relevant)
    ranking = search_ranker({}, 5)(graph, question)
    hits = graph.search("flour bakery", max_results=40)
    assert ranking == distinct(h.doc_id for h in hits)[:5]


def test_a_section_label_counts_its_own_hits_and_those_inside_it(graph):
    wheel, repairs, flour = (
        section(graph, "Wheel"),
        section(graph, "Repairs"),
        section(graph, "Flour"),
    )
    unit = judge((wheel,), Lineage(graph))
    by_id = {h.node_id: h for h in graph.search("wheel floods flour", max_results=20)}
    assert unit(by_id[wheel]) == wheel
    assert unit(by_id[repairs]) == wheel  # a subsection lies in the labelled section
    assert unit(by_id[flour]) == flour  # another section of the same document: itself


def test_a_section_hit_does_not_count_for_a_chunk_below_it(graph):
    wheel, repairs = section(graph, "Wheel"), section(graph, "Repairs")
    unit = judge((repairs,), Lineage(graph))
    hit = next(h for h in graph.search("water wheel", max_results=20) if h.node_id == wheel)
    assert unit(hit) == wheel


def test_chunk_level_scores(graph):
    repairs, flour = section(graph, "Repairs"), section(graph, "Flour")
    questions = [
        Question("q1", "When were the wheel paddles replaced?", (repairs,)),
        Question("q2", "Which mill ground flour?", (flour,)),
    ]
    report = evaluate(graph, questions, {"bm25": {"max_hops": 0}}, (1, 3))
    scores = report.results["bm25"].scores
    ranking = report.results["bm25"].rankings
    for question, ranked in zip(questions, ranking, strict=True):
        first = ranked[0]
        assert first in question.relevant  # each question's own section comes first
    assert scores["mrr@3"].mean == 1.0 and scores["recall@1"].mean == 1.0
    assert scores["precision@3"].mean == pytest.approx(1 / 3)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["flour", "wheel floods", "plum cake", "river mill"]), st.integers(1, 6))
def test_document_level_ranking_is_the_distinct_documents_of_the_hits(query, depth):
    with DocumentGraph() as graph:
        graph.add_document(MILL, "Mill", doc_id="mill")
        graph.add_document(BAKERY, "Bakery", doc_id="bakery")
        ranking = search_ranker({"max_hops": 0}, depth)(graph, Question("q", query, ("mill",)))
        hits = graph.search(query, max_results=depth * 16, max_hops=0)
        assert ranking == distinct(h.doc_id for h in hits)[:depth]
