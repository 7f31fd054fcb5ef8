"""negation_mismatch_verifier: a rule in the verify slot, and what it cannot see."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.reason.verifiers import (
    aligned_sentence,
    is_negated,
    negation_mismatch_verifier,
)


@pytest.mark.parametrize(
    ("sentence", "negated"),
    [
        ("The film was released in 1990.", False),
        ("The film was not released.", True),
        ("It wasn't released.", True),
        ("It can’t be edited.", True),
        ("She never married.", True),
        ("No sequel was made.", True),
        ("It is No. 5 on the chart.", False),
        ("Nothing changed.", True),
        ("The notable author.", False),
    ],
)
def test_negation_cues(sentence, negated):
    assert is_negated(sentence) is negated


def test_the_claim_is_compared_with_its_best_aligned_sentence():
    evidence = "The band formed in Leeds. Its drummer did not tour in 2004."
    assert aligned_sentence("The band formed in Leeds", evidence) == "The band formed in Leeds."
    assert negation_mismatch_verifier("The band did not form in Leeds.", evidence) == 0.0
    assert negation_mismatch_verifier("The band formed in Leeds.", evidence) == 1.0
    assert negation_mismatch_verifier("The drummer did not tour.", evidence) == 1.0
    assert negation_mismatch_verifier("The drummer toured in 2004.", evidence) == 0.0
    assert negation_mismatch_verifier("Anything at all.", "") == 1.0


def test_it_vetoes_a_negated_claim_in_ground():
    graph = DocumentGraph(entities=None, relations=None)
    graph.add_document(
        "The ferry runs on Sundays. It stops at Ayr.", "Ferry", "ferry", format="text"
    )
    found = graph.ground(
        "The ferry does not run on Sundays. The ferry stops at Ayr.",
        node_ids=["ferry"],
        verify=negation_mismatch_verifier,
        check_negation=False,
    )
    negated, plain = found.claims
    assert negated.vetoed and negated.nli == 0.0 and not negated.supported
    assert plain.supported and plain.nli == 1.0


@given(st.text(max_size=300), st.text(max_size=300))
def test_always_a_probability(claim, evidence):
    assert negation_mismatch_verifier(claim, evidence) in (0.0, 1.0)
