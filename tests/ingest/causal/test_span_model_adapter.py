"""CausalSpanExtractor: a token-classification model's cause/effect groups become CausalPairs."""

from __future__ import annotations

import sys

import pytest

from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.ingest.causal import CausalPair, CausalSpanExtractor
from model_fakes import FakeCausalTagger

RAIN = "Heavy rainfall caused severe flooding."
TWO = "Heavy rainfall caused severe flooding. Severe flooding led to power outages."


def test_the_tagged_groups_become_one_pair_with_real_offsets() -> None:
    (pair,) = CausalSpanExtractor(pipeline=FakeCausalTagger())(RAIN)
    assert isinstance(pair, CausalPair)
    assert (pair.cause, pair.effect) == ("Heavy rainfall", "severe flooding")
    assert RAIN[slice(*pair.cause_span)] == pair.cause
    assert RAIN[slice(*pair.effect_span)] == pair.effect
    assert pair.cue == "model"


def test_each_sentence_goes_to_the_model_alone_and_its_offsets_come_back() -> None:
    tagger = FakeCausalTagger()
    pairs = CausalSpanExtractor(pipeline=tagger)(TWO)
    assert tagger.calls == [
        "Heavy rainfall caused severe flooding.",
        "Severe flooding led to power outages.",
    ]
    assert [(p.cause, p.effect) for p in pairs] == [
        ("Heavy rainfall", "severe flooding"),
        ("Severe flooding", "power outages"),
    ]
    assert all(TWO[slice(*p.effect_span)] == p.effect for p in pairs)


def test_groups_below_the_threshold_and_other_labels_are_dropped() -> None:
    assert CausalSpanExtractor(pipeline=FakeCausalTagger(score=0.4))(RAIN) == []
    assert CausalSpanExtractor(pipeline=FakeCausalTagger(score=0.4), threshold=0.3)(RAIN)
    only_causes = CausalSpanExtractor(pipeline=FakeCausalTagger(), effect_labels=["EFFECT"])
    assert only_causes(RAIN) == []  # a sentence with causes and no effect gives nothing
    assert CausalSpanExtractor(pipeline=FakeCausalTagger())("The sky is blue.") == []


def test_in_the_memory_slot_the_pairs_chain_facts() -> None:
    graph = DocumentGraph(causal_extractor=CausalSpanExtractor(pipeline=FakeCausalTagger()))
    first = graph.add_text("Heavy rainfall caused severe flooding.")
    graph.add_text("Severe flooding led to power outages.")
    assert first.causes == (("Heavy rainfall", "severe flooding"),)
    trace = graph.trace_effects("Heavy rainfall caused severe flooding.")
    assert "power outages" in [t.casefold() for t in trace["terminals"]]


def test_per_call_the_extractor_goes_in_as_causal() -> None:
    graph = DocumentGraph(causal_extractor=False)
    fact = graph.add_text(RAIN, causal=CausalSpanExtractor(pipeline=FakeCausalTagger()))
    assert fact.causes == (("Heavy rainfall", "severe flooding"),)


def test_without_transformers_the_first_call_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "transformers", None)
    extract = CausalSpanExtractor("some/causal-span-model")
    with pytest.raises(InputError, match="pip install transformers"):
        extract(RAIN)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"model": "a", "pipeline": FakeCausalTagger()},
        {"model": ""},
        {"pipeline": 3},
        {"pipeline": FakeCausalTagger(), "threshold": -0.1},
        {"pipeline": FakeCausalTagger(), "cause_labels": "C"},
        {"pipeline": FakeCausalTagger(), "cause_labels": ["X"], "effect_labels": ["X"]},
    ],
)
def test_bad_options_are_input_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(InputError):
        CausalSpanExtractor(**kwargs)  # type: ignore[arg-type]


def test_a_model_returning_something_else_is_an_input_error() -> None:
    with pytest.raises(InputError, match="list of tagged spans"):
        CausalSpanExtractor(pipeline=lambda text: {"C": "rain"})(RAIN)
    with pytest.raises(InputError, match="returned a str"):
        CausalSpanExtractor(pipeline=lambda text: ["rain"])(RAIN)
