"""The cheap check before relation extraction never skips a text that states a fact."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from groundgraph.ingest.relations.extract import _extract, extract_relations, may_state_relations

# Pieces of the patterns, with markup, case and spacing that the patterns allow.
NAMES = ["Bo", "Ann", "**Ivy**", "“Blue Lantern”", "NASA", "`core`", "Cleo Park", "Bo's"]
WORDS = ["is", "was", "IS", "Was", "the", "a", "an", "The", "of", "father", "mentor", "kind"]
OTHER = ["physicist", "member", ",", ", the", "not", "and", "\n", ".", "*", "'s", "Ann’s"]
pieces = st.sampled_from([*NAMES, *WORDS, *OTHER])
texts = st.lists(pieces, max_size=14).map(" ".join)


@given(texts)
def test_a_skipped_text_states_nothing(text):
    if not may_state_relations(text):
        assert _extract(text) == []
    assert extract_relations(text) == _extract(text)


def test_the_check_lets_every_pattern_through():
    for text in [
        "Bo is the father of Ann.",
        "Bo, the father of Ann, came.",
        "Ann's father is Bo.",
        "Bo is Ann's father.",
        "Bo is a physicist.",
    ]:
        assert may_state_relations(text) and extract_relations(text), text
    assert may_state_relations("**Ann**'s *father* is Bo.")  # markup between the words
    assert not may_state_relations("Bo and Ann went home; the lamp is lit.")
