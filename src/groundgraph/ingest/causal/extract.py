"""Model-free causal extraction: cue markers give the direction, clauses bound the spans.

``extract_causal`` reads a text sentence by sentence with the cue tables of its language
(``causal.language``): ``markers`` finds the cues of a sentence, ``clauses`` the
boundaries that bound their spans, and ``reading`` turns each marker into a pair by its
kind of cue. A connective that opens a sentence (``Consequently, …``) points back to the
previous sentence: its last effect if it had one, else its last clause. A question gives
no pair, and sentences longer than ``MAX_SENTENCE_CHARS`` are not read.
"""

from __future__ import annotations

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.ingest.causal.language import TABLES, guess_language, tables_for
from groundgraph.ingest.causal.pair import CausalPair
from groundgraph.ingest.causal.reading import SentenceReader
from groundgraph.ingest.causal.spans import Span
from groundgraph.text import sentence_spans

#: Longest text extract_causal reads, in characters.
MAX_TEXT_CHARS = 200_000
#: Longer "sentences" (tables, logs, text without punctuation) are skipped.
MAX_SENTENCE_CHARS = 3_000


def extract_causal(text: str, language: str | None = None) -> list[CausalPair]:
    """The cause → effect pairs that cue words in ``text`` state (module docstring).

    ``language``: an ISO 639-1 code from ``language_codes()``; None guesses it per
    sentence from function words, falling back on the whole text's guess, else all tables.
    """
    if not isinstance(text, str):
        raise InputError(f"text must be a string, not {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise InputTooLargeError(
            "the text", len(text), MAX_TEXT_CHARS, "extract from each section or paragraph"
        )
    if language is not None and language not in TABLES:
        known = ", ".join(TABLES)
        raise InputError(f"unknown language {language!r}; choose one of: {known}, or None")
    fallback = None if language else guess_language(text)
    pairs: dict[tuple[Span, Span], CausalPair] = {}
    previous: Span | None = None
    for start, end in sentence_spans(text):
        if end - start > MAX_SENTENCE_CHARS:
            previous = None
            continue
        sentence = text[start:end]
        tables = [TABLES[language]] if language else tables_for(sentence, fallback)
        reader = SentenceReader(text, start, end, tables, previous)
        found = reader.pairs()
        for pair in found:
            pairs.setdefault((pair.cause_span, pair.effect_span), pair)
        previous = found[-1].effect_span if found else reader.last_clause()
        if reader.question:
            previous = None  # "Why? Because …" has no effect span to point back to
    return list(pairs.values())
