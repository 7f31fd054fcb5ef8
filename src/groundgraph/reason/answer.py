"""Extractive answers: the sentences of the documents that best cover a question, or none.

A sentence's score is the share of the question's rare-word (idf) weight it covers,
scaled by how strongly its section was retrieved: ``cover · (1 + hit score) / 2``. The
best sentence answers if it reaches the threshold; a second one joins it when it covers
question words the first does not. Nothing is ever written, only copied and cited.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from groundgraph.model import Answer, Citation, Hit
from groundgraph.text import Analyzer, sentence_spans

ANSWERED = "answered"
INSUFFICIENT = "insufficient_evidence"
DEFAULT_THRESHOLD = 0.5
MAX_HITS_READ = 5


def extractive_answer(
    question: str,
    hits: Sequence[Hit],
    analyzer: Analyzer,
    idf: Callable[[str], float],
    spans: Mapping[str, tuple[int, int]] | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    max_sentences: int = 2,
) -> Answer:
    """The best supporting sentences among ``hits``, cited, or an abstention."""
    terms = list(dict.fromkeys(analyzer.terms(question)))
    weights = {t: idf(t) for t in terms}
    mass = sum(weights.values())
    if not hits or mass <= 0:
        return Answer(question, INSUFFICIENT, (), 0.0, threshold, tuple(hits))
    scored: list[tuple[float, int, Citation, frozenset[str]]] = []
    for rank, hit in enumerate(hits[:MAX_HITS_READ]):
        for start, end in sentence_spans(hit.content):
            words = set(analyzer.terms(hit.content[start:end])) & weights.keys()
            if not words:
                continue
            cover = sum(weights[t] for t in words) / mass
            score = cover * (1.0 + hit.score) / 2.0
            citation = _cite(hit, start, end, (spans or {}).get(hit.node_id))
            scored.append((score, rank, citation, frozenset(words)))
    if not scored:
        return Answer(question, INSUFFICIENT, (), 0.0, threshold, tuple(hits))
    scored.sort(key=lambda item: (-item[0], item[1], item[2].node_id, item[2].start))
    best_score, _, best, first_words = scored[0]
    covered = set(first_words)
    if best_score < threshold:
        return Answer(question, INSUFFICIENT, (), best_score, threshold, tuple(hits))
    chosen = [best]
    for score, _, citation, more in scored[1:]:
        if len(chosen) >= max_sentences:
            break
        if score >= threshold / 2 and more - covered:
            chosen.append(citation)
            covered |= more
    return Answer(question, ANSWERED, tuple(chosen), best_score, threshold, tuple(hits))


def _cite(hit: Hit, start: int, end: int, span: tuple[int, int] | None) -> Citation:
    exact = span is not None and span[1] - span[0] == len(hit.content)
    return Citation(
        hit.node_id,
        start,
        end,
        hit.content[start:end],
        span[0] + start if exact and span else None,
        span[0] + end if exact and span else None,
        doc_id=hit.doc_id,
        title=hit.title,
    )
