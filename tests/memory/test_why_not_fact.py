"""why_not_fact: why a fact did not come for a memory query."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.model.why_not import (
    FOUND,
    MISSING,
    NO_COMMON_TERM,
    NOT_YET_VALID,
    OUTRANKED,
    RETIRED,
    STAGES,
)

FACTS = [
    "Heavy rain flooded the Ouse valley.",
    "The flood closed the Ouse road.",
    "Mara moved the kiln demo to Friday.",
    "Bob likes green tea.",
]


@pytest.fixture
def graph() -> DocumentGraph:
    g = DocumentGraph()
    g.add_texts(FACTS)
    return g


def test_a_recalled_fact_is_found_and_a_lower_one_outranked(graph: DocumentGraph) -> None:
    recalled = graph.query("flood Ouse", top_k=4)
    assert graph.why_not_fact("flood Ouse", recalled[0], top_k=1).stage == FOUND
    lower = graph.why_not_fact("flood Ouse", recalled[1], top_k=1)
    assert lower.stage == OUTRANKED and lower.ranking is not None and lower.ranking.rank == 2
    cf = lower.counterfactual
    assert cf is not None and cf.parameter == "top_k"
    assert graph.query("flood Ouse", top_k=int(cf.value or 0)).index(recalled[1]) + 1 == cf.rank


def test_a_fact_with_no_word_of_the_query(graph: DocumentGraph) -> None:
    # two facts match "flood": with top_k=2 nothing is filled in
    assert "Bob likes green tea." not in graph.query("flood", top_k=2)
    result = graph.why_not_fact("flood", "Bob likes green tea.", top_k=2)
    assert result.stage == NO_COMMON_TERM and result.terms is not None
    assert result.terms.query_terms == ("flood",) and result.terms.shared == ()


def test_a_fact_query_fills_in_is_found_and_says_so(graph: DocumentGraph) -> None:
    recalled = graph.query_detailed("flood", top_k=4)
    filled = [h.content for h in recalled if h.explanation.seeding.mode == "fill"]
    assert "Bob likes green tea." in filled
    result = graph.why_not_fact("flood", "Bob likes green tea.", top_k=4)
    assert result.stage == FOUND and "as a fill" in result.reason
    assert result.terms is not None and result.terms.shared == ()


def test_a_superseded_fact_is_retired_and_include_superseded_brings_it(
    graph: DocumentGraph,
) -> None:
    graph.supersede("Bob likes green tea.", "Bob likes black tea.")
    result = graph.why_not_fact("green tea", "Bob likes green tea.")
    assert result.stage == RETIRED
    cf = result.counterfactual
    assert cf is not None and cf.parameter == "include_superseded" and cf.rank is not None
    again = graph.query("green tea", include_superseded=True)
    assert again.index("Bob likes green tea.") + 1 == cf.rank


def test_a_fact_written_after_as_of_is_not_yet_valid(graph: DocumentGraph) -> None:
    result = graph.why_not_fact("flood", FACTS[0], as_of="2001-01-01T00:00:00+00:00")
    assert result.stage == NOT_YET_VALID


def test_an_unknown_fact_names_the_nearest(graph: DocumentGraph) -> None:
    result = graph.why_not_fact("tea", "Bob likes green teas")
    assert result.stage == MISSING and result.nearest
    with pytest.raises(InputError):
        graph.why_not_fact("tea", "")


_WORDS = ["rain", "flood", "road", "kiln", "tea", "Ouse", "Mara", "Friday", "river", "truck"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.lists(st.sampled_from(_WORDS), min_size=2, max_size=5).map(" ".join),
        min_size=2,
        max_size=6,
        unique=True,
    ),
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=2).map(" ".join),
    st.data(),
    st.integers(1, 3),
)
def test_diagnoses_keep_their_promises(
    facts: list[str], query: str, data: st.DataObject, top_k: int
) -> None:
    g = DocumentGraph(dedup_threshold=None)
    stored = list(dict.fromkeys(f.text for f in g.add_texts(facts)))
    target = data.draw(st.sampled_from(stored))
    result = g.why_not_fact(query, target, top_k=top_k)
    assert result.stage in STAGES
    recalled = g.query(query, top_k=top_k)
    assert (result.stage == FOUND) == (target in recalled)
    if result.stage == NO_COMMON_TERM:
        assert not set(g.terms(query)) & set(g.terms(target))
    cf = result.counterfactual
    if cf is not None and cf.parameter in ("top_k", "hops"):
        options = {"top_k": top_k, cf.parameter: cf.value}
        again = g.query(query, **options)
        assert again.index(target) + 1 == cf.rank
