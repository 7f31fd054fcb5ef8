"""Capitalised names in running text: "Marie Curie", "Bank of England", "J. R. R. Tolkien".

A name is a run of capitalised words on one line, separated by spaces (not tabs), possibly
joined by lower-case connectors ("of", "da", "van der", …), "&", initials ("W.", "U.S.")
or "St.".
Whether a run is a name or just capitals of position is decided with evidence from the
whole text:

- A run of two or more capitalised words is a name, once a common word at a sentence
  start ("The", "In") is trimmed from its front and common words from its end.
- A single capitalised word mid-sentence ("Arizona") is a name unless it is a common word
  or the text also uses it in lower case ("Bill" vs "bill").
- A single capitalised word at a sentence start is a name only with more evidence: the
  text also capitalises it mid-sentence ("…in Arizona"), or it is plainly a subject: an
  auxiliary follows ("Aurora was developed…", "Arizona is dry") or it takes a possessive
  ("Aurora's mirror"). "Tomatoes went in" and "Bake at 230 degrees" give nothing.
- A sentence-initial article stays in a name when a capitalised word follows ("The Hague",
  "Los Angeles"); the normaliser drops it from the key, so the key is that of "Hague".
- A word with inner capitals ("GraphRack", "McDonald") is a name anywhere.
- German capitalises every noun, so in text that looks German a single capitalised word
  is not a name (only runs of two or more and inner-capital words are): "Der Hund" gives
  nothing, "Angela Merkel" and "Deutsche Bank" do, and single-word names such as "Berlin"
  are missed. That is the trade: without a tagger, precision over recall.

CJK scripts have no capitals: each Han or kana character is a word of its own here, so
titles can be matched, but no name is ever found in them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from groundgraph.ingest.wordlists import (
    ABBREVIATIONS,
    CONNECTOR_PAIRS,
    CONNECTORS,
    ENGLISH_HINTS,
    GERMAN_CONNECTORS,
    GERMAN_HINTS,
    NAME_ARTICLES,
    NAME_PREFIXES,
    SUBJECT_VERBS,
    is_common,
)

#: Han and kana: scripts written without spaces, where each character counts as a word.
CJK = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0002ffff"
)
# A word: letters and digits, with inner apostrophes and hyphens ("O'Brien", "Jean-Luc");
# a CJK character alone.
_WORD = rf"[{CJK}]|[^\W_{CJK}][^\W{CJK}]*(?:['’\-][^\W_{CJK}][^\W{CJK}]*)*"
_WORD_OR_GAP = re.compile(f"({_WORD})")
# What between two words makes the second one start a sentence (or a line, a table cell, a
# quote, a link text).
_STARTS_SENTENCE = re.compile(r"[\n\t.!?:;…。！？|•#¿¡\"“«„「『\[]")
_SAME_LINE = re.compile(r"[ \u00a0]{1,3}|[ \u00a0]?&[ \u00a0]?")
_INITIAL_GAP = re.compile(r"\.[ \u00a0]{0,2}")
MAX_NAME_WORDS = 6


class Words:
    """The words of a text with their spans, case and position facts, in parallel lists."""

    __slots__ = (
        "cap",
        "capitalised_mid",
        "end",
        "initial",
        "lower",
        "lower_seen",
        "possessive",
        "start",
        "text",
        "words",
    )

    def __init__(self, text: str) -> None:
        self.text = text
        # Runs once per word of every text, so in bulk and in C where it can: split gives
        # [gap, word, gap, word, …, gap] and the running sum of lengths gives every span.
        parts = _WORD_OR_GAP.split(text)
        bounds = list(itertools.accumulate(map(len, parts)))
        gaps = parts[0:-1:2]  # gaps[i] is the text before word i
        self.start: list[int] = bounds[0:-1:2]
        self.end: list[int] = bounds[1::2]
        self.words: list[str] = parts[1::2]
        self.possessive: set[int] = set()  # words written with a possessive 's
        for i, word in enumerate(self.words):
            if word[-1] == "s" and len(word) > 2 and word[-2] in "'’":
                self.words[i] = word[:-2]
                self.end[i] -= 2
                self.possessive.add(i)
        self.lower: list[str] = [word.lower() for word in self.words]
        self.cap: list[bool] = [word[0].istitle() for word in self.words]
        follows = zip(gaps[1:], self.words, strict=False)
        self.initial: list[bool] = [True] * bool(self.words) + [
            gap != " " and _starts_sentence(gap, before) for gap, before in follows
        ]
        #: Words the text writes in lower case, and words it capitalises mid-sentence.
        self.lower_seen: set[str] = {
            lower for word, lower in zip(self.words, self.lower, strict=True) if word[0].islower()
        }
        self.capitalised_mid: set[str] = {
            lower
            for cap, initial, lower in zip(self.cap, self.initial, self.lower, strict=True)
            if cap and not initial
        }

    def __len__(self) -> int:
        return len(self.start)

    def looks_german(self) -> bool:
        """Whether German function words outnumber English ones (and there is one at all)."""
        german = english = 0
        for lower in self.lower:
            if lower in GERMAN_HINTS:
                german += 1
            elif lower in ENGLISH_HINTS:
                english += 1
        return german > english


def _starts_sentence(gap: str, prev_word: str) -> bool:
    if not _STARTS_SENTENCE.search(gap):
        return False
    if "\n" in gap or gap.strip(" \u00a0.") != "":
        return True
    # Only a full stop: not after an abbreviation or an initial ("Dr. Curie", "J. Smith").
    return not (len(prev_word) == 1 or prev_word.lower() in ABBREVIATIONS)


def is_all_caps(word: str) -> bool:
    """All capitals, or the plural of all capitals ("APIs"): an acronym, not a name."""
    return word.isupper() or (len(word) > 2 and word[-1] == "s" and word[:-1].isupper())


def has_inner_capital(word: str) -> bool:
    """A capital after a lower-case letter, or after a hyphen that ends a long part."""
    for k in range(1, len(word)):
        if word[k].isupper():
            before = word[k - 1]
            if before.islower() or (before == "-" and k >= 3):
                return True
    return False


@dataclass(frozen=True, slots=True)
class NameRun:
    """A run of capitalised words, trimmed: ``first``..``last`` index into ``Words``."""

    first: int
    last: int
    start: int
    end: int
    capitals: int  # capitalised words in it, connectors not counted


def capitalised_runs(words: Words, german: bool) -> Iterator[NameRun]:
    """Every maximal run of capitalised words, trimmed of common words at its edges."""
    text, cap = words.text, words.cap
    connectors = GERMAN_CONNECTORS if german else CONNECTORS
    n = len(words)
    i = 0
    while i < n:
        if not cap[i]:
            i += 1
            continue
        run = [i]
        j = i
        while j + 1 < n:
            gap = text[words.end[j] : words.start[j + 1]]
            if _SAME_LINE.fullmatch(gap):
                if cap[j + 1]:
                    run.append(j + 1)
                    j += 1
                    continue
                joined = _connectors(words, j + 1, connectors)
                if joined:
                    run.extend(range(j + 1, joined + 1))
                    j = joined
                    continue
            elif _INITIAL_GAP.fullmatch(gap) and cap[j + 1] and _joins_by_full_stop(words, j):
                run.append(j + 1)
                j += 1
                continue
            break
        i = j + 1
        trimmed = _trim(words, run, german)
        if trimmed:
            first, last = trimmed[0], trimmed[-1]
            capitals = sum(1 for k in trimmed if cap[k])
            if capitals <= MAX_NAME_WORDS:
                yield NameRun(first, last, words.start[first], words.end[last], capitals)


def _connectors(words: Words, k: int, connectors: frozenset[str]) -> int:
    """Index of the capitalised word after connectors starting at ``k``; 0 if none."""
    text, lower, n = words.text, words.lower, len(words)
    if lower[k] not in connectors:
        return 0
    after = k + 1
    if (
        after < n
        and (lower[k], lower[after]) in CONNECTOR_PAIRS
        and _SAME_LINE.fullmatch(text[words.end[k] : words.start[after]])
    ):
        after += 1
    if (
        after < n
        and words.cap[after]
        and _SAME_LINE.fullmatch(text[words.end[after - 1] : words.start[after]])
    ):
        return after
    return 0


def _joins_by_full_stop(words: Words, j: int) -> bool:
    """An initial ("W. Bush", "U.S. Army") or a name prefix ("St. Louis"), then a dot."""
    word = words.words[j]
    return words.lower[j] in NAME_PREFIXES or (len(word) == 1 and word.isupper())


def _trim(words: Words, run: list[int], german: bool) -> list[int]:
    lower, cap = words.lower, words.cap
    lo, hi = 0, len(run) - 1
    while lo <= hi:
        k = run[lo]
        if cap[k]:
            at_start = words.initial[k]
            if is_common(lower[k]):
                if not (german or at_start):
                    break  # "visited The Hague": mid-sentence, the capital is the name's
                if not german and hi > lo and lower[k] in NAME_ARTICLES:
                    break  # "The Hague is…", "Los Angeles is…"
            elif not (at_start and hi > lo and lower[k] in words.lower_seen):
                break
        lo += 1
    while hi >= lo and (not cap[run[hi]] or is_common(lower[run[hi]])):
        hi -= 1
    return run[lo : hi + 1]


def name_spans(words: Words, german: bool, relaxed: bool = False) -> Iterator[NameRun]:
    """The runs that are names (module docstring); ``relaxed`` accepts any single word.

    Relaxed is for places where the syntax already says a name is there ("X is the father
    of Y"): a single capitalised word counts unless it is a common word.
    """
    for run in capitalised_runs(words, german):
        if run.capitals >= 2:
            members = range(run.first, run.last + 1)
            caps = [k for k in members if words.cap[k]]
            if all(is_common(words.lower[k]) for k in caps):
                continue
            if all(is_all_caps(words.words[k]) for k in caps):
                continue  # a shouted phrase; its acronyms are found on their own
            yield run
        elif _single_is_name(words, run.first, german, relaxed):
            yield run


def _single_is_name(words: Words, k: int, german: bool, relaxed: bool) -> bool:
    word, lower = words.words[k], words.lower[k]
    if len(word) < 2 or is_all_caps(word) or is_common(lower):
        return False
    if relaxed or has_inner_capital(word):
        return True
    if german or lower in words.lower_seen:
        return False
    if not words.initial[k] or lower in words.capitalised_mid or k in words.possessive:
        return True
    after = k + 1
    return (
        after < len(words)
        and words.lower[after] in SUBJECT_VERBS
        and words.text[words.end[k] : words.start[after]] == " "
    )
