"""Filling a recall up to ``top_k`` when the pipeline finds fewer facts, with no model.

A query that shares no analysed term with most of a small memory seeds from few facts or
none, and the walk reaches only what they connect to: ``query(top_k=5)`` over six facts
may give one. A caller who asks for five gets five. The facts the pipeline did not find,
among those the read may seed from, follow its hits ranked by how much of their spelling
they share with the query (the Dice coefficient of the character trigrams of their
content words: "manager" and "management" share most of theirs, "tea" and "drink"
none), newest first on a tie; a query with no content word ("", "!!!") gets no fill.
Each says so in its explanation (``Seeding.mode ==
"fill"``, ``Seeding.fill_score``) and scores 0: the pipeline found no evidence for it.

Only the ``FILL_SCAN`` newest candidates are compared, so a query on a large memory
that matches nothing stays cheap.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable

#: The most candidate facts (the newest) a fill compares with the query.
FILL_SCAN = 5_000
_WORD = re.compile(r"\w+")


def trigrams(text: str, stopwords: frozenset[str]) -> frozenset[str]:
    """The character trigrams of the content words of ``text``, each word padded with a
    space at both ends ("tea" → " te", "tea", "ea ")."""
    grams: set[str] = set()
    for word in _WORD.findall(text.casefold()):
        if len(word) < 2 or word in stopwords or word.isdigit():
            continue
        padded = f" {word} "
        grams.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return frozenset(grams)


def dice(a: frozenset[str], b: frozenset[str]) -> float:
    """2·|a ∩ b| / (|a| + |b|): 1 for equal sets, 0 for disjoint or empty ones."""
    if not a or not b:
        return 0.0
    return 2.0 * len(a & b) / (len(a) + len(b))


def fill_order(
    query: str,
    candidates: Iterable[tuple[str, str, str]],
    count: int,
    stopwords: frozenset[str],
) -> list[tuple[str, float]]:
    """Up to ``count`` of ``candidates`` (fact id, text, created_at) as (fact id, fill
    score), best first: by trigram Dice with the query, then newest, then by id."""
    wanted = trigrams(query, stopwords)
    if count <= 0 or not wanted:
        return []  # a query of no content word ("", "!!!", "the") asks for nothing
    # the newest FILL_SCAN without sorting the whole memory
    newest = heapq.nlargest(FILL_SCAN, candidates, key=lambda c: (c[2], c[0]))
    scored = [
        (fact, dice(wanted, trigrams(text, stopwords)), stamp) for fact, text, stamp in newest
    ]
    # stable sorts, last key first: by id, then newest first, then by score
    scored.sort(key=lambda item: item[0])
    scored.sort(key=lambda item: item[2], reverse=True)
    scored.sort(key=lambda item: -item[1])
    return [(fact, score) for fact, score, _ in scored[:count]]
