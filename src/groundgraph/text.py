"""Language rules in one place: words, stopwords, stems and sentences.

Words are Unicode ``\\w`` runs split at underscores, lower-cased; markdown link targets
and bare URLs are dropped first so that addresses do not count as words. Stems come from
the Snowball stemmers of PyStemmer, for any language it knows.

Sentences (``sentence_spans``, the one splitter for ingest, co-occurrence, ``ask`` and
``ground``) are read line by line first. A line that is a markdown heading or a code fence
(or lies inside one) holds no sentence; bullet, numbered-list, quote and task-box markers
are left out of the span. A line that starts with a lower-case letter continues the
sentence of the line before it (hard-wrapped prose), unless that line ended a sentence or
was a list item; so does any line after a long one (60 characters or more) that did not
end a sentence. Inside a block, a sentence ends at ``.``, ``!``, ``?`` or ``…`` (closing
quotes and brackets kept with it) followed by white space and a character that is not a
lower-case letter; a period does not end a sentence after a known abbreviation (``Dr.``,
``e.g.``, ``No. 5``) or after initials (``J. R. R. Tolkien``, ``U.S. Army``). ``。！？``
end a sentence without a space. Every span is trimmed of white space and never empty, and
the work is linear in the text.
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
    return _WORD.findall(word_text(text))


def word_text(text: str) -> str:
    """The lower-cased text ``words`` reads its words from: link targets and URLs out."""
    text = _LINK_TARGET.sub("]", text)
    text = _URL.sub(" ", text)
    return text.lower()


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


_LIST_MARKER = re.compile(r"(?:>\s*)*(?:(?:[-*+•]|\d{1,3}[.)])\s+)?(?:\[[ xX]\]\s+)?")
_HEADING = re.compile(r"#{1,6}(?:\s|$)")
_FENCE = re.compile(r"(?:```|~~~)")
# Possessive, and never starting inside a run of marks: "." * 10**5 is one linear scan.
_END = re.compile(r"(?<![.!?…])[.!?…]++[\"'”’)\]]*+(?=\s)|(?<![。！？])[。！？]++")
_WORD_BEFORE = re.compile(r"([^\W\d_]+(?:\.[^\W\d_]+)*)$")
_TERMINAL = frozenset(".!?…。！？:;")
_LOOK_BACK = 24  # characters read before a period to find the word it ends
# A line this long that ends mid-sentence was wrapped at a width: the next line goes on with
# it whatever its first letter ("... build a\n`TitleMatcher` once."); a short one ("A line\n
# Another line") is a sentence of its own unless the next line starts in lower case.
_WRAP_WIDTH = 60

_ABBREVIATION_WORDS = (
    "mr mrs ms dr prof sr jr st mt ft rev hon gen col lt sgt capt cmdr gov pres sen rep vs etc "
    "e.g i.e cf al approx ca fig figs vol vols pp ed eds dept est inc ltd co corp bros "
    "jan feb apr jun jul aug sep sept oct nov dec"
)
#: Words after which a period does not end a sentence (compared lower-cased).
ABBREVIATIONS: frozenset[str] = frozenset(_ABBREVIATION_WORDS.split())
#: Abbreviations only before a number: "No. 5", "Nos. 3-4", "p. 12".
NUMBER_ABBREVIATIONS: frozenset[str] = frozenset({"no", "nos", "p", "art", "op", "ch", "sec"})


def _blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) of the runs of text that hold sentences: list markers and headings out."""
    blocks: list[tuple[int, int]] = []
    in_fence = False
    joinable = False  # the block before may go on onto the next line
    wrapped = False  # the line before was long enough to be hard-wrapped prose
    pos = 0
    for line in text.split("\n"):
        start = pos
        pos += len(line) + 1
        body = line.strip()
        if _FENCE.match(body):
            in_fence, joinable = not in_fence, False
            continue
        if in_fence or not body or _HEADING.match(body):
            joinable = False
            continue
        lead = start + len(line) - len(line.lstrip())
        end = lead + len(body)
        found = _LIST_MARKER.match(text, lead, end)
        marker = found.end() - lead if found else 0
        if joinable and not marker and (body[0].islower() or wrapped):
            blocks[-1] = (blocks[-1][0], end)
        else:
            blocks.append((lead + marker, end))
        joinable = body[-1] not in _TERMINAL
        wrapped = len(body) >= _WRAP_WIDTH
    return [(s, e) for s, e in blocks if e > s]


def _ends_sentence(text: str, start: int, end: int, match: re.Match[str]) -> bool:
    """Whether the punctuation at ``match`` ends a sentence (not an abbreviation or initial)."""
    after = match.end()
    while after < end and text[after].isspace():
        after += 1
    if after >= end:
        return True
    following = text[after]
    if following.islower():
        return False
    mark = match.group()
    if not mark.startswith(".") or mark.startswith(".."):
        return True
    word = _WORD_BEFORE.search(text, max(start, match.start() - _LOOK_BACK), match.start())
    if word is None:
        return True
    token = word.group(1).lower()
    if token in ABBREVIATIONS:
        return False
    if token in NUMBER_ABBREVIATIONS and following.isdigit():
        return False
    # Initials: "J. R. R. Tolkien", "U.S. Army".
    return not all(len(part) == 1 for part in token.split("."))


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``: ``text[start:end]`` is the sentence, trimmed."""
    spans: list[tuple[int, int]] = []
    for block_start, block_end in _blocks(text):
        start = block_start
        for match in _END.finditer(text, block_start, block_end):
            if _ends_sentence(text, start, block_end, match):
                spans.append((start, match.end()))
                start = match.end()
        spans.append((start, block_end))
    trimmed = []
    for start, end in spans:
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        tail = len(piece.rstrip())
        if tail > lead:
            trimmed.append((start + lead, start + tail))
    return trimmed


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (see :func:`sentence_spans`)."""
    return [text[s:e] for s, e in sentence_spans(text)]


def slugify(title: str, limit: int = 40) -> str:
    """A document id from a title: its words joined by '-', at most ``limit`` characters."""
    slug = "-".join(words(title))[:limit].strip("-")
    return slug or "doc"
