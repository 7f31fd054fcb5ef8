"""The evaluation runner: configurations, document-level rankings, the report and its forms."""

from __future__ import annotations

import json
from typing import Any

import pytest

from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.eval.questions import Question
from groundgraph.eval.runner import (
    STANDARD_CONFIGS,
    EvalReport,
    accepts,
    evaluate,
    markdown_table,
    search_retriever,
    supported_configs,
    unsupported_options,
)

QUESTIONS = [
    Question("q1", "rye bread", ("a", "b", "c", "d")),
    Question("q2", "oven cleaning", ("b",)),
]


def fixed(rankings: dict[str, list[str]]):
    """A retriever that answers each question with a ranking written in the test."""

    def retrieve(graph: DocumentGraph, question: str) -> list[str]:
        return rankings[question]

    return retrieve


def small_graph() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_document(
        "Rye bread rises overnight in the cold room.", "Bread", "bread", format="text"
    )
    graph.add_document("Ovens are cleaned after baking.", "Cleaning", "cleaning", format="text")
    graph.add_document("Flour and rye live in the pantry.", "Pantry", "pantry", format="text")
    return graph


def test_scores_of_fixed_rankings_match_hand_values():
    graph = DocumentGraph()
    report = evaluate(
        graph,
        QUESTIONS,
        {
            "mine": fixed(
                {"rye bread": ["a", "x", "b", "a", "y", "c"], "oven cleaning": ["x", "y", "b"]}
            )
        },
        k_values=(5, 2),
        dataset="toy",
    )
    assert report.k_values == (2, 5)
    result = report.results["mine"]
    assert result.rankings == (("a", "x", "b", "y", "c"), ("x", "y", "b"))
    # recall@5: q1 finds a, b, c of 4 (3/4), q2 finds b of 1 (1/1): mean (0.75 + 1) / 2 = 0.875
    assert result.per_question["recall@5"] == (0.75, 1.0)
    assert result.scores["recall@5"].mean == 0.875
    # recall@2: q1 1/4, q2 0 (b at rank 3): mean 0.125
    assert result.scores["recall@2"].mean == 0.125
    # MRR@5: q1 1/1, q2 1/3: mean (1 + 1/3) / 2 = 2/3
    assert result.scores["mrr@5"].mean == pytest.approx(2 / 3)
    # precision@5: q1 3/5, q2 1/5 (three distinct documents for five places): mean 0.4
    assert result.scores["precision@5"].mean == pytest.approx(0.4)
    interval = result.scores["recall@5"]
    assert interval.low <= interval.mean <= interval.high
    assert len(result.seconds) == 2


def test_search_configs_pass_options_to_search_and_compare_question_by_question():
    graph = small_graph()
    questions = [
        Question("q1", "rye bread", ("bread",)),
        Question("q2", "pantry flour", ("pantry",)),
    ]
    report = evaluate(graph, questions, {"bm25": {"max_hops": 0}, "walk": {}}, k_values=(1, 3))
    assert list(report.results) == ["bm25", "walk"]
    assert report.results["bm25"].options == {"max_hops": 0}
    bm25 = report.results["bm25"]
    assert bm25.rankings[0][0] == "bread"
    assert bm25.rankings[1][0] == "pantry"
    assert bm25.scores["recall@1"].mean == 1.0
    difference = report.difference("walk", "bm25", "recall@3")
    assert difference.low <= difference.mean <= difference.high
    changed = report.changed("walk", "bm25", "recall@3")
    assert all(a != b for _, a, b in changed)


def test_long_documents_count_once_and_the_runner_widens_the_search():
    graph = DocumentGraph(max_chunk_chars=100)
    paragraph = "Rye bread needs a long proof and a hot oven for a dark crust. "
    graph.add_document(paragraph * 10, "Rye Bread Guide", "guide", format="text")
    graph.add_document("Rye bread keeps for a week.", "Keeping", "keeping", format="text")
    graph.add_document("A dark crust on rye bread.", "Crust", "crust", format="text")
    # the guide's chunks fill the first hits: three hits hold one document
    assert {h.doc_id for h in graph.search("rye bread", max_results=3, max_hops=0)} == {"guide"}
    ranking = search_retriever({"max_hops": 0}, 3)(graph, "rye bread")
    assert ranking[0] == "guide"
    assert sorted(ranking) == ["crust", "guide", "keeping"]


