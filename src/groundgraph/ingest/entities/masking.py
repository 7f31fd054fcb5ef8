"""Blank out what is not prose before entities are looked for, keeping every offset.

URLs, e-mail addresses, HTML tags, markdown link targets, fenced code blocks and inline
code become runs of ``BLANK`` of the same length, so spans found in the masked text are
spans of the original. ``BLANK`` is neither a word character nor white space: it ends a
name and starts nothing.
"""

from __future__ import annotations

import re

BLANK = "\x00"
# Possessive: a line of a thousand backticks and no newline must not be retried each way.
# A fence line that ends the text ("```AA") is a fence too, as sentence_spans reads it.
_FENCE = re.compile(
    r"^[ \t]{0,3}+(`{3,}+|~{3,}+)[^\n]*+(?:\n.*?(?:^[ \t]{0,3}+\1[ \t]*+$|\Z)|\Z)", re.M | re.S
)
# Patterns that start with a literal are searched fast; the rest is checked in Python.
_ADDRESS = re.compile(r"(?:https?|ftp|file)://\S+|www\.\S+|mailto:\S+", re.IGNORECASE)
_EMAIL_DOMAIN = re.compile(r"@[\w\-]+(?:\.[\w\-]+)+")
_EMAIL_LOCAL = 64
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>\n]{0,200}>")
_LINK_TARGET = re.compile(r"\]\((?:[^()]++|\([^()]*+\))*+\)")
_BACKTICKS = re.compile(r"`([^`\n]+)`")


def mask(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with what is not prose blanked, and the spans of inline code (trimmed)."""

    def blank(match: re.Match[str]) -> str:
        return BLANK * len(match.group())

    # Each pattern runs only when the text holds what every match of it must hold: most
    # prose has no backtick, no "<" and no address, and a scan costs more than a check.
    masked = text
    if "```" in text or "~~~" in text:
        masked = _FENCE.sub(blank, masked)
    if _may_hold_address(text):
        masked = _ADDRESS.sub(blank, masked)
    if "<" in masked:
        masked = _HTML_TAG.sub(blank, masked)
    if "](" in masked:
        masked = _LINK_TARGET.sub(lambda m: "]" + BLANK * (len(m.group()) - 1), masked)
    if "@" in masked:
        masked = _blank_emails(masked)
    code: list[tuple[int, int]] = []
    if "`" not in masked:
        return masked, code
    for match in _BACKTICKS.finditer(masked):
        start, end = match.span(1)
        inner = match.group(1)
        if BLANK not in inner and inner.strip():
            lead, trail = len(inner) - len(inner.lstrip()), len(inner) - len(inner.rstrip())
            code.append((start + lead, end - trail))
    return _BACKTICKS.sub(blank, masked), code


def _may_hold_address(text: str) -> bool:
    """False only if ``_ADDRESS`` cannot match: it needs "://", "www." or "mailto:" in any
    case, and under IGNORECASE only "i" has a non-ASCII twin ("ı"), so "lto:" stands in."""
    if "://" in text:
        return True
    lower = text.lower()
    return "www." in lower or "lto:" in lower


def blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each (start, end) span blanked; spans may overlap and come in any order."""
    pieces: list[str] = []
    done = 0
    for start, end in sorted(spans):
        start = max(start, done)
        if start < end:
            pieces += [text[done:start], BLANK * (end - start)]
            done = end
    return "".join([*pieces, text[done:]]) if pieces else text


def _blank_emails(masked: str) -> str:
    pieces: list[str] = []
    done = 0
    for match in _EMAIL_DOMAIN.finditer(masked):
        start = match.start()
        while start > max(done, match.start() - _EMAIL_LOCAL) and _is_local(masked[start - 1]):
            start -= 1
        if start < match.start():
            pieces += [masked[done:start], BLANK * (match.end() - start)]
            done = match.end()
    return "".join([*pieces, masked[done:]]) if pieces else masked


def _is_local(char: str) -> bool:
    return char.isalnum() or char in "_.+-"
