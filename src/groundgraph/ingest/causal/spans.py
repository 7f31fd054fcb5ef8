"""Spans of cause and effect: trimming them, cutting noun phrases, matching them across facts.

``span_key`` is how two facts agree that they name the same thing: case folded, words
only, leading articles dropped; with a language, its stopwords dropped and the rest
Snowball-stemmed (``groundgraph.text.Analyzer``); accents removed last, so ``Überschwemmung``
typed as ``Uberschwemmung`` still matches. ``same_span`` accepts equal keys, or key word
sets whose Dice coefficient ``2|A∩B| / (|A| + |B|)`` reaches ``min_overlap`` (0.6 by
default): ``heavy rain`` matches ``the heavy rain in March`` (0.8) and ``flooding`` matches
``severe flooding`` (0.67), but ``power outages`` does not match ``power prices`` (0.5).
Dice, not the overlap coefficient: with that, a one-word span would match every longer
span that contains its word.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.ingest.causal.cues.table import CueTable
from groundgraph.ingest.causal.language import TABLES, guess_language
from groundgraph.text import Analyzer, words

#: Longest span span_key and same_span accept, in characters.
MAX_SPAN_CHARS = 10_000

Span = tuple[int, int]
_TOKEN = re.compile(r"\w+")
_EDGE = " \t\r\n.,;:!?\"'“”‘’«»()[]{}…-–—¿¡*_/"
_ALL_ARTICLES = frozenset(word for table in TABLES.values() for word in table.articles)


def tokens(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The (start, end) of each word between ``start`` and ``end`` of ``text``."""
    return [(m.start(), m.end()) for m in _TOKEN.finditer(text, start, end)]


def trim(text: str, span: Span, table: CueTable, before_marker: bool = False) -> Span:
    """``span`` without edge punctuation and leading conjunctions ("and"); right before a
    marker also without trailing auxiliaries and hedges ("was" in "was caused by")."""
    start, end = span
    while True:
        while start < end and text[start] in _EDGE:
            start += 1
        while end > start and text[end - 1] in _EDGE:
            end -= 1
        words_in = tokens(text, start, end)
        if words_in and text[slice(*words_in[0])].lower() in table.leading:
            start = words_in[0][1]
            continue
        tail = frozenset() if not before_marker else table.trailing | table.leading
        if words_in and text[slice(*words_in[-1])].lower() in tail:
            end = words_in[-1][0]
            continue
        turn = table.in_turn.search(text[start:end]) if before_marker and table.in_turn else None
        if turn is not None and turn.start() < end - start:
            end = start + turn.start()
            continue
        return start, end


def is_pointer(text: str, span: Span, table: CueTable) -> bool:
    """True if ``span`` is empty or only function words that point elsewhere ("which",
    "this", "lo que", "bu da"): the span it stands for is the clause before."""
    function = table.relatives | table.demonstratives | table.articles | table.leading
    return all(text[a:b].lower() in function for a, b in tokens(text, *span))


def phrase_end(text: str, span: Span, table: CueTable) -> int | None:
    """Where the noun phrase that opens ``span`` ends and its clause's verb starts, or None.

    German: after a capitalised noun, the first lower-case word that is not a function
    word (or a known finite verb anywhere). Dutch: the first known finite verb. Others:
    the subject before the first known finite verb ("heavy rain | the match was").
    """
    words_in = tokens(text, *span)
    seen_noun = False
    for i, (a, b) in enumerate(words_in):
        word = text[a:b]
        lower = word.lower()
        if i and lower in table.finite:
            if table.verb_second:
                return a
            for j in range(i - 1, 0, -1):
                if text[slice(*words_in[j])].lower() in table.subject:
                    return words_in[j][0]
            subject = text[slice(*words_in[i - 1])].lower()
            return words_in[i - 1][0] if i > 1 and subject not in table.relatives else None
        if table.capital_nouns:
            if word[0].isupper():
                seen_noun = True
            elif seen_noun and lower not in table.stopwords and lower not in table.articles:
                return a
    if table.verb_second and not table.capital_nouns:
        # Dutch: the verb is the word the subject follows ("… windsnelheden | produceerden
        # de windparken"), not a preposition or another function word.
        for i in range(1, len(words_in) - 1):
            word = text[slice(*words_in[i])].lower()
            after = text[slice(*words_in[i + 1])].lower()
            function = table.stopwords | table.articles | table.subject
            if after in table.subject and word not in function and not word.endswith("e"):
                return words_in[i][0]
    return None


