"""A JSON object read in pieces: the items of its big arrays one at a time.

``json.load`` holds a whole file, and every object in it, at once; a saved graph of 100k
sections is hundreds of megabytes of text and several times that as Python objects.
:func:`stream_object` reads a top-level JSON object from a text stream a block at a time
and yields a :class:`Piece` ``(path, position, value, text)``: for an array at one of the
``arrays`` paths, ``(path, START, None, "")`` where it starts (an object on the way to
one also gives its ``START``), then each item as it is read with its position and its
JSON text (``(("nodes",), 0, {...}, '{"nodeId": ...}')``); for any other member, its whole
value with position None (``(("format",), None, "graph-of-thought", '"graph-of-thought"')``).
Objects on the way to a streamed array are entered, not decoded whole. Each value is decoded by the
standard library's decoder (``json.JSONDecoder.raw_decode``), so what is accepted is what
``json.loads`` accepts. Bad JSON raises :class:`~groundgraph.errors.FormatError`, and so
does a value nested too deeply for the decoder (which would raise RecursionError).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from itertools import count
from typing import Any, NamedTuple, TextIO

from groundgraph.errors import FormatError

__all__ = ["START", "Piece", "stream_object"]

BLOCK = 1 << 20
_SPACES = re.compile(r"[ \t\n\r]*")
_NUMBER_CHARS = frozenset("0123456789+-.eE")
_DECODER = json.JSONDecoder()
Path = tuple[str, ...]
#: The position of the piece that says a streamed array starts (its items follow).
START = -1


class Piece(NamedTuple):
    """An item of a streamed array, or a whole member (position None), and its JSON text."""

    path: Path
    position: int | None
    value: Any
    text: str


class _Reader:
    """A window over a text stream: what is read and not yet consumed."""

    def __init__(self, stream: TextIO, block: int) -> None:
        self._stream = stream
        self._block = block
        self.text = ""
        self.at = 0
        self.ended = False
        self._consumed = 0  # characters dropped before ``text``, for error positions

    def more(self, wanted: int = 0) -> bool:
        """Read another block (at least ``wanted`` characters) after dropping what was
        consumed; False at the end of the stream."""
        if self.ended:
            return False
        block = self._stream.read(max(wanted, self._block))
        self._consumed += self.at
        self.text = self.text[self.at :] + block
        self.at = 0
        self.ended = not block
        return bool(block)

    def next_char(self) -> str:
        """The next character that is not white space, not consumed; "" at the end."""
        while True:
            self.at = _SPACES.match(self.text, self.at).end()  # type: ignore[union-attr]
            if self.at < len(self.text):
                return self.text[self.at]
            if not self.more():
                return ""

    def expect(self, chars: str) -> str:
        found = self.next_char()
        if not found or found not in chars:
            self.fail(f"expected {' or '.join(repr(c) for c in chars)}")
        self.at += 1
        return found

    def value(self) -> tuple[Any, str]:
        """The next whole value, decoded, and its text. A value that reaches the end of
        what is read may go on (a number, or anything cut by the block): read more, trying
        again with twice as much so that one large value costs linear time."""
        self.next_char()
        wanted = self._block
        while True:
            try:
                value, end = _DECODER.raw_decode(self.text, self.at)
            except RecursionError:
                at = self._consumed + self.at
                raise FormatError(f"not valid JSON at character {at}: nested too deeply") from None
            except json.JSONDecodeError as exc:
                if self.more(wanted):
                    wanted *= 2
                    continue
                raise FormatError(
                    f"not valid JSON at character {self._consumed + exc.pos}: {exc.msg}"
                ) from None
            if self._may_go_on(value, end) and self.more(wanted):
                wanted *= 2
                continue
            start, self.at = self.at, end
            return value, self.text[start:end]

    def _may_go_on(self, value: Any, end: int) -> bool:
        """Whether the text read so far may end inside ``value``: it reaches the end of
        what is read, or it is a number cut short ("-0." read as -0, "1e" as 1)."""
        if end >= len(self.text):
            return True
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return number and self.text[end] in _NUMBER_CHARS

    def fail(self, what: str) -> None:
        raise FormatError(f"not valid JSON at character {self._consumed + self.at}: {what}")


def stream_object(stream: TextIO, arrays: Collection[Path], block: int = BLOCK) -> Iterator[Piece]:
    """The pieces of the top-level object in ``stream``, in the file's order: each item of
    an array at one of the ``arrays`` paths, and every other member whole; ``stream`` is
    read ``block`` characters at a time."""
    reader = _Reader(stream, block)
    reader.more()
    prefixes = {path[:i] for path in arrays for i in range(1, len(path))}
    yield from _members(reader, (), set(arrays), prefixes)
    if reader.next_char():
        reader.fail("text after the end of the object")


def _members(
    reader: _Reader, path: Path, arrays: set[Path], prefixes: set[Path]
) -> Iterator[Piece]:
    if reader.next_char() != "{":
        raise FormatError("a saved graph must be a JSON object")
    reader.expect("{")
    if reader.next_char() == "}":
        reader.at += 1
        return
    while True:
        key, _ = reader.value()
        if not isinstance(key, str):
            reader.fail("expected a member name")
        reader.expect(":")
        here = (*path, key)
        following = reader.next_char()
        if here in arrays and following == "[":
            yield from _items(reader, here)
        elif here in prefixes and following == "{":
            yield Piece(here, START, None, "")
            yield from _members(reader, here, arrays, prefixes)
        else:
            yield Piece(here, None, *reader.value())
        if reader.expect(",}") == "}":
            return


def _items(reader: _Reader, path: Path) -> Iterator[Piece]:
    reader.expect("[")
    yield Piece(path, START, None, "")
    if reader.next_char() == "]":
        reader.at += 1
        return
    for index in count():
        yield Piece(path, index, *reader.value())
        if reader.expect(",]") == "]":
            return
