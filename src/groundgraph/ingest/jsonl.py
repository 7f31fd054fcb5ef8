"""JSON Lines in, one plain-text document per line out.

Each non-blank line is an object ``{"id": str, "title"?: str, "description"?: str,
"text": str}``; the title defaults to the id, which is used as the document id as given.
Text in a line is made valid as every parser's is (a ``"\\ud800"`` escape becomes U+FFFD,
counted in ``ParsedDocument.replaced``); an id that cannot be a document id makes the
line bad.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from groundgraph.errors import FormatError, InputError, InputTooLargeError
from groundgraph.ingest.parsed import (
    DEFAULT_MAX_CHUNK_CHARS,
    DEFAULT_MAX_TEXT_CHARS,
    ParsedDocument,
    in_id_space,
)
from groundgraph.ingest.plaintext import parse_plaintext
from groundgraph.model.ids import check_doc_id

_EXAMPLE = '{"id": "doc-1", "title": "Optional title", "text": "The text."}'


def _load_line(line: str, where: str) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{where}: invalid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise FormatError(f"{where}: invalid JSON (nested too deeply)") from None
    if not isinstance(record, dict):
        raise FormatError(
            f"{where}: expected a JSON object like {_EXAMPLE}, got {type(record).__name__}"
        )
    return record


def _optional_text(record: dict[str, Any], key: str, where: str) -> str | None:
    value = record.get(key)
    if value is not None and not isinstance(value, str):
        raise FormatError(f'{where}: "{key}" must be a string, not {type(value).__name__}')
    return value


def _required_text(record: dict[str, Any], key: str, where: str) -> str:
    value = _optional_text(record, key, where)
    if value is None:
        raise FormatError(f'{where}: missing "{key}"; each line needs one, like {_EXAMPLE}')
    return value


def _lines(text_or_lines: str | Iterable[str]) -> Iterator[tuple[int, str]]:
    """(number, line) of each non-blank line, numbered from 1."""
    lines = text_or_lines.split("\n") if isinstance(text_or_lines, str) else text_or_lines
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r\n")
        if number == 1:
            line = line.removeprefix("\ufeff")
        if line.strip():
            yield number, line


def _document(
    line: str,
    where: str,
    source: str,
    max_chunk_chars: int,
    max_text_chars: int,
    id_space: str = "",
) -> ParsedDocument:
    """The document one line holds (its id put in ``id_space``), or an InputError naming
    the line and the problem."""
    record = _load_line(line, where)
    given = _required_text(record, "id", where)
    text = _required_text(record, "text", where)
    if not given.strip():
        raise FormatError(f'{where}: "id" is empty; give each line a non-empty id')
    doc_id = in_id_space(given, id_space)
    try:
        check_doc_id(doc_id)
    except InputError as exc:
        raise FormatError(f"{where}: {exc}") from None
    title = _optional_text(record, "title", where) or given
    description = _optional_text(record, "description", where) or ""
    if len(text) > max_text_chars:
        raise InputTooLargeError(
            f'{where}: "text"', len(text), max_text_chars, hint="split it into several lines"
        )
    return parse_plaintext(
        text,
        title,
        doc_id=doc_id,
        description=description,
        source=source,
        max_chunk_chars=max_chunk_chars,
        max_text_chars=max_text_chars,
    )


def iter_jsonl(
    text_or_lines: str | Iterable[str],
    source: str = "",
    *,
    max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS,
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS,
) -> Iterator[ParsedDocument]:
    """Parse JSON Lines lazily, one document per non-blank line; see ``parse_jsonl``."""
    name = source or "JSONL"
    for number, line in _lines(text_or_lines):
        yield _document(line, f"{name} line {number}", source, max_chunk_chars, max_text_chars)


def parse_jsonl(
    text_or_lines: str | Iterable[str],
    source: str = "",
    *,
    max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS,
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS,
) -> list[ParsedDocument]:
    """Parse JSON Lines (a str, or lines such as an open text file) into documents.

    Blank lines are skipped. A bad line raises FormatError naming its line number and the
    problem: invalid JSON, not an object, a missing or non-string ``id`` or ``text``, or
    an id that cannot be a document id. ``read_jsonl`` skips bad lines instead.
    """
    return list(
        iter_jsonl(
            text_or_lines, source, max_chunk_chars=max_chunk_chars, max_text_chars=max_text_chars
        )
    )


class BadLine(NamedTuple):
    """A line of a JSON Lines file that holds no document, and why."""

    line: int
    reason: str


def read_jsonl(
    text_or_lines: str | Iterable[str],
    source: str = "",
    *,
    max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS,
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS,
    id_space: str = "",
) -> tuple[list[ParsedDocument], list[BadLine]]:
    """Like ``parse_jsonl``, but a bad line is skipped and listed (its number and why)
    while every good line, before or after it, is kept; each id is put in ``id_space``
    (``in_id_space``: the name space of a writer bound to scopes)."""
    name = source or "JSONL"
    documents: list[ParsedDocument] = []
    bad: list[BadLine] = []
    for number, line in _lines(text_or_lines):
        where = f"{name} line {number}"
        try:
            documents.append(
                _document(line, where, source, max_chunk_chars, max_text_chars, id_space)
            )
        except InputError as exc:
            bad.append(BadLine(number, str(exc).removeprefix(f"{where}: ")))
    return documents, bad
