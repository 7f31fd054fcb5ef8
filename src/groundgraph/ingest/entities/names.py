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

CJK scripts have no capitals (``ingest.entities.words``), so no name is ever found in them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from groundgraph.ingest.entities.wordlists import (
    CONNECTOR_PAIRS,
    CONNECTORS,
    GERMAN_CONNECTORS,
    NAME_ARTICLES,
    NAME_PREFIXES,
    SUBJECT_VERBS,
    is_common,
)
from groundgraph.ingest.entities.words import Words

_SAME_LINE = re.compile(r"[ \u00a0]{1,3}|[ \u00a0]?&[ \u00a0]?")
_INITIAL_GAP = re.compile(r"\.[ \u00a0]{0,2}")
MAX_NAME_WORDS = 6


def is_all_caps(word: str) -> bool:
    """All capitals, or the plural of all capitals ("APIs"): an acronym, not a name."""
    return word.isupper() or (len(word) > 2 and word[-1] == "s" and word[:-1].isupper())


def has_inner_capital(word: str) -> bool:
    """A capital after a lower-case letter, or after a hyphen that ends a long part."""
    if word[1:].islower():
        return False  # no capital after the first letter (the common case, checked in C)
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
    start, end = words.start, words.end
    for first, last, capitals in _runs(words, german):
        yield NameRun(first, last, start[first], end[last], capitals)


def _runs(words: Words, german: bool) -> Iterator[tuple[int, int, int]]:
    """``capitalised_runs`` as (first, last, capitals), visiting capitalised words only."""
    text, cap, lower, gaps = words.text, words.cap, words.lower, words.gaps
    possessive = words.possessive
    connectors = GERMAN_CONNECTORS if german else CONNECTORS
    n = len(cap)
    after = 0  # the first word not yet in a run
    for i in words.capitals:
        if i < after:
            continue
        run = [i]
        j = i
        while j + 1 < n:
            gap = text[words.end[j] : words.start[j + 1]] if j in possessive else gaps[j + 1]
            kind = _GAP_KINDS[gap]
            if kind == _SAME_LINE_GAP:
                if cap[j + 1]:
                    run.append(j + 1)
                    j += 1
                    continue
                joined = lower[j + 1] in connectors and _connectors(words, j + 1, connectors)
                if joined:
                    run.extend(range(j + 1, joined + 1))
                    j = joined
                    continue
            elif kind == _INITIAL_GAP_KIND and cap[j + 1] and _joins_by_full_stop(words, j):
                run.append(j + 1)
                j += 1
                continue
            break
        after = j + 1
        if j == i:  # one word: ``_trim`` keeps it unless it is a common word
            if not is_common(lower[i]):
                yield i, i, 1
            continue
        trimmed = _trim(words, run, german)
        if trimmed:
            capitals = sum(1 for k in trimmed if cap[k])
            if capitals <= MAX_NAME_WORDS:
                yield trimmed[0], trimmed[-1], capitals


class _GapKinds(dict[str, int]):
    """Gap -> whether it joins two words of a name as a space (or "&") or as an initial's
    full stop; remembered, as the same few gaps come back in every text."""

    def __missing__(self, gap: str) -> int:
        if _SAME_LINE.fullmatch(gap):
            kind = _SAME_LINE_GAP
        else:
            kind = _INITIAL_GAP_KIND if _INITIAL_GAP.fullmatch(gap) else _OTHER_GAP
        if len(gap) <= _MAX_CACHED_GAP and len(self) < _MAX_CACHED_GAPS:
            self[gap] = kind
        return kind


_MAX_CACHED_GAP = 8
_MAX_CACHED_GAPS = 4096


_OTHER_GAP, _SAME_LINE_GAP, _INITIAL_GAP_KIND = 0, 1, 2
_GAP_KINDS = _GapKinds()


def _connectors(words: Words, k: int, connectors: frozenset[str]) -> int:
    """Index of the capitalised word after connectors starting at ``k``; 0 if none."""
    text, lower, n = words.text, words.lower, len(words.lower)
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
    for first, last, capitals in _runs(words, german):
        if capitals >= 2:
            members = range(first, last + 1)
            caps = [k for k in members if words.cap[k]]
            if all(is_common(words.lower[k]) for k in caps):
                continue
            if all(is_all_caps(words.words[k]) for k in caps):
                continue  # a shouted phrase; its acronyms are found on their own
        else:
            kind = _SINGLE_KINDS[words.words[first]]
            if kind == _NEVER or (
                kind == _DEPENDS and not (relaxed or _single_is_name(words, first, german))
            ):
                continue
        yield NameRun(first, last, words.start[first], words.end[last], capitals)


def _single_is_name(words: Words, k: int, german: bool) -> bool:
    """Whether capitalised word ``k``, alone, is a name by what the text says around it
    (for a word ``_SINGLE_KINDS`` finds ``_DEPENDS``): not if the text also writes it in
    lower case; yes if it stands mid-sentence, or the text capitalises it mid-sentence
    elsewhere, or it is plainly a subject (a possessive, an auxiliary after it)."""
    if german:
        return False
    lower, after = words.lower[k], k + 1
    evidence = (
        not words.initial[k]
        or lower in words.capitalised_mid
        or k in words.possessive
        or (
            after < len(words.lower)
            and words.lower[after] in SUBJECT_VERBS
            and words.text[words.end[k] : words.start[after]] == " "
        )
    )
    # lower_seen last: it is worked out on first use, and most sentence starts lack evidence
    return evidence and lower not in words.lower_seen


# What a capitalised word alone is, whatever the text: never a name (one letter, all
# capitals, a common word), always one (inner capitals: "GraphRack"), or it depends.
_NEVER, _ALWAYS, _DEPENDS = 0, 1, 2


class _SingleKinds(dict[str, int]):
    """Word -> its kind; remembered (names and sentence starts come back), up to a bound."""

    def __missing__(self, word: str) -> int:
        if len(word) < 2 or is_all_caps(word) or is_common(word.lower()):
            kind = _NEVER
        else:
            kind = _ALWAYS if has_inner_capital(word) else _DEPENDS
        if len(self) < _MAX_REMEMBERED_WORDS:
            self[word] = kind
        return kind


_MAX_REMEMBERED_WORDS = 1 << 16
_SINGLE_KINDS = _SingleKinds()
