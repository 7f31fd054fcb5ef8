"""Other documents' titles named in a text: exact, ignoring case, on whole words.

What a title holds around its words marks it, and must be there too: a title that starts
or ends with a mark (``.CODE``, ``@Time``, ``/HEAP``, ``::new``, ``.DATA?``) is found only
with it, so a MASM directive's page is not named by every "code" of the corpus; a title
all in capitals (``PAGE``, ``MFC``) is found only in capitals.

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
from dataclasses import dataclass

from groundgraph.ingest.entities.masking import BLANK
from groundgraph.ingest.entities.normalise import normalise_entity
from groundgraph.ingest.entities.wordlists import is_common
from groundgraph.ingest.entities.words import CJK

# A CJK character is a word of its own, so a title in Japanese is found inside a sentence.
_TITLE_WORD = re.compile(rf"[{CJK}]|[^\W{CJK}]+")
_TITLE_WORD_OR_GAP = re.compile(rf"([{CJK}]|[^\W{CJK}]+)")
_ASCII_TITLE_WORD_OR_GAP = re.compile(r"(\w+)", re.ASCII)  # the same on ASCII text
MAX_TITLE_WORDS = 16
_SERIALS = itertools.count()
# An ASCII byte -> itself in lower case if it is a word character (\w), else a space: the
# words of ASCII text, case folded, are then its translation's split().
_ASCII_WORD_BYTES = bytes(
    c + 32 if 65 <= c <= 90 else c if 48 <= c <= 57 or 97 <= c <= 122 or c == 95 else 32
    for c in range(256)
)


@dataclass(frozen=True, slots=True)
class _Form:
    """One title ending at a trie node: the marks before and after its words (white
    space taken out), whether it is found only in capitals, and its key."""

    lead: str
    trail: str
    capitals: bool
    key: str

    def fits(self, scan: str, start: int, end: int) -> tuple[int, int] | None:
        """The span of this title in ``scan`` whose words are ``scan[start:end]``, marks
        included; None when a mark or the case is not there."""
        if self.capitals and not scan[start:end].isupper():
            return None
        if self.lead:
            start = _mark_before(scan, start, self.lead)
            if start < 0:
                return None
        if self.trail:
            end = _mark_after(scan, end, self.trail)
            if end < 0:
                return None
        return start, end


class _TitleNode:
    __slots__ = ("children", "forms")

    def __init__(self) -> None:
        self.children: dict[tuple[str, str], _TitleNode] = {}
        self.forms: list[_Form] = []


class TitleMatcher:
    """Finds given titles in text: exact, ignoring case, on whole words, longest first.

    White space between a title's words may differ in the text (a single line break is
    fine, a blank line is not); other characters between words must be the same, and so
    must a mark before or after them (``.CODE``, ``operator /``); a title all in capitals
    is found in capitals only. Titles of a single word shorter than three characters, or
    a common word (unless a mark or its capitals set it apart), are left out.
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
        #: The titles that gave a form, in the order they came: a matcher made from them
        #: finds what this one does (``size`` counts them; a matcher only grows).
        self.titles: list[str] = []
        #: Tells matchers apart: (``serial``, ``size``) names what a matcher finds.
        self.serial = next(_SERIALS)
        for title in titles:
            self.add(title)

    def add(self, title: str) -> bool:
        """Look for ``title`` too; False if it is left out (too short, common or long)."""
        tokens = [(m.start(), m.end(), m.group().casefold()) for m in _TITLE_WORD.finditer(title)]
        if not tokens or len(tokens) > MAX_TITLE_WORDS:
            return False
        lead = "".join(title[: tokens[0][0]].split())
        trail = "".join(title[tokens[-1][1] :].split())
        words = title[tokens[0][0] : tokens[-1][1]]
        capitals = words.isupper() and sum(c.isalpha() for c in words) >= 2
        if len(tokens) == 1 and (
            len(tokens[0][2]) < 3 or (is_common(tokens[0][2]) and not (lead or trail or capitals))
        ):
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
        form = _Form(lead, trail, capitals, key)
        if form not in node.forms:
            # The most marked first: ".CODE" is tried before a plain "code" title.
            node.forms.append(form)
            node.forms.sort(key=lambda f: (-len(f.lead) - len(f.trail), not f.capitals))
            self.size += 1
            self.titles.append(title)
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
        # Titles do not overlap: the next one starts after the last one found (its words
        # and its marks).
        after, last_end = 0, 0
        for i in itertools.compress(range(n), map(first_words.__contains__, words)):
            if i < after:
                continue
            node = children.get(("", words[i]))
            best, key, span = -1, "", (0, 0)
            j = i
            while node is not None:
                for form in node.forms:
                    fits = form.fits(scan, bounds[2 * i], bounds[2 * j + 1])
                    if fits is not None and fits[0] >= last_end:
                        best, key, span = j, form.key, fits
                        break
                if j + 1 == n or j - i + 1 == MAX_TITLE_WORDS:
                    break
                gap = _title_gap(parts[2 * j + 2])  # the text between word j and j + 1
                if gap is None:
                    break
                j += 1
                node = node.children.get((gap, words[j]))
            if best >= 0:
                found.append((span[0], span[1], key))
                after, last_end = best + 1, span[1]
        return found

    def state(self) -> tuple[int, int]:
        """What this matcher finds now, as a value: equal states find the same titles."""
        return self.serial, self.size


def _title_gap(gap: str) -> str | None:
    """What between two words must match: white space counts as nothing; None: no match."""
    if BLANK in gap or gap.count("\n") > 1:
        return None
    return "".join(gap.split())


def _mark_before(scan: str, start: int, mark: str) -> int:
    """Where ``mark`` (no white space in it) ends right before ``start`` in ``scan``,
    white space between its characters allowed as between a title's words; -1 if not."""
    at = start
    for char in reversed(mark):
        at -= 1
        while at >= 0 and scan[at] in " \t\n" and char not in " \t\n":
            at -= 1
        if at < 0 or scan[at] != char:
            return -1
    return at if _title_gap(scan[at:start]) is not None else -1


def _mark_after(scan: str, end: int, mark: str) -> int:
    """Where ``mark`` ends when it follows ``end`` in ``scan`` (as ``_mark_before``)."""
    at = end
    for char in mark:
        while at < len(scan) and scan[at] in " \t\n":
            at += 1
        if at == len(scan) or scan[at] != char:
            return -1
        at += 1
    return at if _title_gap(scan[end:at]) is not None else -1
