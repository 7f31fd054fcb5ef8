"""Sentences of free text, as character spans: the claims of an answer, the evidence of a section.

Any text is read line by line first. A line that is a markdown heading or a code fence (or
lies inside one) holds no claim; bullet, numbered-list, quote and task-box markers are left
out of the span. A line that starts with a lower-case letter continues the sentence of the
line before it (hard-wrapped prose), unless that line ended a sentence or was a list item.

Inside a block, a sentence ends at ``.``, ``!``, ``?`` or ``…`` (closing quotes and brackets
kept with it) followed by white space and a character that is not a lower-case letter; a
period does not end a sentence after a known abbreviation (``Dr.``, ``e.g.``, ``No. 5``) or
after initials (``J. R. R. Tolkien``, ``U.S. Army``). ``。！？`` end a sentence without a
space. Every span is trimmed of white space and never empty.
"""

from __future__ import annotations

import re

_LIST_MARKER = re.compile(r"(?:>\s*)*(?:(?:[-*+•]|\d{1,3}[.)])\s+)?(?:\[[ xX]\]\s+)?")
_HEADING = re.compile(r"#{1,6}(?:\s|$)")
_FENCE = re.compile(r"(?:```|~~~)")
# Possessive, and never starting inside a run of marks: "." * 10**5 is one linear scan.
_END = re.compile(r"(?<![.!?…])[.!?…]++[\"'”’)\]]*+(?=\s)|(?<![。！？])[。！？]++")
_WORD_BEFORE = re.compile(r"([^\W\d_]+(?:\.[^\W\d_]+)*)$")
_TERMINAL = frozenset(".!?…。！？:;")
_LOOK_BACK = 24  # characters read before a period to find the word it ends

_ABBREVIATION_WORDS = (
    "mr mrs ms dr prof sr jr st mt ft rev hon gen col lt sgt capt cmdr gov pres sen rep vs etc "
    "e.g i.e cf al approx ca fig figs vol vols pp ed eds dept est inc ltd co corp bros "
    "jan feb apr jun jul aug sep sept oct nov dec"
)
#: Words after which a period does not end a sentence (compared lower-cased).
ABBREVIATIONS: frozenset[str] = frozenset(_ABBREVIATION_WORDS.split())
#: Abbreviations only before a number: "No. 5", "Nos. 3-4", "p. 12".
NUMBER_ABBREVIATIONS: frozenset[str] = frozenset({"no", "nos", "p", "art", "op", "ch", "sec"})


def _blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) of the runs of text that hold sentences: list markers and headings out."""
    blocks: list[tuple[int, int]] = []
    in_fence = False
    joinable = False  # the block before may go on onto the next line
    pos = 0
    for line in text.split("\n"):
        start = pos
        pos += len(line) + 1
        body = line.strip()
        if _FENCE.match(body):
            in_fence, joinable = not in_fence, False
            continue
        if in_fence or not body or _HEADING.match(body):
            joinable = False
            continue
        lead = start + len(line) - len(line.lstrip())
        end = lead + len(body)
        found = _LIST_MARKER.match(text, lead, end)
        marker = found.end() - lead if found else 0
        if joinable and not marker and body[0].islower():
            blocks[-1] = (blocks[-1][0], end)
        else:
            blocks.append((lead + marker, end))
        joinable = body[-1] not in _TERMINAL
    return [(s, e) for s, e in blocks if e > s]


def _ends_sentence(text: str, start: int, end: int, match: re.Match[str]) -> bool:
    """Whether the punctuation at ``match`` ends a sentence (not an abbreviation or initial)."""
    after = match.end()
    while after < end and text[after].isspace():
        after += 1
    if after >= end:
        return True
    following = text[after]
    if following.islower():
        return False
    mark = match.group()
    if not mark.startswith(".") or mark.startswith(".."):
        return True
    word = _WORD_BEFORE.search(text, max(start, match.start() - _LOOK_BACK), match.start())
    if word is None:
        return True
    token = word.group(1).lower()
    if token in ABBREVIATIONS:
        return False
    if token in NUMBER_ABBREVIATIONS and following.isdigit():
        return False
    # Initials: "J. R. R. Tolkien", "U.S. Army".
    return not all(len(part) == 1 for part in token.split("."))


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``: ``text[start:end]`` is the sentence, trimmed."""
    spans: list[tuple[int, int]] = []
    for block_start, block_end in _blocks(text):
        start = block_start
        for match in _END.finditer(text, block_start, block_end):
            if _ends_sentence(text, start, block_end, match):
                spans.append((start, match.end()))
                start = match.end()
        spans.append((start, block_end))
    trimmed = []
    for start, end in spans:
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        tail = len(piece.rstrip())
        if tail > lead:
            trimmed.append((start + lead, start + tail))
    return trimmed


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (see :func:`sentence_spans`)."""
    return [text[s:e] for s, e in sentence_spans(text)]
