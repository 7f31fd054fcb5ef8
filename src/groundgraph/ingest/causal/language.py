"""The causal cue tables by language, and a light guess of a text's language.

The guess counts function words: each stopword of a table found in the text scores
``1 / k``, where ``k`` is the number of tables that list the word (``de`` is French,
Spanish, Dutch, Portuguese and Turkish, so it says little; ``the`` says English), plus
one point for each letter that marks a language (``ı``, ``ß``, ``ñ``, ``ã``), up to
three. It picks which cue tables to read a sentence with, so that a German ``die`` or a
Dutch ``want`` is not read as English.
"""

from __future__ import annotations

import re
from collections import Counter

from groundgraph.ingest.causal.cues.dutch import DUTCH
from groundgraph.ingest.causal.cues.english import ENGLISH
from groundgraph.ingest.causal.cues.french import FRENCH
from groundgraph.ingest.causal.cues.german import GERMAN
from groundgraph.ingest.causal.cues.italian import ITALIAN
from groundgraph.ingest.causal.cues.portuguese import PORTUGUESE
from groundgraph.ingest.causal.cues.spanish import SPANISH
from groundgraph.ingest.causal.cues.table import CueTable
from groundgraph.ingest.causal.cues.turkish import TURKISH

#: Every cue table, by ISO 639-1 code, in the order they are tried.
TABLES: dict[str, CueTable] = {
    table.language: table
    for table in (ENGLISH, GERMAN, FRENCH, SPANISH, DUTCH, TURKISH, ITALIAN, PORTUGUESE)
}

#: Below this score a sentence says too little about its language to pick one table.
MIN_EVIDENCE = 0.75
#: A language scoring at least this share of the best score is read with too.
NEAR_TIE = 0.7
_MAX_GUESS_CHARS = 20_000
_MAX_LETTER_POINTS = 3
_WORD = re.compile(r"[^\W\d_]{2,}")  # one-letter words (a, o, y, à) say too little

_SHARED = Counter(word for table in TABLES.values() for word in table.stopwords)


def language_codes() -> list[str]:
    """The languages extract_causal knows, as ISO 639-1 codes."""
    return list(TABLES)


def language_scores(text: str) -> dict[str, float]:
    """Evidence for each language in ``text`` (module docstring); zero scores left out."""
    sample = text[:_MAX_GUESS_CHARS]
    scores: dict[str, float] = {}
    words = Counter(_WORD.findall(sample.replace("İ", "i").lower()))
    marked = not sample.isascii()  # every marking letter is outside ASCII
    for table in TABLES.values():
        score = sum(n / _SHARED[w] for w, n in words.items() if w in table.stopwords)
        if marked:
            marks = sum(sample.count(letter) for letter in table.letters)
            score += min(marks, _MAX_LETTER_POINTS)
        if score > 0:
            scores[table.language] = score
    return scores


def guess_language(text: str) -> str | None:
    """The ISO 639-1 code of the language ``text`` is most likely in, or None if unsure.

    None when no table's function words or letters show up (``MIN_EVIDENCE``), or when two
    languages score the same.
    """
    ranked = sorted(language_scores(text).items(), key=lambda item: -item[1])
    if not ranked or ranked[0][1] < MIN_EVIDENCE:
        return None
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


def tables_for(sentence: str, fallback: str | None) -> list[CueTable]:
    """The cue tables to read ``sentence`` with when the caller named no language.

    The sentence's own best languages (near ties kept) if its evidence is strong; else
    ``fallback``, the guess for the whole text; else the sentence's best languages on weak
    evidence; else (no evidence at all) every table.
    """
    scores = language_scores(sentence)
    best = max(scores.values(), default=0.0)
    if best >= MIN_EVIDENCE or (best > 0 and fallback is None):
        # Near ties ("la … de … está": Spanish or Portuguese?) are read with both tables;
        # the earliest marker wins between them.
        return [TABLES[code] for code, score in scores.items() if score >= NEAR_TIE * best]
    if fallback is not None:
        return [TABLES[fallback]]
    return list(TABLES.values())
