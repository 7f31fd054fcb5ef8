"""Language rules in one place: words, stopwords, stems and sentences.

Words are Unicode ``\\w`` runs split at underscores, lower-cased; markdown link targets
and bare URLs are dropped first so that addresses do not count as words. Stems come from
the Snowball stemmers of PyStemmer, for any language it knows.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import Stemmer

from groundgraph.errors import InputError

_WORD = re.compile(r"[^\W_]+")
_STEM_CACHE = 200_000  # spellings whose stems each thread remembers
# One level of parentheses inside a target, e.g. a Wikipedia URL; possessive, so that text
# full of "](" without a ")" is scanned once, not once per "](" (that was quadratic).
_LINK_TARGET = re.compile(r"\]\((?:[^()]++|\([^()]*+\))*+\)")
_URL = re.compile(r"\b(?:https?|ftp)://\S+|\bwww\.\S+", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)])\s)")

# Common English function words; written for this project. Checked on the unstemmed word.
ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
    ]
)

STOPWORDS: dict[str, frozenset[str]] = {"english": ENGLISH_STOPWORDS}


def words(text: str) -> list[str]:
    """Lower-cased words of ``text``, link targets and URLs left out."""
    text = _LINK_TARGET.sub("]", text)
    text = _URL.sub(" ", text)
    return _WORD.findall(text.lower())


def available_languages() -> list[str]:
    """Languages the stemmer knows."""
    return sorted(Stemmer.algorithms())


@dataclass(frozen=True)
class Analyzer:
    """Turns text into index terms: words, minus stopwords and one-letter words, stemmed.

    ``language`` picks the Snowball stemmer; ``stopwords`` defaults to the built-in list
    of that language (English only for now; other languages get none unless given).
    """

    language: str = "english"
    stopwords: frozenset[str] | None = None
    _local: threading.local = field(default_factory=threading.local, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.language not in Stemmer.algorithms():
            known = ", ".join(available_languages())
            raise InputError(f"unknown language {self.language!r}; choose one of: {known}")

    @property
    def stop(self) -> frozenset[str]:
        if self.stopwords is not None:
            return self.stopwords
        return STOPWORDS.get(self.language, frozenset())

    def _stemmer(self) -> Stemmer.Stemmer:
        # PyStemmer objects keep a cache and are not safe to share between threads.
        stemmer = getattr(self._local, "stemmer", None)
        if stemmer is None:
            stemmer = Stemmer.Stemmer(self.language)
            self._local.stemmer = stemmer
        return stemmer

    def terms(self, text: str) -> list[str]:
        """Index terms of ``text`` in order, repeats kept."""
        return self.terms_of(words(text))

    def terms_of(self, text_words: Sequence[str]) -> list[str]:
        """Index terms of a text given as its ``words``: stopwords and one-letter words
        dropped, the rest stemmed (each spelling stemmed once, then remembered)."""
        cache = getattr(self._local, "stems", None)
        if cache is None or len(cache) > _STEM_CACHE:
            cache = self._local.stems = {}
        stemmed = list(map(cache.get, text_words))
        if None in stemmed:
            missing = list(
                dict.fromkeys(w for w, t in zip(text_words, stemmed, strict=True) if t is None)
            )
            stop = self.stop
            keep = [w for w in missing if len(w) > 1 and w not in stop]
            stems = self._stemmer().stemWords(keep) if keep else []
            cache.update(dict.fromkeys(missing, ""))
            cache.update(zip(keep, stems, strict=True))
            stemmed = list(map(cache.__getitem__, text_words))
        return [t for t in stemmed if t]

    def stem(self, word: str) -> str:
        return str(self._stemmer().stemWord(word.lower()))

    def many(self, texts: Iterable[str]) -> list[list[str]]:
        return [self.terms(t) for t in texts]


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence in ``text``, whitespace trimmed, empty ones left out."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    out = []
    for s, e in spans:
        piece = text[s:e]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece.rstrip())
        if trail > lead:
            out.append((s + lead, s + trail))
    return out


def sentences(text: str) -> list[str]:
    """The sentences of ``text``."""
    return [text[s:e] for s, e in sentence_spans(text)]


def slugify(title: str, limit: int = 40) -> str:
    """A document id from a title: its words joined by '-', at most ``limit`` characters."""
    slug = "-".join(words(title))[:limit].strip("-")
    return slug or "doc"
