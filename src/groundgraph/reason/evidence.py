"""Candidate sections read once per ``ground`` call, and the sentences in them to cite.

A section's terms are those of its title and content together (as the index sees them);
its numbers are read from the same text. Cited sentences come from the content only, so a
citation's span is exact text: ``content[start:end]``, and in the document's source text
``source[source_start:source_end]`` when the section knows where its content starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from groundgraph.model import EvidenceSpan
from groundgraph.reason.support import GroundingCorpus, SectionCorpus, SectionText, numbers_in
from groundgraph.text import sentence_spans

SENTENCES_PER_SECTION = 2  # cited per supporting section at most


class SectionCache:
    """Texts, term sets, numbers and sentences of the sections a ``ground`` call reads."""

    def __init__(self, corpus: GroundingCorpus) -> None:
        self.corpus = corpus
        self.texts: dict[str, SectionText] = {}
        self._unknown: set[str] = set()
        self._terms: dict[str, frozenset[str]] = {}
        self._numbers: dict[str, set[str]] = {}
        self._sentences: dict[str, list[tuple[int, int, frozenset[str]]]] = {}

    def candidates(self, ids: Sequence[str]) -> list[tuple[str, frozenset[str]]]:
        """(id, term set) of each id the corpus knows, in the order given."""
        todo = [i for i in ids if i not in self.texts and i not in self._unknown]
        if todo:
            if isinstance(self.corpus, SectionCorpus):
                found = self.corpus.sections(todo)
            else:
                found = {i: SectionText("", t) for i, t in self.corpus.node_texts(todo).items()}
            self.texts.update(found)
            self._unknown.update(i for i in todo if i not in found)
        return [(i, self.terms(i)) for i in ids if i in self.texts]

    def terms(self, node_id: str) -> frozenset[str]:
        found = self._terms.get(node_id)
        if found is None:
            section = self.texts[node_id]
            found = frozenset(self.corpus.terms(f"{section.title}\n{section.content}"))
            self._terms[node_id] = found
        return found

    def numbers(self, node_id: str) -> set[str]:
        found = self._numbers.get(node_id)
        if found is None:
            section = self.texts[node_id]
            found = self._numbers[node_id] = numbers_in(f"{section.title}\n{section.content}")
        return found

    def sentences(self, node_id: str) -> list[tuple[int, int, frozenset[str]]]:
        """(start, end, term set) of each sentence of the section's content."""
        found = self._sentences.get(node_id)
        if found is None:
            content = self.texts[node_id].content
            found = [
                (s, e, frozenset(self.corpus.terms(content[s:e])))
                for s, e in sentence_spans(content)
            ]
            self._sentences[node_id] = found
        return found

    def best_sentences(
        self, node_id: str, credited: Sequence[str], need: Mapping[str, float]
    ) -> list[EvidenceSpan]:
        """The sentences holding most of the weight this section was credited with.

        Ranked by that weight, then by the weight of all the claim's terms they hold; a
        second sentence is cited only if it adds credited weight the first lacks.
        """
        sentences = self.sentences(node_id)
        remaining = set(credited)
        picked: list[int] = []
        while len(picked) < SENTENCES_PER_SECTION:
            best, best_key = -1, (0.0, 0.0)
            for i, (_, _, terms) in enumerate(sentences):
                if i in picked:
                    continue
                key = (
                    sum(need[t] for t in remaining if t in terms),
                    sum(w for t, w in need.items() if t in terms),
                )
                if key > best_key:
                    best, best_key = i, key
            if best < 0 or (picked and best_key[0] <= 0):
                break
            picked.append(best)
            remaining -= sentences[best][2]
        return [self.span(node_id, *sentences[i][:2]) for i in picked]

    def span(self, node_id: str, start: int, end: int) -> EvidenceSpan:
        section = self.texts[node_id]
        base = section.source_start
        return EvidenceSpan(
            node_id,
            start,
            end,
            section.content[start:end],
            None if base is None else base + start,
            None if base is None else base + end,
        )
