"""A deterministic synthetic markdown corpus for the speed benchmark.

Words are pseudo-words built from consonant-vowel syllables (``bepe``, ``kodamu``), drawn
Zipf-like (p ∝ rank^-1.1 over 50,000 words), as in the project's performance reference.
Each document has a title (``# title``), a preamble and 10-40 sections under ``##`` and
``###`` headings; bodies hold 20-80 words. One section in five names another section's
heading of its document and one in thirty names an earlier document's title, so that the
graph gets reference edges. Same ``seed``, same corpus, on every machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from groundgraph.text import ENGLISH_STOPWORDS

VOCABULARY = 50_000
ZIPF_EXPONENT = 1.1
SECTIONS_PER_DOCUMENT = (10, 40)
WORDS_PER_BODY = (20, 80)
HEADING_WORDS = (2, 3)
# Headings and titles draw uniformly from these ranks: distinctive, but not unique words.
HEADING_RANKS = (200, 20_000)
NAMES_SECTION = 0.2
NAMES_DOCUMENT = 1 / 30
QUERY_SKIP_RANKS = 50
QUERY_TERMS = (2, 4)
_CONSONANTS = "bdfgklmnprstvz"
_VOWELS = "aeiou"


@dataclass(frozen=True)
class SyntheticDocument:
    doc_id: str
    title: str
    filename: str


@dataclass(frozen=True)
class Corpus:
    """Documents written to ``folder``, and the words common enough to leave out of queries."""

    folder: Path
    documents: list[SyntheticDocument]
    common: frozenset[str]


def pseudo_words(count: int, rng: np.random.Generator) -> list[str]:
    """``count`` distinct pseudo-words of 2-4 syllables, none of them an English stopword."""
    syllables = [c + v for c in _CONSONANTS for v in _VOWELS]
    seen: dict[str, None] = {}
    while len(seen) < count:
        lengths = rng.integers(2, 5, size=count)
        picks = rng.integers(0, len(syllables), size=(count, 4))
        for n, row in zip(lengths.tolist(), picks.tolist(), strict=True):
            word = "".join(syllables[s] for s in row[:n])
            if word not in ENGLISH_STOPWORDS:
                seen[word] = None
    return list(seen)[:count]


class CorpusWriter:
    """Draws documents from one seeded generator and writes them as markdown files."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.words = pseudo_words(VOCABULARY, self.rng)
        weights = np.arange(1, VOCABULARY + 1, dtype=np.float64) ** -ZIPF_EXPONENT
        self._cdf = np.cumsum(weights / weights.sum())
        self.titles: list[str] = []

    def _draw(self, count: int) -> list[str]:
        ranks = np.searchsorted(self._cdf, self.rng.random(count), side="right")
        words = self.words
        return [words[min(r, VOCABULARY - 1)] for r in ranks.tolist()]

    def _heading(self) -> str:
        n = int(self.rng.integers(HEADING_WORDS[0], HEADING_WORDS[1] + 1))
        ranks = self.rng.integers(HEADING_RANKS[0], HEADING_RANKS[1], size=n)
        return " ".join(self.words[r] for r in ranks.tolist()).capitalize()

    def _body(self, named: list[str]) -> str:
        words = self._draw(int(self.rng.integers(WORDS_PER_BODY[0], WORDS_PER_BODY[1] + 1)))
        for name in named:
            words.insert(int(self.rng.integers(0, len(words) + 1)), name.lower())
        stops = self.rng.integers(8, 16, size=len(words))
        out, since = [], 0
        for word, stop in zip(words, stops.tolist(), strict=True):
            out.append(word.capitalize() if since == 0 else word)
            since += 1
            if since >= stop:
                out[-1] += "."
                since = 0
        return " ".join(out).rstrip(".") + "."

    def document(self, sections: int) -> tuple[str, str]:
        """The title and markdown of a new document with ``sections`` sections."""
        rng = self.rng
        title = self._heading()
        headings = [self._heading() for _ in range(sections)]
        lines = [f"# {title}", "", self._body([]), ""]
        for i, heading in enumerate(headings):
            level = 2 if i == 0 or rng.random() < 0.5 else 3
            named = []
            if rng.random() < NAMES_SECTION and sections > 1:
                other = int(rng.integers(0, sections - 1))
                named.append(headings[other + (other >= i)])
            if self.titles and rng.random() < NAMES_DOCUMENT:
                named.append(self.titles[int(rng.integers(0, len(self.titles)))])
            lines += [f"{'#' * level} {heading}", "", self._body(named), ""]
        self.titles.append(title)
        return title, "\n".join(lines)


def write_corpus(folder: Path, sections: int, seed: int = 7) -> Corpus:
    """Write documents holding ``sections`` sections in all to ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    writer = CorpusWriter(seed)
    documents = []
    left = sections
    low, high = SECTIONS_PER_DOCUMENT
    while left > 0:
        n = min(left, int(writer.rng.integers(low, high + 1)))
        title, markdown = writer.document(n)
        doc_id = f"doc-{len(documents):06d}"
        filename = f"{doc_id}.md"
        (folder / filename).write_text(markdown, encoding="utf-8")
        documents.append(SyntheticDocument(doc_id, title, filename))
        left -= n
    return Corpus(folder, documents, frozenset(writer.words[:QUERY_SKIP_RANKS]))


def sample_queries(corpus: Corpus, count: int, seed: int = 11) -> list[str]:
    """``count`` queries of 2-4 distinct words from random section bodies.

    The 50 most frequent words of the Zipf draw are left out, as a stopword list would.
    """
    rng = np.random.default_rng(seed)
    documents = corpus.documents
    queries: list[str] = []
    while len(queries) < count:
        document = documents[int(rng.integers(0, len(documents)))]
        text = (corpus.folder / document.filename).read_text(encoding="utf-8")
        bodies = [p for p in text.split("\n\n") if p and not p.startswith("#")]
        body = bodies[int(rng.integers(0, len(bodies)))]
        words = dict.fromkeys(w.strip(".").lower() for w in body.split())
        candidates = [w for w in words if w not in corpus.common]
        n = int(rng.integers(QUERY_TERMS[0], QUERY_TERMS[1] + 1))
        if len(candidates) < n:
            continue
        picks = rng.choice(len(candidates), size=n, replace=False)
        queries.append(" ".join(candidates[i] for i in picks.tolist()))
    return queries
