"""span_key and same_span: how cause and effect spans of different facts are matched."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.ingest.causal import same_span, span_key
from groundgraph.ingest.causal.spans import MAX_SPAN_CHARS


def test_span_key_without_a_language_folds_case_punctuation_accents_and_articles() -> None:
    assert span_key("The Heavy  Rain!") == "heavy rain"
    assert span_key("la Grève") == "greve"
    assert span_key("Überschwemmung") == span_key("uberschwemmung")


def test_span_key_with_a_language_stems_and_drops_its_stopwords() -> None:
    assert span_key("the power outages in the city", "en") == span_key("Power outage city", "en")
    assert span_key("die Überschwemmungen", "de") == span_key("Überschwemmung", "de")
    assert span_key("sellere", "tr") == span_key("sel", "tr")


def test_span_key_keeps_a_span_made_only_of_stopwords() -> None:
    assert span_key("this", "en") != ""


def test_same_span_uses_dice_over_key_words() -> None:
    # {heavy, rain} vs {heavy, rain, march}: Dice 4/5.
    assert same_span("heavy rain", "the heavy rain in March", language="en")
    # {flood} vs {sever, flood}: 2/3.
    assert same_span("flooding", "severe flooding", language="en")
    # {power, outag} vs {power, price}: 1/2, under 0.6.
    assert not same_span("power outages", "power prices", language="en")
    assert same_span("power outages", "power prices", min_overlap=0.5, language="en")


def test_same_span_guesses_one_language_for_both_spans() -> None:
    assert same_span("the power outages", "a power outage in the city")
    assert not same_span("rain", "snow")


def test_empty_or_punctuation_spans_never_match() -> None:
    assert not same_span("", "")
    assert not same_span("...", "!!")


@pytest.mark.parametrize("bad", [0, 0.0, -0.1, 1.5, True, "0.6", None])
def test_min_overlap_must_be_a_number_in_range(bad: object) -> None:
    with pytest.raises(InputError, match="min_overlap"):
        same_span("a b", "a b", min_overlap=bad)  # type: ignore[arg-type]


def test_span_inputs_are_checked() -> None:
    with pytest.raises(InputError, match="string"):
        span_key(b"rain")  # type: ignore[arg-type]
    with pytest.raises(InputTooLargeError):
        span_key("x" * (MAX_SPAN_CHARS + 1))
    with pytest.raises(InputError, match="unknown language 'xx'"):
        span_key("rain", "xx")


words = st.text(alphabet=st.characters(categories=["L", "N", "P", "Zs"]), max_size=60)


@given(words, words)
def test_same_span_is_symmetric(a: str, b: str) -> None:
    assert same_span(a, b) == same_span(b, a)
    assert same_span(a, b, language="en") == same_span(b, a, language="en")


@given(words)
def test_a_span_with_words_matches_itself(a: str) -> None:
    assert same_span(a, a, language="en") == bool(span_key(a, "en"))
    assert same_span(a, a, language="tr") == bool(span_key(a, "tr"))


@given(words)
def test_span_key_without_language_is_idempotent(a: str) -> None:
    assert span_key(span_key(a)) == span_key(a)


@given(words, words, st.floats(min_value=0.05, max_value=0.95))
def test_a_lower_threshold_never_matches_less(a: str, b: str, threshold: float) -> None:
    if same_span(a, b, min_overlap=threshold + 0.05):
        assert same_span(a, b, min_overlap=threshold)
