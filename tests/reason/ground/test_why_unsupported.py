"""why_unsupported: why a section does not support a sentence."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.errors import InputError

MANUAL = """# Kiln Manual
## Firing
Raise the heat slowly to 1200 degrees; a cracked pot means the firing was rushed.
## Cooling
Leave the lid shut until the kiln cools."""


@pytest.fixture(scope="module")
def graph() -> DocumentGraph:
    g = DocumentGraph()
    g.add_document(MANUAL, "Kiln Manual")
    return g


def test_a_sentence_the_section_lacks_words_for(graph: DocumentGraph) -> None:
    sentence = "A cracked pot means the glaze was too thick."
    why = graph.why_unsupported(sentence, "kiln-manual#1")
    assert why.stage == "lacks-weight" and why.share < why.min_support
    held = set(graph.terms(graph.node("kiln-manual#1").content))
    assert why.uncovered and all(t.term not in held for t in why.uncovered)
    assert [t.weight for t in why.uncovered] == sorted(
        (t.weight for t in why.uncovered), reverse=True
    )
    assert why.lacking == pytest.approx(why.mass * (why.min_support - why.share))
    (change,) = why.changes
    again = graph.ground(
        sentence, node_ids=["kiln-manual#1"], max_nodes=1, min_support=change.value
    )
    assert change.parameter == "min_support" and change.supported == again.claims[0].supported


def test_a_rule_that_refused_it_and_turning_it_off(graph: DocumentGraph) -> None:
    sentence = "Raise the heat slowly to 1300 degrees."
    why = graph.why_unsupported(sentence, "kiln-manual#1", check_substitutions=False)
    assert why.stage == "refused-by-rule" and why.rules == ("numbers",)
    assert why.missing_numbers == ("1300",)
    assert [(c.parameter, c.supported) for c in why.changes] == [("check_numbers", True)]
    # at the defaults two rules refuse it, and turning either one off alone is not enough
    both = graph.why_unsupported(sentence, "kiln-manual#1")
    assert both.rules == ("numbers", "substitutions")
    assert [(c.parameter, c.supported) for c in both.changes] == [
        ("check_numbers", False),
        ("check_substitutions", False),
    ]


def test_supported_missing_and_bad_input(graph: DocumentGraph) -> None:
    assert graph.why_unsupported("A cracked pot means rushed firing.", "kiln-manual#1").stage == (
        "supported"
    )
    assert graph.why_unsupported("A cracked pot.", "kiln-manual#9").stage == "missing"
    with pytest.raises(InputError):
        graph.why_unsupported("A cracked pot.", "")
    with pytest.raises(InputError):
        graph.why_unsupported("pot " * 5000, "kiln-manual#1")


_WORDS = ["heat", "kiln", "lid", "pot", "glaze", "rushed", "cools", "1200", "1300", "slowly"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5).map(" ".join),
    st.sampled_from(["kiln-manual#1", "kiln-manual#2"]),
)
def test_the_verdict_is_grounds_and_every_change_was_run(sentence: str, node: str) -> None:
    g = DocumentGraph()
    g.add_document(MANUAL, "Kiln Manual")
    why = g.why_unsupported(sentence + ".", node)
    checked = g.ground(sentence + ".", node_ids=[node], max_nodes=1).claims
    assert (why.stage in ("supported", "nothing-to-check")) == (not checked or checked[0].supported)
    for change in why.changes:
        again = g.ground(
            sentence + ".", node_ids=[node], max_nodes=1, **{change.parameter: change.value}
        )
        assert again.claims[0].supported == change.supported
