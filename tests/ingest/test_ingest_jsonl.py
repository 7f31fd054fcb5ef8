"""JSON Lines: one plain-text document per line, and errors that name the line."""

from __future__ import annotations

import io
import json

import pytest

from groundgraph.errors import FormatError, InputError, InputTooLargeError
from groundgraph.ingest import iter_jsonl, parse_jsonl


def test_each_line_is_a_plain_text_document() -> None:
    text = (
        '{"id": "q-1", "title": "First", "text": "# Not a heading\\n\\nBody one."}\n'
        "\n"
        '{"id": "q-2", "text": "Body two.", "description": "second", "extra": 1}\n'
    )
    docs = parse_jsonl(text, source="facts.jsonl")
    assert [(d.document.doc_id, d.document.title, d.document.source) for d in docs] == [
        ("q-1", "First", "facts.jsonl"),
        ("q-2", "q-2", "facts.jsonl"),
    ]
    assert [d.root.content for d in docs] == ["# Not a heading\n\nBody one.", "Body two."]
    assert docs[1].document.description == "second"
    assert [len(d.nodes) for d in docs] == [1, 1]
    assert docs[0].document.content_hash != docs[1].document.content_hash


def test_lines_from_a_file_object_and_crlf_and_bom() -> None:
    handle = io.StringIO('\ufeff{"id": "a", "text": "x"}\r\n{"id": "b", "text": "y"}\r\n')
    docs = parse_jsonl(handle)
    assert [d.document.doc_id for d in docs] == ["a", "b"]
    assert [d.root.content for d in docs] == ["x", "y"]


def test_a_raw_line_separator_inside_a_string_does_not_split_the_line() -> None:
    line = '{"id": "a", "text": "one\u2028two\u0085three"}'
    docs = parse_jsonl(line)
    assert len(docs) == 1
    assert docs[0].root.content == "one\u2028two\u0085three"


def test_long_text_is_chunked() -> None:
    text = "\n\n".join(f"paragraph {i} " + "word " * 20 for i in range(10))
    docs = parse_jsonl(json.dumps({"id": "long", "text": text}), max_chunk_chars=200)
    assert len(docs[0].nodes) > 1
    assert {n.kind for n in docs[0].nodes[1:]} == {"chunk"}
    assert all(len(n.content) <= 200 for n in docs[0].nodes)


def test_iter_jsonl_is_lazy() -> None:
    lines = iter(['{"id": "a", "text": "x"}', "not json"])
    docs = iter_jsonl(lines)
    assert next(docs).document.doc_id == "a"
    with pytest.raises(FormatError, match="line 2"):
        next(docs)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"id": "a", "text": ', r"line 3: invalid JSON \(Expecting value at column 21\)"),
        ('["a", "b"]', "line 3: expected a JSON object .*got list"),
        ('"just a string"', "line 3: expected a JSON object .*got str"),
        ('{"text": "x"}', 'line 3: missing "id"'),
        ('{"id": 5, "text": "x"}', 'line 3: "id" must be a string, not int'),
        ('{"id": "a"}', 'line 3: missing "text"'),
        ('{"id": "a", "text": ["x"]}', 'line 3: "text" must be a string, not list'),
        ('{"id": "a", "title": 3, "text": "x"}', 'line 3: "title" must be a string, not int'),
        ('{"id": "  ", "text": "x"}', 'line 3: "id" is empty'),
        ("[" * 100_000 + "]" * 100_000, "line 3: invalid JSON"),
    ],
    ids=[
        "truncated",
        "array",
        "string",
        "no-id",
        "int-id",
        "no-text",
        "list-text",
        "int-title",
        "blank-id",
        "deep",
    ],
)
def test_bad_lines_raise_format_errors_naming_the_line(line: str, message: str) -> None:
    text = '{"id": "ok", "text": "fine"}\n\n' + line + "\n"
    with pytest.raises(FormatError, match=message) as caught:
        parse_jsonl(text, source="data.jsonl")
    assert str(caught.value).startswith("data.jsonl line 3: ")
    assert isinstance(caught.value, InputError)
    assert isinstance(caught.value, ValueError)


def test_without_a_source_the_message_says_jsonl() -> None:
    with pytest.raises(FormatError, match=r"^JSONL line 1: invalid JSON"):
        parse_jsonl("{oops}")


def test_text_over_the_cap() -> None:
    line = json.dumps({"id": "big", "text": "x" * 101})
    with pytest.raises(InputTooLargeError, match='line 1: "text" is 101 long'):
        parse_jsonl(line, max_text_chars=100)


def test_blank_input_gives_no_documents() -> None:
    assert parse_jsonl("") == []
    assert parse_jsonl("\n  \n\r\n") == []
    assert parse_jsonl([]) == []
