"""Grounding an answer: each sentence checked against the documents, cited by exact spans.

``ground(corpus, answer)`` splits the answer into sentences (:mod:`.sentences`); a sentence
with idf mass > 0 is a claim. Each claim is measured by :func:`.support.support` against
candidate sections: the ``node_ids`` given, else the hits of one search for ``query``, else
of a search for the claim itself. A claim is supported when

1. its share is at least ``min_support`` (0.5), and
2. it passes the rules of :mod:`.claims` that are switched on (all by default): its
   numbers are in its sections (``check_numbers``), so are its names (``check_names``),
   and a section that adds only names is linked to the others (``check_links``), and
3. ``verify(claim, evidence) -> p``, if given (an NLI model, or
   :func:`~groundgraph.reason.verifiers.negation_mismatch_verifier`), returns at least
   0.5; below that the claim is *vetoed*: its words are there, its meaning is not.
   ``verify`` is asked only about claims that pass 1 and 2.

For every supporting section the one or two sentences holding most of the weight it was
credited with are cited (:mod:`.evidence`). "Not supported" is a result, not an exception.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.model import EvidenceSpan
from groundgraph.model.record import Record
from groundgraph.reason.anchors import misplaced_anchors, tokenize
from groundgraph.reason.claims import (
    claim_names,
    missing_code,
    missing_names,
    missing_numbers,
    unlinked_sections,
)
from groundgraph.reason.evidence import SectionCache
from groundgraph.reason.limits import MAX_CANDIDATES as MAX_CANDIDATES
from groundgraph.reason.negated import negation_mismatches
from groundgraph.reason.slots import evidence_tokens, statements, substituted_values
from groundgraph.reason.support import (
    GroundingCorpus,
    SectionCorpus,
    SectionText,
    Support,
    check_fraction,
    check_max_nodes,
    check_node_ids,
    check_text,
    claim_weights,
    greedy_cover,
    share_of,
    support,
)
from groundgraph.text import sentence_spans, words

__all__ = [
    "ClaimCheck",
    "EvidenceSpan",
    "Grounding",
    "GroundingCorpus",
    "SectionCorpus",
    "SectionText",
    "Support",
    "Verifier",
    "ground",
    "support",
]

#: ``verify(claim, evidence) -> p``: the probability that the evidence entails the claim.
Verifier = Callable[[str, str], float]

DEFAULT_MIN_SUPPORT = 0.5
VETO_BELOW = 0.5
MAX_ANSWER_CHARS = 100_000
MAX_QUERY_CHARS = 10_000
MAX_CLAIMS = 2_000  # sentences checked per answer (each may cost a search)
SEARCH_CHARS = 2_000  # a claim searched for its own evidence is cut to this many characters
VERIFY_CHARS = 4_000  # section text handed to verify when no sentence holds a claim word
RULES = (
    "share",
    "numbers",
    "names",
    "links",
    "anchors",
    "code",
    "substitutions",
    "negation",
    "verify",
)


@dataclass(frozen=True)
class ClaimCheck(Record):
    """One sentence of an answer, ``answer[start:end]``, and how the documents back it.

    ``rejected_by`` names what made an unsupported claim fail, from :data:`RULES`.
    ``missing_numbers``, ``missing_names`` and ``unlinked`` (section ids) are reported
    whether or not their rule was switched on; ``unsupported_words`` are the claim's
    words no supporting section holds. ``nli`` is what ``verify`` returned (None when it
    was not asked), ``vetoed`` whether that overruled the words.
    """

    text: str
    start: int
    end: int
    share: float
    supported: bool
    node_ids: tuple[str, ...]
    evidence: tuple[EvidenceSpan, ...] = ()
    nli: float | None = None
    vetoed: bool = False
    mass: float = 0.0
    rejected_by: tuple[str, ...] = ()
    missing_numbers: tuple[str, ...] = ()
    missing_names: tuple[str, ...] = ()
    unlinked: tuple[str, ...] = ()
    unsupported_words: tuple[str, ...] = ()
    missing_code: tuple[str, ...] = ()
    misplaced: tuple[str, ...] = ()
    substituted: tuple[str, ...] = ()
    negated: tuple[str, ...] = ()

    @property
    def grounded(self) -> float:
        """share · mass, or 0 when a rule other than the share threshold rejected the claim."""
        return 0.0 if set(self.rejected_by) - {"share"} else self.share * self.mass

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "share": self.share,
            "supported": self.supported,
            "nodeIds": list(self.node_ids),
            "evidence": [e.to_dict() for e in self.evidence],
            "nli": self.nli,
            "vetoed": self.vetoed,
            "mass": self.mass,
            "rejectedBy": list(self.rejected_by),
            "missingNumbers": list(self.missing_numbers),
            "missingNames": list(self.missing_names),
            "unlinked": list(self.unlinked),
            "unsupportedWords": list(self.unsupported_words),
            "missingCode": list(self.missing_code),
            "misplaced": list(self.misplaced),
            "substituted": list(self.substituted),
            "negated": list(self.negated),
        }


@dataclass(frozen=True)
class Grounding(Record):
    """Every claim of an answer, checked; ``share`` is their mass-weighted support."""

    claims: tuple[ClaimCheck, ...]
    min_support: float = DEFAULT_MIN_SUPPORT

    @property
    def supported(self) -> tuple[ClaimCheck, ...]:
        return tuple(c for c in self.claims if c.supported)

    @property
    def unsupported(self) -> tuple[ClaimCheck, ...]:
        return tuple(c for c in self.claims if not c.supported)

    @property
    def mass(self) -> float:
        return sum(c.mass for c in self.claims)

    @property
    def grounded(self) -> float:
        """Σ share · mass over the claims (the seed's measure; rejected claims count 0)."""
        return sum(c.grounded for c in self.claims)

    @property
    def share(self) -> float:
        """grounded / mass: 1.0 for an answer with no claims."""
        mass = self.mass
        return 1.0 if mass <= 0 else min(1.0, self.grounded / mass)

    @property
    def citations(self) -> tuple[str, ...]:
        """The sections that back a supported claim, in order of first use."""
        return tuple(dict.fromkeys(i for c in self.supported for i in c.node_ids))

    def to_dict(self) -> dict[str, Any]:
        return {
            "share": self.share,
            "grounded": self.grounded,
            "mass": self.mass,
            "minSupport": self.min_support,
            "supported": len(self.supported),
            "unsupported": [c.text for c in self.unsupported],
            "citations": list(self.citations),
            "claims": [c.to_dict() for c in self.claims],
        }


@dataclass(frozen=True)
class _Options:
    min_support: float
    max_nodes: int
    verify: Verifier | None
    rules: frozenset[str]


def _verified(verify: Verifier, claim: str, evidence: str) -> float:
    p = verify(claim, evidence)
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0.0 <= float(p) <= 1.0:
        raise InputError(f"verify must return a probability between 0 and 1, not {p!r}")
    return float(p)


def _surface_words(corpus: GroundingCorpus, claim: str, terms: set[str]) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for word in words(claim):
        analysed = corpus.terms(word)
        if analysed and analysed[0] in terms:
            found[word] = None
    return tuple(found)


def _check_claim(
    corpus: GroundingCorpus,
    sections: SectionCache,
    text: str,
    span: tuple[int, int],
    need: dict[str, float],
    ids: Sequence[str],
    options: _Options,
) -> ClaimCheck:
    mass = sum(need.values())
    chosen, uncovered = greedy_cover(need, sections.candidates(ids), options.max_nodes)
    share = share_of(mass, uncovered)
    node_ids = tuple(i for i, _ in chosen)
    evidence = tuple(e for i, got in chosen for e in sections.best_sentences(i, got, need))
    names = claim_names(corpus, text, need)
    found = {
        "numbers": missing_numbers(text, sections, node_ids),
        "code": missing_code(text, sections, node_ids),
        "names": missing_names(names, uncovered),
        "links": unlinked_sections(sections, chosen, names, need),
    }
    name_terms = frozenset(t for run in names for t in run)
    placed_numbers, placed_names = misplaced_anchors(text, sections, node_ids, need, name_terms)
    found["anchors"] = placed_numbers + placed_names
    parts = statements(tokenize(text, corpus.terms), text)
    lines = evidence_tokens(sections, node_ids)
    found["substitutions"] = substituted_values(text, parts, lines, need)
    found["negation"] = negation_mismatches(text, parts, lines, need)
    rejected = ["share"] if share < options.min_support else []
    rejected += [rule for rule, missing in found.items() if missing and rule in options.rules]
    nli = None
    if not rejected and options.verify is not None:
        backing = " ".join(e.text for e in evidence) or " ".join(
            sections.texts[i].content[:VERIFY_CHARS] for i in node_ids
        )
        nli = _verified(options.verify, text, backing)
        if nli < VETO_BELOW:
            rejected.append("verify")
    unsupported = _surface_words(corpus, text, set(uncovered)) if uncovered else ()
    return ClaimCheck(
        text, span[0], span[1], share, not rejected, node_ids, evidence, nli,
        "verify" in rejected, mass, tuple(rejected), found["numbers"], found["names"],
        found["links"], unsupported, found["code"], found["anchors"], found["substitutions"],
        found["negation"],
    )  # fmt: skip


def ground(
    corpus: GroundingCorpus,
    answer: str,
    node_ids: Sequence[str] | None = None,
    query: str | None = None,
    min_support: float = DEFAULT_MIN_SUPPORT,
    verify: Verifier | None = None,
    max_nodes: int = 2,
    *,
    check_numbers: bool = True,
    check_names: bool = True,
    check_links: bool = True,
    check_code: bool = True,
    check_anchors: bool = True,
    check_substitutions: bool = True,
    check_negation: bool = True,
    max_candidates: int = 8,
) -> Grounding:
    """Each sentence of ``answer`` with its support, verdict and cited evidence.

    Evidence comes from ``node_ids`` if given, else from the top ``max_candidates`` hits
    of a search for ``query``, else of a search for each claim. ``check_*=False`` turns a
    rule of :mod:`groundgraph.reason.claims` off (the seed's behaviour has all four off).
    """
    check_text(answer, "the answer", MAX_ANSWER_CHARS)
    rules = {
        "numbers": check_numbers,
        "code": check_code,
        "names": check_names,
        "links": check_links,
        "anchors": check_anchors,
        "substitutions": check_substitutions,
        "negation": check_negation,
    }
    options = _Options(
        check_fraction(min_support, "min_support"),
        check_max_nodes(max_nodes),
        verify,
        frozenset(rule for rule, on in rules.items() if on),
    )
    if verify is not None and not callable(verify):
        raise InputError("verify must be a callable (claim, evidence) -> probability, or None")
    if isinstance(max_candidates, bool) or not isinstance(max_candidates, int):
        raise InputError(f"max_candidates must be an integer, not {max_candidates!r}")
    if not 1 <= max_candidates <= MAX_CANDIDATES:
        raise InputError(f"max_candidates must be between 1 and {MAX_CANDIDATES}")
    fixed: list[str] | None = None
    if node_ids is not None:
        fixed = check_node_ids(node_ids)
    elif query is not None:
        query = check_text(query, "the query", MAX_QUERY_CHARS)
        fixed = list(corpus.candidate_nodes(query, max_candidates))
    spans = sentence_spans(answer)
    if len(spans) > MAX_CLAIMS:
        raise InputTooLargeError(
            "the answer's sentence count", len(spans), MAX_CLAIMS, "check it in parts"
        )
    sections = SectionCache(corpus)
    searched: dict[str, list[str]] = {}  # the same sentence twice is searched once
    claims = []
    for start, end in spans:
        text = answer[start:end]
        need = claim_weights(corpus, text)
        if sum(need.values()) <= 0:
            continue
        ids = fixed
        if ids is None:
            key = text[:SEARCH_CHARS]
            if key not in searched:
                searched[key] = corpus.candidate_nodes(key, max_candidates)
            ids = searched[key]
        claims.append(_check_claim(corpus, sections, text, (start, end), need, ids, options))
    return Grounding(tuple(claims), options.min_support)
