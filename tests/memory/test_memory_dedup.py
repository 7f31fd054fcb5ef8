"""The near-duplicate prefilter: a text the shingle index says has no near fact has none
by ``shingle_similarity``, and the memory merges exactly the facts it merged before."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.memory.dedup import ShingleIndex, shingle_similarity

WORDS = ["the", "compiler", "emits", "a", "warning", "when", "x", "is", "unused", "now", "C++"]
texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(texts, max_size=12), texts, st.floats(0.05, 1.0))
def test_no_near_fact_is_missed(facts: list[str], text: str, threshold: float) -> None:
    index = ShingleIndex()
    for i, fact in enumerate(facts):
        index.add(f"f{i}", fact)
    if not index.may_have_near(text, threshold):
        assert all(shingle_similarity(text, fact) < threshold for fact in facts)


def test_an_unrelated_text_is_compared_with_nothing() -> None:
    index = ShingleIndex()
    index.add("a", "The compiler emits a warning when x is unused.")
    assert index.may_have_near("The compiler emits a warning when x is unused now.", 0.8)
    assert not index.may_have_near("Link the library into the final executable.", 0.9)


def test_a_near_duplicate_is_still_merged() -> None:
    graph = DocumentGraph()
    said = "The compiler emits a warning when the local variable x is never used"
    first = graph.add_text(said + ".")
    again = graph.add_text(said + " anywhere.")
    other = graph.add_text("Link the library into the final executable.")
    assert first.status == "added" and other.status == "added"
    assert again.status == "merged" and again.fact_id == first.fact_id
