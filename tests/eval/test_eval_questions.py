"""The JSONL question file: what reads, and how a bad line is reported."""

from __future__ import annotations

import json

import pytest

from groundgraph.errors import FormatError, InputTooLargeError
from groundgraph.eval import questions as questions_module
from groundgraph.eval.questions import (
    Question,
    load_questions,
    parse_questions,
    questions_to_jsonl,
)

GOOD = (
    '{"id": "q1", "question": "Who founded the bakery?", "relevant": ["bakery", "founders"]}\n'
    "\n"
    '{"id": "q2", "question": "When does dough rise?", "relevant": ["bread"], "answer": "night"}\n'
)


def test_reads_questions_and_skips_blank_lines():
    assert parse_questions(GOOD) == [
        Question("q1", "Who founded the bakery?", ("bakery", "founders")),
        Question("q2", "When does dough rise?", ("bread",)),
    ]


def test_reads_a_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "questions.jsonl"
    path.write_text("\ufeff" + GOOD, encoding="utf-8")
    assert [q.id for q in load_questions(path)] == ["q1", "q2"]


def test_round_trips_through_jsonl():
    questions = parse_questions(GOOD)
    assert parse_questions(questions_to_jsonl(questions)) == questions


def test_repeated_relevant_ids_count_once():
    line = '{"id": "q", "question": "x?", "relevant": ["a", "b", "a"]}'
    assert parse_questions(line)[0].relevant == ("a", "b")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "invalid JSON"),
        ('["q1", "x?"]', "expected an object"),
        ('{"question": "x?", "relevant": ["a"]}', '"id" must be a non-empty string'),
        ('{"id": 7, "question": "x?", "relevant": ["a"]}', '"id" must be a non-empty string'),
        ('{"id": "q", "question": " ", "relevant": ["a"]}', '"question" must be'),
        ('{"id": "q", "question": "x?", "relevant": []}', '"relevant" must be a non-empty list'),
        ('{"id": "q", "question": "x?", "relevant": "a"}', '"relevant" must be a non-empty list'),
        ('{"id": "q", "question": "x?", "relevant": ["a", 3]}', "non-empty string"),
    ],
)
def test_a_bad_line_names_its_line(line, message):
    text = GOOD + line + "\n"
    with pytest.raises(FormatError) as caught:
        parse_questions(text, "qs.jsonl")
    assert "qs.jsonl line 4" in str(caught.value)
    assert message in str(caught.value)


def test_ids_must_be_unique():
    with pytest.raises(FormatError, match='line 2: id "q1" was used before'):
        parse_questions(GOOD.splitlines()[0] + "\n" + GOOD.splitlines()[0])


def test_a_question_over_the_query_cap_is_too_large():
    line = json.dumps({"id": "q", "question": "word " * 3000, "relevant": ["a"]})
    with pytest.raises(InputTooLargeError, match="line 1"):
        parse_questions(line)


def test_a_file_over_the_size_cap_is_refused_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "questions.jsonl"
    path.write_text(GOOD, encoding="utf-8")
    monkeypatch.setattr(questions_module, "MAX_FILE_BYTES", 10)
    with pytest.raises(InputTooLargeError, match="over the limit of 10"):
        load_questions(path)


def test_an_empty_file_is_an_error(tmp_path):
    path = tmp_path / "questions.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    with pytest.raises(FormatError, match="holds no questions"):
        load_questions(path)


def test_a_file_that_is_not_utf8_is_a_format_error(tmp_path):
    path = tmp_path / "questions.jsonl"
    path.write_bytes(b'{"id": "q\xff", "question": "x?", "relevant": ["a"]}\n')
    with pytest.raises(FormatError, match="not UTF-8"):
        load_questions(path)
