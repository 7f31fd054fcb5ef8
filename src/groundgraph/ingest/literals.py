"""The literal words a pattern's every match holds: a cheap test before a costly regex.

Many of the rule patterns (the claim patterns of the memory, the cue patterns of the
change rules and of causal extraction) open with a lazy subject or a lookbehind, so the
regex engine tries them at every position of every text, though most texts hold none of
the words they need. ``literals(pattern)`` reads a pattern's syntax tree for a set of
literal strings one of which is in every match (the longest such set it finds: a run of
literal characters, or one from each branch of an alternation); ``may_match(pattern,
text)`` is False only when the text holds none of them, so the pattern cannot match it.

The test is exact for any text: an ASCII text is compared in lower case (where case-blind
matching and lower case agree) and any other text by a regex of the literals with the
pattern's own flags. A pattern with no such set (or with local flags that change case
rules) always "may match".
"""

from __future__ import annotations

import re
import re._constants as sre
import re._parser as sre_parse
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
        if text.isascii():
            low = text.lower() if lower is None else lower
            if any(w in low for w in self.folded):
                return True
            if len(self.folded) == len(self.words):
                return False
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
    found = _sequence(sre_parse.parse(pattern.pattern, flags))
    if not found:
        return Literals(None, (), None)
    words = tuple(sorted(found, key=lambda w: (-len(w), w)))
    if not flags & re.IGNORECASE:
        return Literals(words, (), None)
    folded = tuple(w.lower() for w in words if w.isascii())
    regex = re.compile("|".join(re.escape(w) for w in words), flags & (re.IGNORECASE | re.UNICODE))
    return Literals(words, folded, regex)


def may_match(pattern: re.Pattern[str], text: str, lower: str | None = None) -> bool:
    """False only when ``pattern`` cannot match anywhere in ``text`` (module docstring)."""
    known = _KNOWN.get(id(pattern))
    found = literals(pattern) if known is None else known[1]
    return found.may_match(text, lower)
