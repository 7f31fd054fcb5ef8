"""The entity extractor's fast paths change nothing: it equals the plain extractor it
replaced (``plain_entities``), mention for mention, and so does each part of it.

Also the two-step API (``untitled_mentions`` then ``with_titles``) that lets the title-free
work run in a worker process.
"""

from __future__ import annotations

import pickle
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import plain_entities as plain
from groundgraph.ingest import keyphrases, masking, names, titles, words
from groundgraph.ingest.entities import (
    Mention,
    TitleMatcher,
    extract_entities,
    untitled_mentions,
    with_titles,
)
from repo_paths import ROOT

DOCS = ROOT / "docs"

# Pieces that trip one rule or another: capitals at and after sentence starts, quotes of
# every kind, backticks and fences, addresses, e-mails, tags, links, possessives, initials,
# abbreviations, connectors, shouting, German, CJK, letters whose case is special, and
# repeated lower-case pairs.
_PIECES = [
    "Marie Curie",
    "Aurora",
    "aurora",
    "Aurora's",
    "Aurora was built",
    "The Hague",
    "the Bank of England",
    "Bank of the West",
    "van der Berg",
    "Los Angeles",
    "St. Louis",
    "Dr. Curie",
    "J. R. R. Tolkien",
    "U.S. Army",
    "AT&T",
    "Jean-Luc",
    "O'Brien",
    "McDonald",
    "GraphRack",
    "NASA",
    "APIs",
    "THE BIG NEWS TODAY",
    "XIV",
    "COVID-19",
    "e.g.",
    "U.S.",
    "Der Hund und die Katze",
    "ist nicht",
    "the",
    "is",
    "cold",
    "room",
    "rooms",
    "cold room",
    "cold rooms",
    "cold  room",
    "cold\troom",
    "quickly done",
    "glass boxes",
    "glass box",
    "snake_case",
    "_private",
    "os.path",
    "index.json",
    "camelCase",
    "ended.Then",
    "--db",
    "a--b",
    "`build_graph`",
    "` x `",
    "```\ncode Here\n```",
    "~~~\nTilde Fence\n~~~",
    "`",
    '"Blue Lantern"',
    '"is it?"',
    "“Blue Lantern”",
    "„Blaue Laterne“",
    "«Lanterne Bleue»",
    "「東京」",
    "『本』",
    "‘Blue’",
    "'Blue Lantern'",
    "don't",
    "'",
    '"',
    "https://example.org/A_B",
    "HTTP://X.Y/Z",
    "www.Example.com",
    "WWW.EXAMPLE.COM",
    "mailto:Ann@example.org",
    "MAİLTO:x",
    "ann.lee@Example.org",
    "@",
    "<b>Bold</b>",
    "<",
    "[Link Text](https://example.org/(A))",
    "](",
    "東京タワー",
    "東京",
    "İstanbul",
    "ß",
    "ǅemal",
    "K",
    "\u0301",
    "\u00a0",
    "🚀",
    "\x00",
    "|",
    "#",
    "…",
]
_GAPS = [" ", " ", " ", ". ", ", ", "\n", "\n\n", "\t", "  ", " & ", ": ", "; ", "? ", "-", ""]
_TEXTS = st.one_of(
    st.lists(
        st.tuples(st.sampled_from(_PIECES), st.sampled_from(_GAPS)), min_size=0, max_size=30
    ).map(lambda pairs: "".join(piece + gap for piece, gap in pairs)),
    st.text(max_size=60),
    st.text(alphabet=string.ascii_letters + " .,'-_`\"\n", max_size=80),
)
_TITLES = st.lists(
    st.one_of(
        st.sampled_from(
            [
                *("Marie Curie", "Aurora", "Bank of England", "cold room", "the", "NASA"),
                *("東京タワー", "Blue Lantern", "Der Hund", "Los Angeles", "os.path"),
                *("St. Louis", "Kelvin", "İstanbul", "Snake Case", "a", "Glass Boxes"),
                *("England", "Curie"),
            ]
        ),
        st.text(alphabet=string.ascii_letters + " .-'", max_size=20),
    ),
    max_size=6,
)
_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(
    _TEXTS,
    _TITLES,
    st.sampled_from([None, "german", "English"]),
    st.booleans(),
)
def test_the_extractor_equals_the_plain_one(
    text: str, title_list: list[str], language: str | None, relaxed: bool
) -> None:
    expected = plain.extract_entities(text, title_list, language, relaxed)
    assert extract_entities(text, title_list, language, relaxed) == expected
    matcher = TitleMatcher(title_list)
    assert extract_entities(text, matcher, language, relaxed) == expected
    found, masked = untitled_mentions(text, language, relaxed)
    assert with_titles(text, found, masked, matcher) == expected
    assert with_titles(text, found, masked, title_list) == expected


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


