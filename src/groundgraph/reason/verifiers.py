"""Model-free ``verify`` callables for :func:`~groundgraph.reason.ground.ground`.

An NLI model plugs into the same slot: any ``verify(claim, evidence) -> p`` where ``p`` is
the probability that the evidence entails the claim; below 0.5 the claim is vetoed.

:func:`negation_mismatch_verifier` is a rule, not a model: it finds the evidence sentence
that shares the most content words with the claim and returns 0.0 when exactly one of the
two is negated ("was not born in Ulm" against "was born in Ulm", or the reverse), 1.0
otherwise. Its scope is one statement: sentences joined by ";" are aligned one by one.
English cues only; it cannot see a negation expressed another way ("failed to", "lacks"),
nor one that negates a different clause of the same sentence.
"""

from __future__ import annotations

import re

from groundgraph.text import ENGLISH_STOPWORDS, sentence_spans, words

AGREE = 1.0
DISAGREE = 0.0

#: Words (and the ``n't`` ending) that negate an English clause.
NEGATION_CUES: frozenset[str] = frozenset(
    {"not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "nowhere", "cannot"}
)
_NOT_SUFFIX = re.compile(r"[^\W\d_]n[’']t\b", re.IGNORECASE)
# "no" that is not a negation: "No. 5", "no." at the end of a list entry.
_NUMBER_ABBREVIATION = re.compile(r"\bno\.\s*\d", re.IGNORECASE)


def is_negated(sentence: str) -> bool:
    """Whether an English sentence holds a negation cue (``not``, ``never``, ``-n't``, …)."""
    cleaned = _NUMBER_ABBREVIATION.sub(" ", sentence)
    if _NOT_SUFFIX.search(cleaned):
        return True
    return any(w in NEGATION_CUES for w in words(cleaned))


def _content_words(text: str) -> set[str]:
    return {w for w in words(text) if w not in ENGLISH_STOPWORDS and w not in NEGATION_CUES}


def aligned_sentence(claim: str, evidence: str) -> str:
    """The sentence of ``evidence`` sharing the most content words with ``claim`` (ties: first)."""
    wanted = _content_words(claim)
    best, best_overlap = "", -1
    for start, end in sentence_spans(evidence):
        sentence = evidence[start:end]
        overlap = len(wanted & _content_words(sentence))
        if overlap > best_overlap:
            best, best_overlap = sentence, overlap
    return best


def statements(claim: str) -> list[str]:
    """The statements of a claim: sentences joined by ";" are checked one by one."""
    return [part for part in (p.strip() for p in claim.split(";")) if part]


def negation_mismatch_verifier(claim: str, evidence: str) -> float:
    """0.0 when a statement of the claim and its best-aligned evidence sentence differ in
    negation, else 1.0."""
    for statement in statements(claim):
        sentence = aligned_sentence(statement, evidence)
        if sentence and is_negated(statement) != is_negated(sentence):
            return DISAGREE
    return AGREE
