"""benchmarks/grounding.py: its perturbations, its scoring, and a run on a tiny HotpotQA set."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from types import ModuleType

import pytest

from repo_paths import ROOT

SCRIPT = ROOT / "benchmarks" / "grounding.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("grounding_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_negation_removes_or_inserts_one_cue(bench):
    assert bench.negate("The film was not released.") == "The film was released."
    assert bench.negate("She never married.") == "She married."
    assert bench.negate("It wasn't released.") == "It was released."
    assert bench.negate("It won't stop.") == "It will stop."
    assert bench.negate("The film was released in 1990.") == "The film was not released in 1990."
    assert bench.negate("Birds sing.") is None


def test_number_change_is_seeded_and_keeps_the_kind_of_number(bench):
    year = bench.change_number("Founded in 1997 by two friends.", random.Random(1))
    assert year is not None and year != "Founded in 1997 by two friends."
    new = int(year.split()[2])
    assert 1988 <= new <= 2006 and new != 1997
    assert year == bench.change_number("Founded in 1997 by two friends.", random.Random(1))
    small = bench.change_number("It has 5 floors.", random.Random(2))
    assert small is not None and int(small.split()[2]) in (6, 7, 8)
    assert bench.change_number("Priced at 3.5 dollars.", random.Random(0)) is None
    assert bench.change_number("No numbers here.", random.Random(0)) is None


def test_entity_swap_replaces_the_longest_title_with_another(bench):
    names = bench.name_patterns(["Leeds", "Leeds United"])
    swapped = bench.swap_entity(
        "Leeds United plays in Leeds.", names, ["Hull City", "Leeds"], random.Random(0)
    )
    assert swapped == "Hull City plays in Leeds."
    fallback = bench.swap_entity("He moved to Paris in May.", [], ["Rome"], random.Random(0))
    assert fallback == "He moved to Rome in May."
    assert bench.swap_entity("all lower case.", [], ["Rome"], random.Random(0)) is None


def test_drop_hop_states_the_bridge_fact_of_the_first_entity(bench):
    facts = {
        "Leland, North Carolina": ['Movies such as "Maximum Overdrive" were shot in Leland.'],
        "Maximum Overdrive": ["Maximum Overdrive is a 1986 film directed by Stephen King."],
    }
    assert bench.drop_hop(facts) == (
        "Maximum Overdrive is a 1986 film directed by Stephen King.",
        "Leland, North Carolina is a 1986 film directed by Stephen King.",
    )
    assert bench.drop_hop({"A": ["Nothing here."], "B": ["B is fine."]}) is None


def test_scores(bench):
    s = bench.score([(True, True), (True, False), (False, True), (False, False), (False, False)])
    assert (s.precision, s.recall, s.false_accept) == (0.5, 0.5, pytest.approx(1 / 3))
    assert (s.positives, s.negatives) == (2, 3)


CONTEXT = [
    ["Ferry Line", ["The Ferry Line runs boats to Ayr.", " It was founded in 1901."]],
    ["Ayr", ["Ayr is a town on the west coast.", " Ayr has a harbour of 40 berths."]],
    ["Troon", ["Troon is a town with a golf course."]],
]


def test_a_run_on_a_tiny_set_prints_the_three_tables(bench, tmp_path, capsys):
    questions = [
        {
            "_id": "q1",
            "question": "Which coast is the town the Ferry Line serves on?",
            "answer": "west",
            "type": "bridge",
            "level": "easy",
            "supporting_facts": [["Ferry Line", 0], ["Ferry Line", 1], ["Ayr", 0], ["Ayr", 1]],
            "context": CONTEXT,
        }
    ]
    corpus = {title: sentences for title, sentences in CONTEXT}
    (tmp_path / "qa_train.json").write_text(json.dumps(questions), encoding="utf-8")
    (tmp_path / "train_corpus.json").write_text(json.dumps(corpus), encoding="utf-8")
    assert bench.main([str(tmp_path), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "4 gold sentences and 1 two-passage claims true" in out
    rows = [line for line in out.splitlines() if line.startswith("| search for the question")]
    assert len(rows) == 6  # four perturbations, the two-passage claims, all
    assert "| share only (the seed) |" in out and "| 0.9 |" in out
    graph = bench.DocumentGraph()
    claims = bench.build_claims(tmp_path, graph, 3, None)
    kinds = [c.kind for c in claims]
    assert kinds.count("true") == 5 and "drop-hop" in kinds and "number" in kinds
    hop = next(c for c in claims if c.kind == "drop-hop")
    assert hop.text == "Ferry Line is a town on the west coast."
    assert claims[hop.source].text == "Ayr is a town on the west coast."
