"""Explicit negation: "X is not Y", "X no longer …", "X never …" against "X is Y".

A sentence becomes a ``Proposition``: its content words in order (stemmed, function
words and negation markers dropped, every form of "to be" kept as ``be`` and "have" kept
unless it is an auxiliary) and whether it is negated. A negated proposition contradicts a
positive one when its words, from the same first word (the subject's head), are an ordered
subsequence of the positive one's with at most ``MAX_EXTRA_WORDS`` words more: "Alice no
longer lives in Paris" against "Alice lives in Paris", "The API is not stable" against
"The API is stable now". Word order matters ("Alice does not like Bob" says nothing about
"Bob likes Alice"), and a more specific negation does not retract a general statement
("Alice does not like spicy food" leaves "Alice likes food" alone).

Markers: English not, n't, never, no, no longer, used to, formerly, previously; German
nicht, kein…, nie, nicht mehr; French ne/n' … pas/plus/jamais; Spanish no, nunca, ya no;
Dutch niet, geen, nooit, niet meer; Turkish değil, yok.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from groundgraph.text import Analyzer, words

MAX_EXTRA_WORDS = 2
MAX_SENTENCE_CHARS = 4_000


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_CONTRACTIONS = [
    (re.compile(r"\bcan['’]t\b"), "can not"),
    (re.compile(r"\bwon['’]t\b"), "will not"),
    (re.compile(r"n['’]t\b"), " not"),
    (re.compile(r"\bn['’](?=\w)"), "ne "),  # French elision: n'est
]
_NEGATION_PHRASES = re.compile(
    r"\b(?:no longer|no more|any ?more|any longer|used to|formerly|previously|nicht mehr"
    r"|ya no|niet meer|not|never|cannot|nicht|kein\w*|nie|niemals|jamais|pas|nunca|niet"
    r"|geen|nooit|değil|yok|ne|no|none|nobody|nothing|nowhere|neither|nor)\b"
)
_ADDITIVE = re.compile(
    r"\b(?:also|too|as well|in addition|additionally|another|a second|auch|aussi|également"
    r"|también|además|ook|eveneens)\b",
    re.IGNORECASE,
)
_BE = _words(
    "is are was were be been being am ist sind war waren est sont était étaient es son está"
    " están era eran zijn"
)
_HAVE = _words("has have had")
_AUX = _words("do does did will would shall should may might must")
_FUNCTION = _words(
    # English
    "the a an to of in at on for by with from as that this these those it its and or but"
    " also still now currently just already really then there here very again too"
    # German, French, Spanish, Dutch, Turkish
    " der die das den dem des ein eine einen einem einer im am an auf zu von mit und oder"
    " aber auch noch jetzt le la les un une du de d à au aux en et ou mais aussi encore"
    " maintenant el los las unos unas del al y pero también todavía ahora het een op te"
    " met ook nog nu bir ve bu da"
)
_PARTICIPLES = _words(
    "been gone seen done made taken given known run left met found got gotten become come"
    " had put set sent kept held paid built bought brought"
)
_STEMMER = Analyzer("english", stopwords=frozenset())


@dataclass(frozen=True, slots=True)
class Proposition:
    """A sentence's content words in order, and whether it is negated."""

    words: tuple[str, ...]
    negated: bool


def _prepare(text: str) -> str:
    low = text.lower()
    for pattern, replacement in _CONTRACTIONS:
        low = pattern.sub(replacement, low)
    return low


def is_negated(text: str) -> bool:
    """True when ``text`` carries a negation marker."""
    return _NEGATION_PHRASES.search(_prepare(text)) is not None


def is_additive(text: str) -> bool:
    """True when ``text`` adds to what is known ("also", "too", "as well", "another")."""
    return _ADDITIVE.search(text) is not None


def proposition(text: str) -> Proposition:
    """The proposition of one sentence (its first ``MAX_SENTENCE_CHARS`` characters)."""
    return _proposition(text[:MAX_SENTENCE_CHARS])


@functools.lru_cache(maxsize=4096)
def _proposition(text: str) -> Proposition:
    low = _prepare(text)
    negated = _NEGATION_PHRASES.search(low) is not None
    tokens = words(_NEGATION_PHRASES.sub(" ", low))
    kept: list[str] = []
    for i, word in enumerate(tokens):
        if word in _FUNCTION or word in _AUX or (len(word) < 2 and not word.isdigit()):
            continue
        if word in _BE:
            kept.append("be")
        elif word in _HAVE:
            after = tokens[i + 1] if i + 1 < len(tokens) else ""
            if not (after.endswith(("ed", "en")) or after in _PARTICIPLES or after in _BE):
                kept.append("have")
        else:
            kept.append(_STEMMER.stem(word))
    return Proposition(tuple(kept), negated)


def _subsequence(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    rest = iter(long)
    return all(word in rest for word in short)


def negates(a: Proposition, b: Proposition) -> bool:
    """True when one of ``a`` and ``b`` is the explicit negation of the other."""
    if a.negated == b.negated:
        return False
    neg, pos = (a, b) if a.negated else (b, a)
    return (
        len(neg.words) >= 2
        and len(pos.words) >= 1
        and neg.words[0] == pos.words[0]
        and len(pos.words) - len(neg.words) <= MAX_EXTRA_WORDS
        and _subsequence(neg.words, pos.words)
    )
