"""Sentence spans of answers and sections: markdown, abbreviations, initials, spans exact."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.text import sentence_spans, sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]),
        (
            "Dr. Smith was born in the U.S. in 1950. He moved to St. Louis, e.g. the city.",
            ["Dr. Smith was born in the U.S. in 1950.", "He moved to St. Louis, e.g. the city."],
        ),
        ("J. R. R. Tolkien wrote it. It is No. 5 on the list.", None),
        ("Price is 3.5 dollars. Next", ["Price is 3.5 dollars.", "Next"]),
        ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
        ("Wait... What now?", ["Wait...", "What now?"]),
        ("Not a stop. lower case goes on.", ["Not a stop. lower case goes on."]),
        ("中文句子。第二句！", ["中文句子。", "第二句！"]),
        ("", []),
        ("   \n\n  \t", []),
    ],
)
def test_sentences(text, expected):
    if expected is None:
        expected = ["J. R. R. Tolkien wrote it.", "It is No. 5 on the list."]
    assert sentences(text) == expected


def test_markdown_answers():
    answer = (
        "## Answer\n\n"
        "- First item is here\n"
        "* Second item. It has two sentences.\n"
        "1. Numbered one\n"
        "> quoted text.\n"
        "- [x] done task\n"
        "```\nprint('code is not a claim.')\n```\n"
        "A line that wraps\nonto the next line. End.\n"
        "A line\nAnother line\n"
        "- an item that wraps\n  onto the next line"
    )
    assert sentences(answer) == [
        "First item is here",
        "Second item.",
        "It has two sentences.",
        "Numbered one",
        "quoted text.",
        "done task",
        "A line that wraps\nonto the next line.",
        "End.",
        "A line",
        "Another line",
        "an item that wraps\n  onto the next line",
    ]


def test_windows_line_ends():
    assert sentences("First line.\r\nSecond line.\r\n") == ["First line.", "Second line."]


def test_hostile_text_is_split_in_linear_time():
    for text in ("a. " * 40_000, "." * 100_000, ">" * 100_000, "- " * 50_000, "U.S." * 25_000):
        started = time.perf_counter()
        spans = sentence_spans(text)
        assert time.perf_counter() - started < 5, text[:10]
        assert all(0 <= s < e <= len(text) for s, e in spans)


@given(st.text(alphabet=st.sampled_from("ab .!?\n-*#>1`J"), max_size=200))
def test_spans_are_ordered_trimmed_and_inside_the_text(text):
    spans = sentence_spans(text)
    last = 0
    for start, end in spans:
        assert last <= start < end <= len(text)
        piece = text[start:end]
        assert piece == piece.strip()
        last = end


@given(st.lists(st.sampled_from(["Cats sleep", "Dogs bark", "Birds sing loudly"]), max_size=6))
def test_plain_sentences_lose_no_words(parts):
    text = " ".join(p + "." for p in parts)
    assert sentences(text) == [p + "." for p in parts]


def test_hard_wrapped_prose_goes_on_whatever_its_next_line_starts_with():
    text = (
        "Pass other documents' titles to find them in a text; for many titles, build a\n"
        "`TitleMatcher` once. Then it is reused.\n"
        "A line\nAnother line"
    )
    assert sentences(text) == [
        "Pass other documents' titles to find them in a text; for many titles, build a\n"
        "`TitleMatcher` once.",
        "Then it is reused.",
        "A line",
        "Another line",
    ]
