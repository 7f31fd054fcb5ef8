"""The literal prefilter: a pattern whose literal words a text lacks never matches it, for
every rule pattern the project prefilters (claims, change cues, causal cues), on texts made
of those words, their case variants and the characters that fold to ASCII letters."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from groundgraph.ingest.causal.language import TABLES
from groundgraph.ingest.literals import LiteralGroup, literals, may_match
from groundgraph.memory.conflicts.cues import RULE_CUES
from groundgraph.memory.conflicts.patterns import claim_rules

PATTERNS = [
    *(p for _, p in claim_rules()),
    *(p for patterns in RULE_CUES.values() for p in patterns),
    *(cue.pattern for table in TABLES.values() for cue in table.cues),
]
WORDS = sorted({w for p in PATTERNS for w in literals(p).words or ()})
# letters that match ASCII ones case-blind but are not ASCII: long s, Kelvin sign, dotted I
ODD = ["ſ", "\u212a", "İ", "ı", "é", "’", " ", " ", ",", ".", "Acme", "Graz", "3", "$"]
pieces = st.sampled_from(WORDS + ODD)
cased = st.sampled_from([str, str.upper, str.title, str.lower])


@st.composite
def texts(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.tuples(pieces, cased), max_size=12))
    return " ".join(case(word) for word, case in parts)


@given(st.sampled_from(PATTERNS), texts())
@example(re.compile(r"\bsk", re.IGNORECASE), "\u017f\u212a")
def test_a_pattern_never_matches_a_text_without_its_literals(
    pattern: re.Pattern[str], text: str
) -> None:
    if not may_match(pattern, text):
        assert pattern.search(text) is None


GROUP = LiteralGroup(PATTERNS)


@given(texts())
@example("\u017f\u212a ’s déménagé")
def test_a_group_names_every_pattern_that_matches_a_text(text: str) -> None:
    possible = GROUP.candidates(text)
    assert {i for i, p in enumerate(PATTERNS) if p.search(text)} <= possible
    assert possible == {i for i, p in enumerate(PATTERNS) if may_match(p, text)}


def test_most_patterns_have_literals_and_texts_without_them_are_skipped() -> None:
    found = [p for p in PATTERNS if literals(p).words is not None]
    assert len(found) >= 0.9 * len(PATTERNS)
    plain = "The compiler emits a warning for this code"
    assert sum(not may_match(p, plain) for p in PATTERNS) >= 0.6 * len(PATTERNS)


@pytest.mark.parametrize(
    ("regex", "flags", "words"),
    [
        (r"(?<!\w)(?:lead|leads)\s+to(?!\w)", re.IGNORECASE, ("lead",)),
        (r"\b(?:no longer|anymore)\b", re.IGNORECASE, ("no longer", "anymore")),
        (r"x+(?:abc)+", 0, ("abc",)),
        (r"(?:a|)bc", 0, ("bc",)),
        (r"\w+\s+\d", 0, None),  # no literal in every match
        (r"(?i:cat)", 0, None),  # local flags: not read
    ],
)
def test_literals_of_patterns(regex: str, flags: int, words: tuple[str, ...] | None) -> None:
    assert literals(re.compile(regex, flags)).words == words


def test_case_rules() -> None:
    sensitive = re.compile("abc")
    assert not may_match(sensitive, "ABC") and may_match(sensitive, "xabc")
    blind = re.compile("kelvin", re.IGNORECASE)
    kelvin_sign = "\u212aelvin"
    assert blind.search(kelvin_sign) is not None and may_match(blind, kelvin_sign)
    assert may_match(blind, "KELVIN")
    assert not may_match(blind, "celsius")
