"""The literal words a pattern's every match holds: a cheap test before a costly regex.

Many of the rule patterns (the claim patterns of the memory, the cue patterns of the
change rules and of causal extraction) open with a lazy subject or a lookbehind, so the
regex engine tries them at every position of every text, though most texts hold none of
the words they need. ``literals(pattern)`` reads a pattern's syntax tree for a set of
literal strings one of which is in every match (the longest such set it finds: a run of
literal characters, or one from each branch of an alternation); ``may_match(pattern,
text)`` is False only when the text holds none of them, so the pattern cannot match it.

``LiteralGroup(patterns).candidates(text)`` answers for many patterns at once: the
literals of all of them are indexed by their first three characters, so one pass over the
text's positions finds the ones it holds (the patterns that may match), whatever their
number. The test is exact for any text: an ASCII text is compared in lower case (where case-blind
matching and lower case agree) and any other text by a regex of the literals with the
pattern's own flags. A pattern with no such set (or with local flags that change case
rules) always "may match".
"""

from __future__ import annotations

import functools
import re
import re._constants as sre  # type: ignore[import-not-found]  # no stubs: the syntax tree
import re._parser as sre_parse  # type: ignore[import-not-found]
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


@dataclass(frozen=True, slots=True)
class Literals:
    """Strings one of which every match of a pattern holds; ``words`` None: no such set."""

    words: tuple[str, ...] | None
    folded: tuple[str, ...]  # the ASCII words in lower case, for a case-blind pattern
    other: re.Pattern[str] | None  # the words as a regex with the pattern's flags

    def may_match(self, text: str, lower: str | None = None) -> bool:
        """False when ``text`` holds none of the words (``lower``: ``text.lower()``, when
        the caller has it)."""
        if self.words is None:
            return True
        if self.other is None:  # a case-sensitive pattern
            return any(w in text for w in self.words)
        if self.folded and text.isascii():
            low = text.lower() if lower is None else lower
            return any(w in low for w in self.folded)
        return self.other.search(text) is not None


def _sequence(items: Any) -> set[str] | None:
    """A set of strings one of which a match of the sequence ``items`` holds, or None."""
    best: set[str] | None = None
    run: list[str] = []

    def better(found: set[str] | None) -> None:
        nonlocal best
        if found and all(found) and (best is None or _score(found) > _score(best)):
            best = found

    for op, arg in items:
        if op is sre.LITERAL:
            run.append(chr(arg))
            continue
        if run:
            better({"".join(run)})
            run = []
        better(_item(op, arg))
    if run:
        better({"".join(run)})
    return best


def _item(op: Any, arg: Any) -> set[str] | None:
    if op is sre.SUBPATTERN:
        _, add_flags, del_flags, items = arg
        return None if add_flags or del_flags else _sequence(items)
    if op is sre.ATOMIC_GROUP:
        return _sequence(arg)
    if op in _REPEATS:
        low, _, items = arg
        return _sequence(items) if low >= 1 else None
    if op is sre.BRANCH:
        out: set[str] = set()
        for branch in arg[1]:
            found = _sequence(branch)
            if not found:
                return None
            out |= found
        return out
    return None


def _score(words: set[str]) -> tuple[int, int]:
    return (min(len(w) for w in words), -len(words))


# By the pattern's id (a pattern's own hash reads its whole compiled code), with the
# pattern itself kept so that its id is never reused.
_KNOWN: dict[int, tuple[re.Pattern[str], Literals]] = {}


def literals(pattern: re.Pattern[str]) -> Literals:
    """The literal strings one of which every match of ``pattern`` holds (module doc)."""
    known = _KNOWN.get(id(pattern))
    if known is None:
        known = _KNOWN[id(pattern)] = (pattern, _literals(pattern))
    return known[1]


