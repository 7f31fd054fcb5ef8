"""Other documents' titles named in a text: exact, ignoring case, on whole words.

A passage that names another document's title links to it (Wikipedia-style corpora where
every passage has a title). Titles are kept in a trie of words, so a text is scanned once
however many titles there are: each word starts at most ``MAX_TITLE_WORDS`` steps.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from groundgraph.ingest.masking import BLANK
from groundgraph.ingest.names import CJK
from groundgraph.ingest.normalise import normalise_entity
from groundgraph.ingest.wordlists import is_common

# A CJK character is a word of its own, so a title in Japanese is found inside a sentence.
_TITLE_WORD = re.compile(rf"[{CJK}]|[^\W{CJK}]+")
MAX_TITLE_WORDS = 16


class _TitleNode:
    __slots__ = ("children", "key")

    def __init__(self) -> None:
        self.children: dict[tuple[str, str], _TitleNode] = {}
        self.key: str | None = None


class TitleMatcher:
    """Finds given titles in text: exact, ignoring case, on whole words, longest first.

    White space between a title's words may differ in the text (a single line break is
    fine, a blank line is not); other characters between words must be the same. Titles
    of a single word shorter than three characters, or a common word, are left out.
    """

    def __init__(self, titles: Iterable[str] = ()) -> None:
        self._root = _TitleNode()
        self.size = 0
        for title in titles:
            self.add(title)

    def add(self, title: str) -> bool:
        """Look for ``title`` too; False if it is left out (too short, common or long)."""
        tokens = [(m.start(), m.end(), m.group().casefold()) for m in _TITLE_WORD.finditer(title)]
        if not tokens or len(tokens) > MAX_TITLE_WORDS:
            return False
        if len(tokens) == 1 and (len(tokens[0][2]) < 3 or is_common(tokens[0][2])):
            return False
        key = normalise_entity(title)
        if not key:
            return False
        gaps = [""] + [_title_gap(title[a[1] : b[0]]) for a, b in itertools.pairwise(tokens)]
        node = self._root
        for gap, (_, _, word) in zip(gaps, tokens, strict=True):
            if gap is None:
                return False  # a title across a blank line is not a title
            node = node.children.setdefault((gap, word), _TitleNode())
        if node.key is None:
            node.key = key
            self.size += 1
        return True

    def find(self, text: str, masked: str | None = None) -> list[tuple[int, int, str]]:
        """(start, end, title key) of each title ``text`` names, leftmost and longest first.

        ``masked`` is the text with what is not prose blanked (``masking.mask``), if known.
        """
        if self.size == 0:
            return []
        scan = text if masked is None else masked
        tokens = [(m.start(), m.end(), m.group().casefold()) for m in _TITLE_WORD.finditer(scan)]
        found: list[tuple[int, int, str]] = []
        i = 0
        while i < len(tokens):
            node = self._root.children.get(("", tokens[i][2]))
            best, key = -1, ""
            j = i
            while node is not None:
                if node.key is not None:
                    best, key = j, node.key
                if j + 1 == len(tokens) or j - i + 1 == MAX_TITLE_WORDS:
                    break
                gap = _title_gap(scan[tokens[j][1] : tokens[j + 1][0]])
                if gap is None:
                    break
                j += 1
                node = node.children.get((gap, tokens[j][2]))
            if best < 0:
                i += 1
                continue
            start, end = tokens[i][0], tokens[best][1]
            found.append((start, end, key))
            i = best + 1
        return found


def _title_gap(gap: str) -> str | None:
    """What between two words must match: white space counts as nothing; None: no match."""
    if BLANK in gap or gap.count("\n") > 1:
        return None
    return "".join(gap.split())
