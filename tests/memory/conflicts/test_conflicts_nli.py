"""NLIConflictResolver: a cross-encoder's contradiction probability decides, in the memory slot."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.memory import ConflictResolver, Contradiction, NLIConflictResolver
from model_fakes import FakeNLI


def test_it_is_a_conflict_resolver() -> None:
    assert isinstance(NLIConflictResolver(model=FakeNLI()), ConflictResolver)


def test_the_candidates_above_the_threshold_are_contradicted_in_order() -> None:
    resolver = NLIConflictResolver(model=FakeNLI())
    found = resolver.contradictions(
        "Ilse lives in Linz.",
        ["Ilse likes tea.", "Ilse lives in Graz.", "Ilse lives in Linz.", "Ilse lives in Graz."],
    )
    assert found == [Contradiction("Ilse lives in Graz.", "nli", "contradiction probability 0.93")]
    assert resolver.calls == 1  # one batch for all candidates


def test_the_threshold_and_the_label_order_are_the_callers() -> None:
    assert (
        NLIConflictResolver(model=FakeNLI(), threshold=0.95).contradictions(
            "Ilse lives in Linz.", ["Ilse lives in Graz."]
        )
        == []
    )
    # A model whose first label is entailment: the same rows now read as 0.02.
    swapped = NLIConflictResolver(
        model=FakeNLI(), labels=("entailment", "contradiction", "neutral"), threshold=0.5
    )
    assert swapped.contradictions("Ilse lives in Linz.", ["Ilse lives in Graz."]) == []


def test_nothing_to_compare_calls_no_model() -> None:
    model = FakeNLI()
    resolver = NLIConflictResolver(model=model)
    assert resolver.contradictions("Ilse lives in Linz.", []) == []
    assert resolver.contradictions("Ilse lives in Linz.", ["  ", "Ilse lives in Linz."]) == []
    assert model.calls == 0


def test_in_the_memory_the_contradicted_fact_is_retired() -> None:
    graph = DocumentGraph(conflict_resolver=NLIConflictResolver(model=FakeNLI()))
    graph.add_text("Ilse lives in Graz.")
    graph.add_text("Ilse likes tea.")
    graph.add_text("Ilse lives in Linz.")
    (line,) = graph.conflicts()
    assert line["rule"] == "nli"
    assert line["old"]["content"] == "Ilse lives in Graz."
    recalled = graph.query("Where does Ilse live?")
    assert "Ilse lives in Linz." in recalled and "Ilse lives in Graz." not in recalled


def test_without_the_package_the_first_call_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    resolver = NLIConflictResolver()  # nothing loads yet
    with pytest.raises(InputError, match="pip install sentence-transformers"):
        resolver.contradictions("Ilse lives in Linz.", ["Ilse lives in Graz."])


class Broken:
    def __init__(self, rows: object) -> None:
        self.rows = rows

    def predict(self, sentences, apply_softmax=False):
        return self.rows


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (np.zeros((2, 3)), "2 rows for 1 pairs"),
        (np.zeros((1, 2)), "3 label probabilities"),
        (np.array([[np.nan, 0.0, 1.0]]), "finite"),
        ("contradiction", "str"),
    ],
)
def test_a_model_answer_of_the_wrong_shape_is_an_input_error(rows: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        NLIConflictResolver(model=Broken(rows)).contradictions("A is in B.", ["A is in C."])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"threshold": 0},
        {"threshold": 2},
        {"labels": ("entailment", "neutral")},
        {"max_candidates": 0},
        {"model": object()},
    ],
)
def test_bad_options_are_input_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(InputError):
        NLIConflictResolver(**{"model": FakeNLI(), **kwargs})  # type: ignore[arg-type]


def test_hostile_input_is_refused_or_cut() -> None:
    resolver = NLIConflictResolver(model=FakeNLI())
    with pytest.raises(InputError):
        resolver.contradictions(3, ["x"])  # type: ignore[arg-type]
    with pytest.raises(InputError):
        resolver.contradictions("x", "not a list")  # type: ignore[arg-type]
    many = [f"Ilse lives in Town{i}." for i in range(500)]
    assert len(resolver.contradictions("Ilse lives in Linz.", many)) == 10  # max_candidates