def test_unknown_options_are_named_before_anything_runs():
    graph = small_graph()
    assert accepts(graph, {"max_hops": 1, "max_seeds": 2})
    assert unsupported_options(graph, {"max_hops": 1, "no_such_option": 2}) == ["no_such_option"]
    with pytest.raises(InputError, match="'future' sets no_such_option"):
        evaluate(graph, QUESTIONS, {"future": {"no_such_option": 2}})
    with pytest.raises(InputError, match="leave max_results out"):
        evaluate(graph, QUESTIONS, {"deep": {"max_results": 50}})


class FutureGraph(DocumentGraph):
    """A graph whose search takes options this version does not know."""

    seen: list[dict[str, Any]]

    def search(self, query: str, **options: Any) -> Any:  # type: ignore[override]
        self.seen.append(options)
        return []


def test_supported_configs_keep_what_search_takes_in_order():
    graph = small_graph()
    configs = {"bm25": {"max_hops": 0}, "future": {"no_such_option": 1}, "walk": {}}
    assert list(supported_configs(graph, configs)) == ["bm25", "walk"]
    assert list(STANDARD_CONFIGS)[:2] == ["bm25", "walk"]
    assert set(supported_configs(graph)) <= set(STANDARD_CONFIGS)


def test_options_pass_through_to_a_search_that_takes_them():
    graph = FutureGraph()
    graph.seen = []
    assert accepts(graph, {"walker": "ppr"})
    report = evaluate(graph, QUESTIONS[:1], {"ppr": {"walker": "ppr"}}, k_values=(2,))
    assert graph.seen[-1] == {"max_results": 2, "walker": "ppr"}
    assert report.results["ppr"].scores["recall@2"].mean == 0.0


def test_bad_arguments():
    graph = DocumentGraph()
    with pytest.raises(InputError, match="k_values"):
        evaluate(graph, QUESTIONS, {"a": fixed({})}, k_values=(0,))
    with pytest.raises(InputError, match="no questions"):
        evaluate(graph, [], {"a": fixed({})})
    with pytest.raises(InputError, match="no configurations"):
        evaluate(graph, QUESTIONS, {})
    with pytest.raises(InputError, match="search options or a callable"):
        evaluate(graph, QUESTIONS, {"a": 3})  # type: ignore[dict-item]


def report_of_two() -> EvalReport:
    rankings = {"rye bread": ["a", "b"], "oven cleaning": ["b"]}
    return evaluate(
        DocumentGraph(),
        QUESTIONS,
        {"one": fixed(rankings), "two": fixed({"rye bread": [], "oven cleaning": []})},
        k_values=(1, 2),
        dataset="toy",
        resamples=50,
    )


def test_markdown_table_has_a_row_per_configuration():
    report = report_of_two()
    table = report.to_markdown()
    lines = table.splitlines()
    assert lines[0].startswith("| dataset | config | precision@1 | precision@2 | recall@1 |")
    assert lines[0].endswith("| ndcg@2 | p50 ms | p95 ms |")
    assert len(lines) == 4
    # recall@1: q1 1/4, q2 1/1, mean 0.625
    assert lines[2].startswith("| toy | one | ")
    assert "0.625 (" in lines[2]
    assert lines[3].startswith("| toy | two | 0.000 (0.000–0.000)")
    plain = markdown_table([report, report], ["recall@2"], intervals=False)
    # recall@2: q1 a, b of 4 = 0.5, q2 1: mean 0.75
    assert plain.splitlines()[2].startswith("| toy | one | 0.750 |")
    assert len(plain.splitlines()) == 6


def test_json_form():
    report = report_of_two()
    data = json.loads(report.to_json(rankings=True))
    assert data["dataset"] == "toy"
    assert data["questions"] == 2
    assert data["kValues"] == [1, 2]
    assert data["bootstrap"] == {"resamples": 50, "seed": report.seed, "level": 0.95}
    one = data["configs"]["one"]
    assert one["options"] is None
    assert one["scores"]["recall@2"]["mean"] == 0.75
    assert set(one["latency"]) == {"p50Ms", "p95Ms", "meanMs"}
    assert one["rankings"] == {"q1": ["a", "b"], "q2": ["b"]}
    assert "rankings" not in report.to_dict()["configs"]["one"]
