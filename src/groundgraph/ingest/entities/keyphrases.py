"""Key phrases: pairs of adjacent lower-case content words that a text uses twice or more.

Deliberately conservative: each word has at least three letters, is lower case, and is
not a common, generic or -ly word; the two are separated by a single space; and the pair
comes back in the same text, its second word maybe in the plural ("cold room" … "cold
rooms"). Only pairs, only repeats.
"""

from __future__ import annotations

import itertools
from collections import Counter

from groundgraph.ingest.entities.normalise import singular
from groundgraph.ingest.entities.wordlists import GENERIC_WORDS, is_common
from groundgraph.ingest.entities.words import Words

_MAX_REMEMBERED_WORDS = 1 << 16


def keyphrase_spans(words: Words) -> list[tuple[int, int]]:
    """(start, end) of every pair of ``words`` whose pair (first word, singular of the
    second, in lower case) occurs at least twice, in order."""
    n = len(words)
    if n < 3:
        return []  # a pair that occurs twice needs three words ("cold cold cold")
    # Every pass over the words is a map in C; Python only sees the repeated pairs.
    heads = list(map(_HEADS.__getitem__, words.words))  # None: not a content word
    spaced = map(" ".__eq__, words.gaps[1:n])  # one space between the two, not a tab
    # paired[i]: words i and i + 1 make a pair (zip reuses its tuple: all() lets go of it)
    paired = list(map(all, zip(heads, heads[1:], spaced, strict=False)))
    for i in words.possessive:  # "cat's toy": the gap after "cat" is not the one space
        if i < n - 1:
            paired[i] = False
    pairs = list(itertools.compress(zip(words.lower, heads[1:], strict=False), paired))
    if len(set(pairs)) == len(pairs):
        return []
    counts = Counter(pairs)
    start, end = words.start, words.end
    return [
        (start[i], end[i + 1])
        for i, pair in zip(itertools.compress(range(n - 1), paired), pairs, strict=True)
        if counts[pair] >= 2
    ]


def is_content_word(word: str) -> bool:
    """At least three letters, lower case, and not a common, generic or -ly word."""
    return (
        len(word) >= 3
        and word.isalpha()
        and word.islower()
        and not word.endswith("ly")
        and word not in GENERIC_WORDS
        and not is_common(word)
    )


class _Heads(dict[str, str | None]):
    """Word -> the singular of its lower case if it is a content word, else None.

    Remembered across texts (a corpus repeats its vocabulary), up to a bound.
    """

    def __missing__(self, word: str) -> str | None:
        head = singular(word.lower()) if is_content_word(word) else None
        if len(self) < _MAX_REMEMBERED_WORDS:
            self[word] = head
        return head


_HEADS = _Heads()
