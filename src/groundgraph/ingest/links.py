"""Markdown links: to other documents, to anchors in the same document.

A link ``[text](target)`` (not an image) whose target starts with ``#`` points at a heading
of the same document by its GitHub-style anchor; one whose target has a scheme
(``https:``, ``mailto:``, …) or starts with ``//`` points outside; any other target names
another document, kept raw without its ``#fragment``. Links inside fenced code blocks are
not links.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Sequence
from urllib.parse import unquote

# Starts with a literal, so the engine jumps from '[' to '['; possessive quantifiers keep a
# run of spaces from being tried every way (which was quadratic). Images are left out by hand.
_LINK = re.compile(
    r"\[[^\[\]]*+\]\(\s*+"
    r"(<[^<>\n]*+>|[^\s()<>]*+(?:\([^\s()]*+\)[^\s()<>]*+)*+)"  # target, one level of ()
    r"(?:\s++(?:\"[^\"\n]*+\"|'[^'\n]*+'|\([^()\n]*+\)))?\s*+\)"  # optional title
)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:|//")
_INLINE_LINK = re.compile(r"\[([^\[\]]*)\]\([^()]*\)")
_NOT_IN_ANCHOR = re.compile(r"[^\w\- ]")


def link_targets(
    source: str, start: int, end: int, fences: Sequence[tuple[int, int]] = ()
) -> Iterator[str]:
    """Targets of the links in ``source[start:end]`` that are not inside ``fences``."""
    fence_starts = [fence[0] for fence in fences]
    for match in _LINK.finditer(source, start, end):
        if match.start() > 0 and source[match.start() - 1] == "!":
            continue  # an image
        at = bisect.bisect_right(fence_starts, match.start()) - 1
        if at >= 0 and match.start() < fences[at][1]:
            continue
        target = match.group(1)
        if target.startswith("<"):
            target = target[1:-1].strip()
        if target:
            yield target


def is_anchor(target: str) -> bool:
    return target.startswith("#")


def anchor_of(target: str) -> str:
    """The anchor a ``#…`` link target names, decoded and lower-cased."""
    return unquote(target[1:]).strip().lower()


def document_target(target: str) -> str | None:
    """The other document a link target names, without its fragment; None if it names none."""
    if is_anchor(target) or _SCHEME.match(target):
        return None
    path = target.split("#", 1)[0]
    return path or None


def document_links(source: str, fences: Sequence[tuple[int, int]]) -> list[str]:
    """Targets of the links in ``source`` to other documents, deduplicated, in order."""
    seen: dict[str, None] = {}
    for target in link_targets(source, 0, len(source), fences):
        path = document_target(target)
        if path is not None:
            seen.setdefault(path, None)
    return list(seen)


def heading_anchor(title: str) -> str:
    """GitHub's anchor for a heading: lower-case, punctuation dropped, spaces to '-'."""
    text = _INLINE_LINK.sub(r"\1", title.strip().lower())
    return _NOT_IN_ANCHOR.sub("", text).replace(" ", "-")


def anchor_table(headings: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Anchor → node id for (node id, title) pairs in document order.

    A repeated anchor gets ``-1``, ``-2``, … as on GitHub; the first heading keeps the
    plain one.
    """
    table: dict[str, str] = {}
    repeats: dict[str, int] = {}
    for node_id, title in headings:
        base = heading_anchor(title)
        if base in repeats:
            repeats[base] += 1
            anchor = f"{base}-{repeats[base]}"
        else:
            repeats[base] = 0
            anchor = base
        table.setdefault(anchor, node_id)
    return table
