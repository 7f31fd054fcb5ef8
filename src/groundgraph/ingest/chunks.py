"""Cutting a long body into chunks: paragraphs, hard splits, greedy packing.

Chunks are (start, end) spans into the source, never copies, so a chunk's content is the
exact source text from its first paragraph's start to its last paragraph's end, blank
lines in between kept. Everything here is linear in the length of the body.
"""

from __future__ import annotations

import re

# A line break followed by one or more whitespace-only lines: the gap between paragraphs.
_PARAGRAPH_BREAK = re.compile(r"\n(?:[^\S\n]*\n)+")
_SPLIT_CHARS = (" ", "\n", "\t")


def strip_span(source: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` without surrounding whitespace; ``(start, start)`` when blank."""
    piece = source[start:end]
    kept = piece.lstrip()
    if not kept:
        return (start, start)
    return (start + len(piece) - len(kept), start + len(piece.rstrip()))


def paragraph_spans(source: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of the non-blank paragraphs of ``source[start:end]``, whitespace stripped."""
    spans: list[tuple[int, int]] = []
    pos = start
    for gap in _PARAGRAPH_BREAK.finditer(source, start, end):
        span = strip_span(source, pos, gap.start())
        if span[0] < span[1]:
            spans.append(span)
        pos = gap.end()
    span = strip_span(source, pos, end)
    if span[0] < span[1]:
        spans.append(span)
    return spans


def _split_point(source: str, start: int, max_chars: int) -> int:
    """Where to cut the piece that starts at ``start``: the last space in its second half."""
    low = start + max(1, max_chars // 2)
    high = start + max_chars + 1  # a space right at the limit still gives a full piece
    best = max(source.rfind(char, low, high) for char in _SPLIT_CHARS)
    return best if best > start else start + max_chars


def hard_split(source: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Spans of at most ``max_chars`` covering the stripped paragraph ``source[start:end]``."""
    spans: list[tuple[int, int]] = []
    pos = start
    while end - pos > max_chars:
        cut = _split_point(source, pos, max_chars)
        piece = strip_span(source, pos, cut)
        if piece[0] < piece[1]:
            spans.append(piece)
        pos = cut
        while pos < end and source[pos].isspace():
            pos += 1
    if pos < end:
        spans.append((pos, end))
    return spans


def chunk_spans(source: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Spans of the chunks of ``source[start:end]``, each at most ``max_chars`` long.

    A body that fits is one chunk. Otherwise it is split into paragraphs at blank lines,
    paragraphs longer than the limit are hard-split (at whitespace when there is some in
    the second half of the piece), and the pieces are packed greedily: a piece joins the
    current chunk while the chunk's source span stays within ``max_chars``.
    """
    start, end = strip_span(source, start, end)
    if end - start <= max_chars:
        return [(start, end)]
    pieces: list[tuple[int, int]] = []
    for para_start, para_end in paragraph_spans(source, start, end):
        if para_end - para_start > max_chars:
            pieces.extend(hard_split(source, para_start, para_end, max_chars))
        else:
            pieces.append((para_start, para_end))
    chunks: list[tuple[int, int]] = []
    chunk_start, chunk_end = pieces[0]
    for piece_start, piece_end in pieces[1:]:
        if piece_end - chunk_start <= max_chars:
            chunk_end = piece_end
        else:
            chunks.append((chunk_start, chunk_end))
            chunk_start, chunk_end = piece_start, piece_end
    chunks.append((chunk_start, chunk_end))
    return chunks
