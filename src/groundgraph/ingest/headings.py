"""Finding the headings of a markdown text, and its fenced code blocks, in one pass.

The rules are the seed system's (``reference/seeds.md`` §1.4): ATX headings
``^ {0,3}(#{1,6})\\s+(.+?)\\s*#*\\s*$``; setext headings, a non-blank line that is the
first line or follows a blank line and is not a list item, underlined by a line of ``=``
(level 1) or of at least two ``-`` (level 2); nothing inside a fenced code block (``` or
~~~, closed by a fence of the same character at least as long) is a heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The ATX regex is applied in two steps, prefix then closing #s stripped from the end,
# because its lazy title group is quadratic on a long line of spaces.
_ATX_PREFIX = re.compile(r" {0,3}(#{1,6})\s+")
_SETEXT_UNDERLINE = re.compile(r"\s*(=+|-{2,})\s*")
_LIST_ITEM = re.compile(r"\s*[-*+]\s")
_FENCE_OPEN = re.compile(r"\s*(`{3,}|~{3,})(.*)")
_FENCE_CLOSE = re.compile(r"\s*(`{3,}|~{3,})\s*")
# Every line that may open or close a fence, be an ATX heading or underline a setext one.
_CANDIDATE = re.compile(r"^[^\S\n]*+(?:`{3}|~{3}|#|=|--)", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading: its level, its title, and the span of its line (two lines for setext)."""

    level: int
    title: str
    start: int
    end: int


@dataclass(frozen=True)
class MarkdownLayout:
    """The headings of a text in order, and the spans of its fenced code blocks."""

    headings: list[Heading]
    fences: list[tuple[int, int]]


def atx_heading(line: str) -> tuple[int, str] | None:
    """(level, title) when ``line`` is an ATX heading, else None."""
    prefix = _ATX_PREFIX.match(line)
    if prefix is None:
        return None
    rest = line[prefix.end() :]
    if not rest:
        return None  # "#" followed by whitespace only: no text, not a heading
    title = rest.rstrip().rstrip("#").rstrip()
    # The lazy group takes at least one character: "# ##" is a heading titled "#".
    return len(prefix.group(1)), title or rest[0]


def _is_blank(line: str) -> bool:
    return not line or line.isspace()


def _setext_level(line: str, underline: str) -> int:
    """1 or 2 when ``line`` underlined by ``underline`` is a setext heading, else 0."""
    if _is_blank(line) or _LIST_ITEM.match(line):
        return 0
    match = _SETEXT_UNDERLINE.fullmatch(underline)
    if match is None:
        return 0
    return 1 if match.group(1)[0] == "=" else 2


def _opens_fence(line: str) -> str | None:
    """The fence (e.g. "````") that ``line`` opens, if it opens one."""
    match = _FENCE_OPEN.match(line)
    if match is None:
        return None
    fence = match.group(1)
    if fence[0] == "`" and "`" in match.group(2):
        return None  # ```inline``` code on one line, not a fence
    return fence


def _closes_fence(line: str, fence: str) -> bool:
    match = _FENCE_CLOSE.fullmatch(line)
    return match is not None and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence)


def scan_markdown(source: str) -> MarkdownLayout:
    """Headings and fenced blocks of ``source`` (LF line ends), in order.

    Only candidate lines (a fence, a '#', a setext underline) are looked at; a setext
    heading is found from its underline, by looking at the line above and the one above
    that. ``taken`` is where the last heading or fence ended: lines before it are spoken for.
    """
    headings: list[Heading] = []
    fences: list[tuple[int, int]] = []
    fence: str | None = None
    fence_start = 0
    taken = 0
    for candidate in _CANDIDATE.finditer(source):
        start = candidate.start()
        newline = source.find("\n", start)
        end = len(source) if newline < 0 else newline
        line = source[start:end]
        if fence is not None:
            if _closes_fence(line, fence):
                fences.append((fence_start, end))
                fence, taken = None, end + 1
            continue
        opened = _opens_fence(line)
        if opened is not None:
            fence, fence_start = opened, start
            continue
        atx = atx_heading(line)
        if atx is not None:
            headings.append(Heading(atx[0], atx[1], start, end))
            taken = end + 1
            continue
        text_start = source.rfind("\n", 0, max(start - 1, 0)) + 1
        if start == 0 or text_start < taken:
            continue
        text = source[text_start : start - 1]
        level = _setext_level(text, line)
        if not level:
            continue
        if text_start > 0:
            above = source.rfind("\n", 0, text_start - 1) + 1
            if not _is_blank(source[above : text_start - 1]):
                continue
        headings.append(Heading(level, text.strip(), text_start, end))
        taken = end + 1
    if fence is not None:
        fences.append((fence_start, len(source)))
    return MarkdownLayout(headings, fences)


def leading_title(source: str) -> str | None:
    """The title of a level-1 heading that ``source`` starts with (after blank lines), if any."""
    pos = 0
    while True:
        newline = source.find("\n", pos)
        line = source[pos:] if newline < 0 else source[pos:newline]
        if not _is_blank(line):
            break
        if newline < 0:
            return None
        pos = newline + 1
    if _opens_fence(line) is not None:
        return None
    atx = atx_heading(line)
    if atx is not None:
        return atx[1] if atx[0] == 1 else None
    if newline < 0:
        return None
    following = source.find("\n", newline + 1)
    underline = source[newline + 1 :] if following < 0 else source[newline + 1 : following]
    return line.strip() if _setext_level(line, underline) == 1 else None
