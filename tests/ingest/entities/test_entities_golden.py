"""The entity extractor finds what it found when ``golden/`` was recorded, mention for
mention, and so does each part of it (masking, the words, the name runs, the key phrases,
the title matcher). The golden files replace a hand-kept copy of the plain extractor the
fast paths were once checked against; ``make_golden.py`` writes them (rerun it when the
rules change on purpose, and review the diff).

Also the two-step API (``untitled_mentions`` then ``with_titles``) that lets the title-free
work run in a worker process.
"""

from __future__ import annotations

import json
import pickle
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from make_golden import GAPS as _GAPS
from make_golden import OVERLAPPING_TITLES, REMEMBERED, TITLE_PIECES, mentions, parts
from make_golden import PIECES as _PIECES

from groundgraph.ingest.entities import (
    Mention,
    TitleMatcher,
    extract_entities,
    titles,
    untitled_mentions,
    with_titles,
    words,
)

GOLDEN = Path(__file__).parent / "golden"


def _rows(name: str) -> list[dict[str, Any]]:
    # split on newlines only: a text may hold U+2028, which splitlines() would cut at
    lines = (GOLDEN / name).read_text(encoding="utf-8").split("\n")
    return [json.loads(line) for line in lines if line]


_CASES = _rows("entities.jsonl")
_PARTS = _rows("parts.jsonl")

_TEXTS = st.one_of(
    st.lists(
        st.tuples(st.sampled_from(_PIECES), st.sampled_from(_GAPS)), min_size=0, max_size=30
    ).map(lambda pairs: "".join(piece + gap for piece, gap in pairs)),
    st.text(max_size=60),
    st.text(alphabet=string.ascii_letters + " .,'-_`\"\n", max_size=80),
)
_TITLES = st.lists(
    st.one_of(
        st.sampled_from(TITLE_PIECES), st.text(alphabet=string.ascii_letters + " .-'", max_size=20)
    ),
    max_size=6,
)
_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("case", _CASES, ids=[f"case{k}" for k in range(len(_CASES))])
def test_the_extractor_finds_what_it_found(case: dict[str, Any]) -> None:
    text, title_list = case["text"], case["titles"]
    language, relaxed = case["language"], case["relaxed"]
    expected = case["mentions"]
    assert mentions(extract_entities(text, title_list, language, relaxed)) == expected
    matcher = TitleMatcher(title_list)
    assert mentions(extract_entities(text, matcher, language, relaxed)) == expected
    found, masked = untitled_mentions(text, language, relaxed)
    assert mentions(with_titles(text, found, masked, matcher)) == expected
    assert mentions(with_titles(text, found, masked, title_list)) == expected


@_SETTINGS
@given(_TEXTS, _TITLES)
def test_untitled_mentions_travel_by_pickle(text: str, title_list: list[str]) -> None:
    found, masked = untitled_mentions(text)
    assert masked is None or (masked != text and len(masked) == len(text))
    assert all(isinstance(m, Mention) and m.kind != "title" for m in found)
    shipped = pickle.loads(pickle.dumps((found, masked)))
    assert shipped == (found, masked)
    assert with_titles(text, *shipped, title_list) == extract_entities(text, title_list)


def test_with_titles_leaves_its_input_alone() -> None:
    text = "Aurora was built by Aster Research; the cold room and the cold rooms."
    found, masked = untitled_mentions(text)
    before = list(found)
    with_titles(text, found, masked, ["Aster Research"])
    assert found == before


@pytest.mark.parametrize("case", _PARTS, ids=[f"case{k}" for k in range(len(_PARTS))])
def test_each_part_finds_what_it_found(case: dict[str, Any]) -> None:
    assert parts(case["text"], case["titles"]) == case


def test_the_golden_files_hold_the_hand_cases() -> None:
    recorded = {(case["text"], tuple(case["titles"])) for case in _CASES}
    assert all((text, tuple(title_list)) in recorded for text, title_list in OVERLAPPING_TITLES)
    assert (REMEMBERED, ()) in recorded
    assert len(_CASES) >= 300 and len(_PARTS) >= 300


def test_titles_added_later_are_found() -> None:
    matcher = titles.TitleMatcher()
    text = "We flew over the Tokyo Tower and 東京タワー at night."
    assert matcher.find(text) == []
    matcher.add("Tokyo Tower")
    matcher.add("東京タワー")
    assert [text[a:b] for a, b, _ in matcher.find(text)] == ["Tokyo Tower", "東京タワー"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=string.printable, max_size=80))
def test_ascii_words_split_as_unicode_ones(text: str) -> None:
    assert words._ASCII_WORD_OR_GAP.split(text) == words._WORD_OR_GAP.split(text)
    assert titles._ASCII_TITLE_WORD_OR_GAP.split(text.lower()) == [
        part.casefold() if k % 2 else part.lower()
        for k, part in enumerate(titles._TITLE_WORD_OR_GAP.split(text))
    ]


@pytest.mark.parametrize("language", [None, "german"])
def test_remembered_verdicts_change_nothing(language: str | None) -> None:
    text = REMEMBERED
    first = extract_entities(text, language=language)
    assert extract_entities(text, language=language) == first
