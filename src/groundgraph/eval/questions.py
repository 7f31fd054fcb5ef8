"""Evaluation questions: a query and the ids (documents, sections, chunks) that answer it.

The question file is JSON Lines, one object per non-blank line::

    {"id": "q1", "question": "Who founded the bakery?", "relevant": ["bakery", "founders"]}

``relevant`` lists document ids (``Hit.doc_id``), or section and chunk ids
(``Hit.node_id``, ``doc#n``: the question is then judged node by node, ``eval.labels``);
other keys (an answer, a type) are allowed and ignored. Reading is strict: a bad line
raises FormatError naming its line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundgraph.errors import FormatError, InputTooLargeError

MAX_FILE_BYTES = 200_000_000
MAX_LINE_CHARS = 1_000_000
MAX_QUESTIONS = 1_000_000
MAX_QUESTION_CHARS = 10_000  # the query cap of DocumentGraph.search
MAX_RELEVANT = 10_000
_EXAMPLE = '{"id": "q1", "question": "Who founded the bakery?", "relevant": ["bakery"]}'


@dataclass(frozen=True, slots=True)
class Question:
    """One evaluation question and the ids of its relevant documents or nodes (its gold)."""

    id: str
    question: str
    relevant: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "relevant": list(self.relevant)}


def _record(line: str, where: str) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{where}: invalid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise FormatError(f"{where}: invalid JSON (nested too deeply)") from None
    if not isinstance(record, dict):
        raise FormatError(f"{where}: expected an object like {_EXAMPLE}")
    return record


def _text(record: dict[str, Any], key: str, where: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value.strip():
        got = "missing" if value is None else f"a {type(value).__name__}"
        raise FormatError(f'{where}: "{key}" must be a non-empty string ({got}), like {_EXAMPLE}')
    return value


def question_from_record(record: dict[str, Any], where: str = "question") -> Question:
    """One question from its JSON object; FormatError says what is wrong and where."""
    qid = _text(record, "id", where)
    text = _text(record, "question", where)
    if len(text) > MAX_QUESTION_CHARS:
        raise InputTooLargeError(f'{where}: "question"', len(text), MAX_QUESTION_CHARS)
    relevant = record.get("relevant")
    if not isinstance(relevant, list) or not relevant:
        raise FormatError(
            f'{where}: "relevant" must be a non-empty list of document, section or chunk ids'
        )
    if len(relevant) > MAX_RELEVANT:
        raise InputTooLargeError(f'{where}: "relevant"', len(relevant), MAX_RELEVANT)
    if not all(isinstance(r, str) and r for r in relevant):
        raise FormatError(f'{where}: every "relevant" entry must be a non-empty string')
    return Question(qid, text, tuple(dict.fromkeys(relevant)))


def iter_questions(lines: str | Iterable[str], source: str = "questions") -> Iterator[Question]:
    """Questions from JSON Lines text (or lines), one per non-blank line; ids must be unique."""
    rows = lines.split("\n") if isinstance(lines, str) else lines
    seen: set[str] = set()
    for number, raw in enumerate(rows, start=1):
        line = raw.rstrip("\r\n")
        if number == 1:
            line = line.removeprefix("\ufeff")
        if not line.strip():
            continue
        where = f"{source} line {number}"
        if len(line) > MAX_LINE_CHARS:
            raise InputTooLargeError(where, len(line), MAX_LINE_CHARS, "shorten the line")
        question = question_from_record(_record(line, where), where)
        if question.id in seen:
            raise FormatError(f'{where}: id "{question.id}" was used before; ids must be unique')
        seen.add(question.id)
        if len(seen) > MAX_QUESTIONS:
            raise InputTooLargeError(source, len(seen), MAX_QUESTIONS, "split the file")
        yield question


def parse_questions(lines: str | Iterable[str], source: str = "questions") -> list[Question]:
    """Every question of a JSON Lines text; see :func:`iter_questions`."""
    return list(iter_questions(lines, source))


def load_questions(path: str | Path) -> list[Question]:
    """Every question of a JSON Lines file (UTF-8), checked line by line."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise InputTooLargeError(str(path), size, MAX_FILE_BYTES, "split the question file")
    try:
        with path.open(encoding="utf-8") as stream:
            questions = parse_questions(stream, str(path))
    except UnicodeDecodeError as exc:
        raise FormatError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    if not questions:
        raise FormatError(f"{path} holds no questions; write one JSON object per line")
    return questions


def questions_to_jsonl(questions: Iterable[Question]) -> str:
    """The question file for ``questions``: one JSON object per line."""
    return "".join(json.dumps(q.to_dict(), ensure_ascii=False) + "\n" for q in questions)