@_SETTINGS
@given(_TEXTS)
def test_each_part_equals_the_plain_one(text: str) -> None:
    masked, code = masking.mask(text)
    assert (masked, code) == plain.mask(text)
    fast, slow = words.Words(masked), plain.Words(masked)
    for attribute in ("start", "end", "words", "lower", "cap", "possessive"):
        assert getattr(fast, attribute) == getattr(slow, attribute), attribute
    assert fast.lower_seen == slow.lower_seen
    assert fast.capitalised_mid == slow.capitalised_mid
    # ``initial`` is worked out for capitalised words, the only ones any rule asks about.
    assert [fast.initial[k] for k in range(len(fast)) if fast.cap[k]] == [
        slow.initial[k] for k in range(len(slow)) if slow.cap[k]
    ]
    assert fast.looks_german() == slow.looks_german()
    for german in (False, True):
        assert list(names.capitalised_runs(fast, german)) == [
            names.NameRun(r.first, r.last, r.start, r.end, r.capitals)
            for r in plain.capitalised_runs(slow, german)
        ]
    repeated = [(m.start, m.end) for m in plain._keyphrases(text, slow)]
    assert keyphrases.keyphrase_spans(fast) == repeated


@_SETTINGS
@given(_TEXTS, _TITLES)
def test_titles_are_found_as_before(text: str, title_list: list[str]) -> None:
    fast, slow = titles.TitleMatcher(title_list), plain.TitleMatcher(title_list)
    masked, _ = masking.mask(text)
    assert fast.find(text) == slow.find(text)
    assert fast.find(text, masked) == slow.find(text, masked)
    assert fast.size == slow.size


@pytest.mark.parametrize(
    ("text", "title_list"),
    [
        ("the Bank of England, England", ["Bank of England", "England"]),
        ("Marie Curie Curie Labs", ["Marie Curie", "Curie Labs", "Curie"]),
        ("Los\nAngeles and Los\n\nAngeles", ["Los Angeles"]),
        ("os.path and os path", ["os.path", "os path"]),
        ("the KELVIN scale", ["\u212aelvin"]),
        ("東京タワーの東京", ["東京タワー", "東京"]),
    ],
)
def test_overlapping_titles_are_found_as_before(text: str, title_list: list[str]) -> None:
    fast, slow = titles.TitleMatcher(title_list), plain.TitleMatcher(title_list)
    assert fast.find(text) == slow.find(text)
    assert extract_entities(text, title_list) == plain.extract_entities(text, title_list)


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


def _paragraphs() -> list[str]:
    pages = [*sorted(DOCS.rglob("*.md")), DOCS.parent / "README.md"]
    texts = [page.read_text(encoding="utf-8") for page in pages if page.exists()]
    return texts + [p for text in texts for p in text.split("\n\n") if p.strip()]


def test_the_docs_extract_as_before() -> None:
    title_list = ["Marie Curie", "Aurora", "Bank of England", "Document Graph", "BM25"]
    fast, slow = TitleMatcher(title_list), plain.TitleMatcher(title_list)
    paragraphs = _paragraphs()
    assert paragraphs
    for text in paragraphs:
        assert extract_entities(text, fast) == plain.extract_entities(text, slow)
        assert extract_entities(text, relaxed_names=True) == plain.extract_entities(
            text, relaxed_names=True
        )


@pytest.mark.parametrize("language", [None, "german"])
def test_remembered_verdicts_change_nothing(language: str | None) -> None:
    text = "Aurora was built. The cold room, the cold rooms. Aurora's Dr. Curie visited Aurora."
    first = extract_entities(text, language=language)
    assert extract_entities(text, language=language) == first
    assert first == plain.extract_entities(text, language=language)