def split_object(text: str, span: Span, table: CueTable, case: re.Pattern[str]) -> Span | None:
    """The case-marked noun phrase that ends ``span`` (the object of a verb-final marker).

    Its head is the last of the final three words whose ending ``case`` matches (None when
    none does); modifiers, a genitive and the first part of a compound extend it leftwards.
    """
    words_in = tokens(text, *span)
    if not words_in:
        return None
    head = -1
    for i in range(len(words_in) - 1, max(-1, len(words_in) - 4), -1):
        if case.search(text[slice(*words_in[i])]):
            head = i
            break
    if head < 0:
        return None  # no case-marked object: "berabere sonuçlandı" is a score, not a result
    first, modified = head, False
    while first > 0:
        before = text[slice(*words_in[first - 1])]
        compound = (
            first == head
            and table.compound is not None
            and table.compound.match(text[slice(*words_in[first])]) is not None
        )
        # A genitive ("fiyatların artması") stands right before its noun; a sentence's
        # first word that looks like one ("Yangın") is more likely its subject.
        attach = (
            table.attach is not None
            and table.attach.search(before) is not None
            and not modified
            and first > 1
        )
        if before.lower() in table.modifiers:
            modified = True
        elif not (compound or attach):
            break
        first -= 1
    return words_in[first][0], words_in[head][1]


def span_key(span: str, language: str | None = None) -> str:
    """The normalised form of a cause or effect span, for matching spans across facts.

    Give the pair's ``language`` (an ISO 639-1 code) to drop its stopwords and stem;
    without it only case, punctuation, accents and leading articles are normalised.
    """
    if not isinstance(span, str):
        raise InputError(f"a span must be a string, not {type(span).__name__}")
    if len(span) > MAX_SPAN_CHARS:
        raise InputTooLargeError("the span", len(span), MAX_SPAN_CHARS, "pass a short phrase")
    folded = span.replace("İ", "i")
    if language is None:
        found = words(_plain(folded))
        while found and found[0] in _ALL_ARTICLES:
            found.pop(0)
        return " ".join(found)
    table = TABLES.get(language)
    if table is None:
        known = ", ".join(TABLES)
        raise InputError(f"unknown language {language!r} for span_key; choose one of: {known}")
    terms = _analyzer(language).terms(folded)
    if not terms:  # only stopwords ("it", "this"): keep them rather than lose the span
        terms = [_analyzer(language).stem(word) for word in words(folded)]
    return " ".join(_plain(term) for term in terms)


def same_span(a: str, b: str, min_overlap: float = 0.6, language: str | None = None) -> bool:
    """True if spans ``a`` and ``b`` name the same thing: equal keys, or key word sets
    with a Dice coefficient of at least ``min_overlap`` (module docstring).

    Without ``language`` the two spans' language is guessed from both together (so both
    keys use the same stemmer); if that guess is unsure, they are compared unstemmed.
    """
    if isinstance(min_overlap, bool) or not isinstance(min_overlap, int | float):
        raise InputError(f"min_overlap must be a number, not {type(min_overlap).__name__}")
    if not 0.0 < min_overlap <= 1.0:
        raise InputError(f"min_overlap must be in (0, 1], not {min_overlap}")
    if language is None and isinstance(a, str) and isinstance(b, str):
        language = guess_language(f"{a[:MAX_SPAN_CHARS]}\n{b[:MAX_SPAN_CHARS]}")
    if isinstance(a, str) and isinstance(b, str):  # the memory asks about many pairs
        key_a, key_b = _span_key(a, language), _span_key(b, language)
    else:
        key_a, key_b = span_key(a, language), span_key(b, language)
    if not key_a or not key_b:
        return False
    if key_a == key_b:
        return True
    set_a, set_b = set(key_a.split()), set(key_b.split())
    return 2 * len(set_a & set_b) / (len(set_a) + len(set_b)) >= min_overlap


@functools.lru_cache(maxsize=1 << 16)
def _span_key(span: str, language: str | None) -> str:
    """:func:`span_key`, kept for the spans asked about most recently (a memory compares
    each span with hundreds of others)."""
    return span_key(span, language)


@functools.cache
def _analyzer(language: str) -> Analyzer:
    table = TABLES[language]
    return Analyzer(language=table.stemmer, stopwords=table.stopwords | table.articles)


def _plain(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