def _literals(pattern: re.Pattern[str]) -> Literals:
    flags = pattern.flags
    if not isinstance(pattern.pattern, str) or flags & re.LOCALE:
        return Literals(None, (), None)
    try:
        found = _sequence(sre_parse.parse(pattern.pattern, flags))
    except (TypeError, ValueError, AttributeError):  # a syntax tree of another shape
        found = None
    if not found:
        return Literals(None, (), None)
    words = tuple(sorted(found, key=lambda w: (-len(w), w)))
    if not flags & re.IGNORECASE:
        return Literals(words, (), None)
    # An ASCII text holds no literal with a letter that no ASCII letter matches case-blind
    # ("é", "’"); one whose letters all do ("ſ", the Kelvin sign) leaves the regex to tell.
    if any(
        not w.isascii() and all(_folds_to_ascii(c) for c in w if not c.isascii()) for w in words
    ):
        return Literals(words, (), re.compile(_alternation(words), flags & _CASE_FLAGS))
    folded = tuple(w.lower() for w in words if w.isascii())
    return Literals(words, folded, re.compile(_alternation(words), flags & _CASE_FLAGS))


_CASE_FLAGS = re.IGNORECASE | re.UNICODE


def _alternation(words: Sequence[str]) -> str:
    return "|".join(re.escape(w) for w in words)


@functools.cache
def _folds_to_ascii(char: str) -> bool:
    """Whether some ASCII character matches ``char`` case-blind (the long s, the Kelvin
    sign, the dotted and dotless i)."""
    pattern = re.compile(re.escape(char), re.IGNORECASE)
    return any(pattern.fullmatch(chr(code)) for code in range(128))


def may_match(pattern: re.Pattern[str], text: str, lower: str | None = None) -> bool:
    """False only when ``pattern`` cannot match anywhere in ``text`` (module docstring)."""
    known = _KNOWN.get(id(pattern))
    found = literals(pattern) if known is None else known[1]
    return found.may_match(text, lower)


_GRAM = 3


class LiteralGroup:
    """Many patterns' literals, indexed by their first ``_GRAM`` characters: in lower case
    for the case-blind patterns, as written for the others."""

    def __init__(self, patterns: Sequence[re.Pattern[str]]) -> None:
        self.patterns = tuple(patterns)
        self._always: list[int] = []  # no literals: every text may match
        self._checked: list[int] = []  # literals an ASCII text may match case-blind: alone
        self._blind = _GramIndex()  # the case-blind patterns' literals, in lower case
        self._exact = _GramIndex()  # the case-sensitive patterns' literals
        for index, pattern in enumerate(self.patterns):
            found = literals(pattern)
            if found.words is None:
                self._always.append(index)
            elif found.other is None:
                self._exact.add(found.words, index)
            elif found.folded:
                self._blind.add(found.folded, index)
            else:
                self._checked.append(index)

    def candidates(self, text: str) -> set[int]:
        """The indexes of the patterns that may match ``text`` (the others cannot)."""
        if not text.isascii():
            return {i for i, p in enumerate(self.patterns) if may_match(p, text)}
        out = set(self._always)
        out.update(i for i in self._checked if may_match(self.patterns[i], text))
        self._blind.found(text.lower(), out)
        self._exact.found(text, out)
        return out


class _GramIndex:
    """Literals by their first ``_GRAM`` characters (the shorter ones apart), with the
    index of the pattern each belongs to."""

    def __init__(self) -> None:
        self.short: list[tuple[str, int]] = []
        self.by_gram: dict[str, list[tuple[str, int]]] = {}
        self.grams: frozenset[str] = frozenset()

    def add(self, words: Sequence[str], index: int) -> None:
        for word in words:
            if len(word) < _GRAM:
                self.short.append((word, index))
            else:
                self.by_gram.setdefault(word[:_GRAM], []).append((word, index))
        self.grams = frozenset(self.by_gram)

    def found(self, text: str, out: set[int]) -> None:
        """Add to ``out`` the patterns with a literal in ``text``."""
        if not self.grams and not self.short:
            return
        out.update(i for word, i in self.short if word in text)
        grams = {text[i : i + _GRAM] for i in range(len(text) - _GRAM + 1)}
        by_gram = self.by_gram
        for gram in self.grams.intersection(grams):
            out.update(i for word, i in by_gram[gram] if word in text)
