"""How a node's text becomes the term counts the lexical index stores.

A node's terms are its content's analysed words, plus its title's counted ``title_boost``
times extra (so a title word weighs as if it were written that many more times).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from groundgraph.text import Analyzer, words

__all__ = ["TermCounter"]


@dataclass(frozen=True)
class TermCounter:
    """Term frequencies of nodes, with their title words counted extra."""

    analyzer: Analyzer
    title_boost: int

    def counts(self, title: str, content: str) -> Counter[str]:
        """Term frequencies of a node: its content, plus its title words counted extra."""
        return self.counts_of(title, words(content))

    def counts_of(self, title: str, content_words: Sequence[str]) -> Counter[str]:
        """:meth:`counts` of a node whose content has these ``text.words``."""
        counts = Counter(self.analyzer.terms_of(content_words))
        if self.title_boost:
            for term in self.analyzer.terms(title):
                counts[term] += self.title_boost
        return counts
