"""Promises of extract_causal on any input, and its limits on hostile input."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.ingest.causal import (
    MAX_SENTENCE_CHARS,
    MAX_TEXT_CHARS,
    extract_causal,
    language_codes,
)

CUE_WORDS = [
    "because", "because of", "so", "therefore", "caused", "caused by", "led to", "due to",
    "since", "weil", "deshalb", "führte zu", "parce que", "donc", "porque", "por eso",
    "omdat", "dus", "want", "nedeniyle", "yol açtı", "çünkü", "bu yüzden", "which", "this",
]  # fmt: skip
FILLER = ["rain", "the river", "Die Stadt", "la pluie", "el río", "de dijk", "yağmur", "x"]
PUNCT = [",", ";", ".", ":", " -", "?", "!", "\n", "\n\n", "(", ")", "…", "¿"]
soup = st.lists(st.sampled_from(CUE_WORDS + FILLER + PUNCT), max_size=40).map(" ".join)
any_text = st.one_of(st.text(max_size=400), soup)


@given(any_text, st.sampled_from([None, *language_codes()]))
def test_pairs_always_point_at_their_own_text(text: str, language: str | None) -> None:
    for pair in extract_causal(text, language):
        assert text[slice(*pair.cause_span)] == pair.cause
        assert text[slice(*pair.effect_span)] == pair.effect
        assert pair.cause and pair.effect
        assert pair.cause == pair.cause.strip() and pair.effect == pair.effect.strip()
        no_overlap = pair.cause_span[1] <= pair.effect_span[0] or (
            pair.effect_span[1] <= pair.cause_span[0]
        )
        assert no_overlap
        assert pair.language in language_codes()


@given(any_text)
def test_extraction_is_deterministic_and_without_repeats(text: str) -> None:
    first, second = extract_causal(text), extract_causal(text)
    assert first == second
    keys = [(p.cause_span, p.effect_span) for p in first]
    assert len(keys) == len(set(keys))


phrases = st.sampled_from(
    ["heavy rain", "a burst pipe", "the strike", "low demand", "a faulty relay", "the heat"]
)


@given(phrases, phrases)
def test_active_and_passive_phrasing_give_the_same_direction(x: str, y: str) -> None:
    if x == y:
        return
    active = extract_causal(f"{x.capitalize()} caused {y}.", "en")
    passive = extract_causal(f"{y.capitalize()} was caused by {x}.", "en")
    because = extract_causal(f"{y.capitalize()} happened because of {x}.", "en")
    for found in (active, passive, because):
        assert [(p.cause.lower(), p.effect.lower()[: len(y)]) for p in found] == [(x, y)]


@pytest.mark.parametrize("bad", [b"rain caused floods", None, 42, ["rain caused floods"]])
def test_text_must_be_a_string(bad: object) -> None:
    with pytest.raises(InputError, match="must be a string"):
        extract_causal(bad)  # type: ignore[arg-type]


def test_unknown_language_names_the_choices() -> None:
    with pytest.raises(InputError, match=r"unknown language 'klingon'.*en, de, fr"):
        extract_causal("Rain caused floods.", "klingon")


def test_text_over_the_cap_is_refused() -> None:
    with pytest.raises(InputTooLargeError, match="over the limit"):
        extract_causal("a" * (MAX_TEXT_CHARS + 1))


@pytest.mark.parametrize("text", ["", "   \n\t ", "\x00\x01\x02 because \x00", "🌧️🌊" * 50])
def test_empty_and_binary_like_text_gives_nothing(text: str) -> None:
    assert extract_causal(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "because",
        "Because.",
        "It all went wrong because",
        "caused by",
        "Therefore.",
        "because because because because",
        ", , ; : because ; , ,",
        "Rain fell all day and the sky stayed grey.",
    ],
)
def test_cues_with_nothing_to_bind_or_no_cue_give_nothing(text: str) -> None:
    assert extract_causal(text) == []


def test_nested_cues_give_one_pair_per_marker() -> None:
    text = "Rain caused floods because drains were blocked, so roads closed."
    found = [(p.cause, p.effect, p.cue) for p in extract_causal(text, "en")]
    assert found == [
        ("Rain", "floods", "causes"),
        ("drains were blocked", "floods", "because"),
        ("drains were blocked", "roads closed", "so"),
    ]


def test_huge_text_is_read_in_bounded_time() -> None:
    sentence = "The pump failed, so the cellar flooded because nobody noticed. "
    text = (sentence * (MAX_TEXT_CHARS // len(sentence)))[:MAX_TEXT_CHARS]
    started = time.perf_counter()
    found = extract_causal(text)
    assert time.perf_counter() - started < 20
    assert len(found) >= 2 * (len(text) // len(sentence))


def test_an_overlong_sentence_is_skipped_not_scanned() -> None:
    text = "word, " * (MAX_SENTENCE_CHARS // 6 + 10) + "so the end came."
    assert extract_causal(text) == []
    assert extract_causal(text + " Heat caused drought.") != []
