"""The words of a text, with their spans and the facts about case and position that the
rules for names, acronyms and key phrases ask of them.

A word is letters and digits, with inner apostrophes and hyphens ("O'Brien", "Jean-Luc");
a possessive 's is not part of it ("Aurora's" is "Aurora"). CJK scripts are written
without spaces: each Han or kana character is a word of its own, so titles can be matched
in them.

Every text's every word passes through here, so the work is done in bulk, in C where it
can be (``re.split``, ``map`` over ``str`` methods), and what depends only on a short gap
between words is remembered across texts.
"""

from __future__ import annotations

import itertools
import operator
import re

from groundgraph.ingest.entities.wordlists import ABBREVIATIONS, ENGLISH_HINTS, GERMAN_HINTS

#: Han and kana: scripts written without spaces, where each character counts as a word.
CJK = (
    "\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
    "\U00020000-\U0002ffff"
)
# A word: letters and digits, with inner apostrophes and hyphens ("O'Brien", "Jean-Luc");
# a CJK character alone.
_WORD = rf"[{CJK}]|[^\W_{CJK}][^\W{CJK}]*(?:['’\-][^\W_{CJK}][^\W{CJK}]*)*"
_WORD_OR_GAP = re.compile(f"({_WORD})")
# The same on ASCII text, where it has no CJK to look for and need not backtrack: faster.
_ASCII_WORD_OR_GAP = re.compile(r"([^\W_]\w*+(?:['\-][^\W_]\w*+)*+)", re.ASCII)
# What between two words makes the second one start a sentence (or a line, a table cell, a
# quote, a link text).
_STARTS_SENTENCE = re.compile(r"[\n\t.!?:;…。！？|•#¿¡\"“«„「『\[]")
_FIRST = operator.itemgetter(0)
_ONLY_ENGLISH_HINTS = ENGLISH_HINTS - GERMAN_HINTS  # a word of both counts as German


class Words:
    """The words of a text with their spans, case and position facts, in parallel lists.

    ``start``, ``end`` and ``lower_seen`` are worked out when first asked: many texts are
    done with before anything needs them.
    """

    __slots__ = (
        "_end",
        "_lower_seen",
        "_parts",
        "_start",
        "cap",
        "capitalised_mid",
        "capitals",
        "gaps",
        "initial",
        "lower",
        "possessive",
        "text",
        "words",
    )

    def __init__(self, text: str) -> None:
        self.text = text
        # Runs once per word of every text, so in bulk and in C where it can: split gives
        # [gap, word, gap, word, …, gap]; map over str methods and operator functions keeps
        # the per-word loops out of Python.
        parts = (_ASCII_WORD_OR_GAP if text.isascii() else _WORD_OR_GAP).split(text)
        self._parts = parts
        self._start: list[int] | None = None
        self._end: list[int] | None = None
        #: gaps[i] is the text before word i (gaps[-1]: after the last word).
        self.gaps: list[str] = parts[0::2]
        words: list[str] = parts[1::2]
        self.words = words
        self.possessive: set[int] = set()  # words written with a possessive 's
        if "'s" in text or "’s" in text:
            for i, word in enumerate(words):
                if word[-1] == "s" and len(word) > 2 and word[-2] in "'’":
                    words[i] = word[:-2]
                    self.possessive.add(i)
        self.lower: list[str] = list(map(str.lower, words))
        lower = self.lower
        self.cap: list[bool] = list(map(str.istitle, map(_FIRST, words)))
        n = len(words)
        #: The indices of the capitalised words.
        self.capitals: list[int] = list(itertools.compress(range(n), self.cap))
        #: initial[k]: capitalised word k starts a sentence (False for every other word: no
        #: rule asks it of a word in lower case, and most words are).
        initial = [False] * n
        #: Words the text capitalises mid-sentence.
        self.capitalised_mid: set[str] = set()
        for k in self.capitals:
            verdict = _GAP_VERDICTS[self.gaps[k]] if k else _STARTS
            if verdict == _FULL_STOP:
                # Only a full stop: not after an abbreviation or an initial ("Dr. Curie").
                verdict = _CONTINUES if len(words[k - 1]) == 1 else _STARTS
                if lower[k - 1] in ABBREVIATIONS:
                    verdict = _CONTINUES
            if verdict == _STARTS:
                initial[k] = True
            else:
                self.capitalised_mid.add(lower[k])
        self.initial: list[bool] = initial
        self._lower_seen: set[str] | None = None

    @property
    def start(self) -> list[int]:
        """Where each word starts in the text."""
        if self._start is None:
            self._start, self._end = self._spans()
        return self._start

    @property
    def end(self) -> list[int]:
        """Where each word ends (before a possessive 's)."""
        if self._end is None:
            self._start, self._end = self._spans()
        return self._end

    def _spans(self) -> tuple[list[int], list[int]]:
        # The running sum of the parts' lengths gives every span.
        bounds = list(itertools.accumulate(map(len, self._parts)))
        end = bounds[1::2]
        for i in self.possessive:
            end[i] -= 2
        return bounds[0:-1:2], end

    @property
    def lower_seen(self) -> set[str]:
        """Words the text writes in lower case."""
        if self._lower_seen is None:
            firsts = map(_FIRST, self.words)
            self._lower_seen = set(itertools.compress(self.lower, map(str.islower, firsts)))
        return self._lower_seen

    def __len__(self) -> int:
        return len(self.words)

    def looks_german(self) -> bool:
        """Whether German function words outnumber English ones (and there is one at all)."""
        if GERMAN_HINTS.isdisjoint(self.lower):
            return False  # the common case, settled without counting
        german = sum(map(GERMAN_HINTS.__contains__, self.lower))
        return german > sum(map(_ONLY_ENGLISH_HINTS.__contains__, self.lower))


# What a gap says about the word after it: it starts a sentence, it does not, or it does
# unless the word before is an abbreviation or an initial (a full stop alone).
_CONTINUES, _STARTS, _FULL_STOP = 0, 1, 2
_MAX_CACHED_GAP = 8
_MAX_CACHED_GAPS = 4096


class _GapVerdicts(dict[str, int]):
    """Gap -> its verdict; remembered, as the same few gaps (" ", ". ", ", ", "\\n") come
    back in every text."""

    def __missing__(self, gap: str) -> int:
        if not _STARTS_SENTENCE.search(gap):
            verdict = _CONTINUES
        elif "\n" in gap or gap.strip(" \u00a0.") != "":
            verdict = _STARTS
        else:
            verdict = _FULL_STOP
        if len(gap) <= _MAX_CACHED_GAP and len(self) < _MAX_CACHED_GAPS:
            self[gap] = verdict
        return verdict


_GAP_VERDICTS = _GapVerdicts()
