"""Other documents' titles named in a text: exact, ignoring case, on whole words.

A passage that names another document's title links to it (Wikipedia-style corpora where
every passage has a title). Titles are kept in a trie of words, so a text is scanned once
however many titles there are: each word starts at most ``MAX_TITLE_WORDS`` steps. Most
texts name no title, and most of those are told apart before the scan: a title needs its
longest word in the text, and its first word (its first two, in a row, if it has more).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from groundgraph.ingest.entities.masking import BLANK
from groundgraph.ingest.entities.normalise import normalise_entity
from groundgraph.ingest.entities.wordlists import is_common
from groundgraph.ingest.entities.words import CJK

# A CJK character is a word of its own, so a title in Japanese is found inside a sentence.
_TITLE_WORD = re.compile(rf"[{CJK}]|[^\W{CJK}]+")
_TITLE_WORD_OR_GAP = re.compile(rf"([{CJK}]|[^\W{CJK}]+)")
_ASCII_TITLE_WORD_OR_GAP = re.compile(r"(\w+)", re.ASCII)  # the same on ASCII text
MAX_TITLE_WORDS = 16
# An ASCII byte -> itself in lower case if it is a word character (\w), else a space: the
# words of ASCII text, case folded, are then its translation's split().
_ASCII_WORD_BYTES = bytes(
    c + 32 if 65 <= c <= 90 else c if 48 <= c <= 57 or 97 <= c <= 122 or c == 95 else 32
    for c in range(256)
)


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
        self._first_words: set[str] = set()  # the first word of every title
        # A word of every title (its longest): a text with none of them names no title.
        self._signatures: set[str] = set()
        # In ASCII bytes, for ASCII text (casefold may make a title word ASCII): signatures,
        # titles of one word, and the first two words of the others.
        self._ascii_signatures: set[bytes] = set()
        self._ascii_single: set[bytes] = set()
        self._ascii_openings: set[tuple[bytes, bytes]] = set()
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
        gaps = [""]
        for a, b in itertools.pairwise(tokens):
            gap = _title_gap(title[a[1] : b[0]])
            if gap is None:
                return False  # a title across a blank line is not a title
            gaps.append(gap)
        node = self._root
        for gap, (_, _, word) in zip(gaps, tokens, strict=True):
            node = node.children.setdefault((gap, word), _TitleNode())
        first, signature = tokens[0][2], max((word for _, _, word in tokens), key=len)
        self._first_words.add(first)
        self._signatures.add(signature)
        if signature.isascii():
            self._ascii_signatures.add(signature.encode())
        if len(tokens) == 1:
            if first.isascii():
                self._ascii_single.add(first.encode())
        elif first.isascii() and tokens[1][2].isascii():
            self._ascii_openings.add((first.encode(), tokens[1][2].encode()))
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
        # Most texts name no title: on ASCII text that is mostly settled in C, with
        # bytes.translate, split and sets; a title needs its signature word, and its one
        # word or its first two words in a row.
        if scan.isascii():
            ascii_words = scan.encode().translate(_ASCII_WORD_BYTES).split()
            if self._ascii_signatures.isdisjoint(ascii_words):
                return []
            openings = itertools.pairwise(ascii_words)
            if self._ascii_single.isdisjoint(ascii_words) and self._ascii_openings.isdisjoint(
                openings
            ):
                return []
            # split gives [gap, word, gap, word, …, gap]
            parts = _ASCII_TITLE_WORD_OR_GAP.split(scan.lower())  # casefold, on ASCII
            words = parts[1::2]
        else:
            parts = _TITLE_WORD_OR_GAP.split(scan)
            words = list(map(str.casefold, parts[1::2]))
            if self._signatures.isdisjoint(words):
                return []
        first_words = self._first_words
        if first_words.isdisjoint(words):
            return []
        bounds = list(itertools.accumulate(map(len, parts)))
        children = self._root.children
        n = len(words)
        found: list[tuple[int, int, str]] = []
        after = 0  # titles do not overlap: the next one starts after the last one found
        for i in itertools.compress(range(n), map(first_words.__contains__, words)):
            if i < after:
                continue
            node = children.get(("", words[i]))
            best, key = -1, ""
            j = i
            while node is not None:
                if node.key is not None:
                    best, key = j, node.key
                if j + 1 == n or j - i + 1 == MAX_TITLE_WORDS:
                    break
                gap = _title_gap(parts[2 * j + 2])  # the text between word j and j + 1
                if gap is None:
                    break
                j += 1
                node = node.children.get((gap, words[j]))
            if best >= 0:
                found.append((bounds[2 * i], bounds[2 * best + 1], key))
                after = best + 1
        return found


def _title_gap(gap: str) -> str | None:
    """What between two words must match: white space counts as nothing; None: no match."""
    if BLANK in gap or gap.count("\n") > 1:
        return None
    return "".join(gap.split())
