"""Support: how much of a claim's rare-word weight a few sections cover. No model involved.

    need(t)  = idf(t) for each distinct analysed term t of the claim
    mass     = Σ need(t)
    pick up to ``max_nodes`` sections greedily, each time the one whose terms cover the most
    weight not yet covered (ties: the earlier one in the given order); stop when none adds any
    share    = 1 − uncovered / mass              (1.0 when mass is 0: nothing to support)

The idf is the graph's own BM25 idf, so a word that is rare in the documents weighs a lot and
one the documents lack weighs most. Lexical only: a paraphrase undercounts, and a negation or
a changed number can pass; :mod:`groundgraph.reason.ground` adds the number rule and the
``verify`` hook on top.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, KeysView, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.model.record import Record
from groundgraph.model.valid_text import valid_text

MAX_NODE_IDS = 1_000
MAX_CLAIM_CHARS = 100_000
MAX_NODES = 50

# A number as written: "1,250,000", "3.5", "1990" (commas only between groups of three).
_NUMBER = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")


class GroundingCorpus(Protocol):
    """What support and grounding need from a graph; DocumentGraph has all four."""

    def node_texts(self, node_ids: Sequence[str]) -> dict[str, str]:
        """Title and content of each known node (unknown ids left out)."""
        ...

    def idf(self, term: str) -> float:
        """The idf of an analysed term."""
        ...

    def terms(self, text: str) -> list[str]:
        """Analysed terms of a text (stemmed, stopwords out), repeats kept."""
        ...

    def candidate_nodes(self, text: str, limit: int) -> list[str]:
        """Up to ``limit`` node ids that a search for ``text`` finds, best first."""
        ...


@dataclass(frozen=True, slots=True)
class SectionText:
    """A node's title and content, and where the content starts in its document's source."""

    title: str
    content: str
    source_start: int | None = None


@runtime_checkable
class SectionCorpus(GroundingCorpus, Protocol):
    """A corpus that also knows each node's content apart from its title, and its source span."""

    def sections(self, node_ids: Sequence[str]) -> dict[str, SectionText]:
        """Each known node's title, content and content start in the source."""
        ...


@dataclass(frozen=True)
class Support(Record):
    """A claim's support: the covered share of its weight, the sections chosen, its mass.

    Unpacks like the seed's tuple: ``share, node_ids, mass = graph.support(...)``, and
    reads as a Mapping of its JSON form like every result (``support["share"]``,
    ``dict(support)``). ``uncovered`` are the analysed terms no chosen section holds, in
    claim order.
    """

    share: float
    node_ids: tuple[str, ...]
    mass: float
    uncovered: tuple[str, ...] = ()

    def __iter__(self) -> Iterator[Any]:
        # The seed's tuple: iterating gives the values, so unpacking works as it did.
        return iter((self.share, list(self.node_ids), self.mass))

    def keys(self) -> KeysView[str]:
        return self.to_dict().keys()


def claim_weights(corpus: GroundingCorpus, claim: str) -> dict[str, float]:
    """``{term: idf}`` over the claim's distinct analysed terms, in order of first use."""
    return {t: corpus.idf(t) for t in dict.fromkeys(corpus.terms(claim))}


def greedy_cover(
    need: Mapping[str, float],
    candidates: Sequence[tuple[str, frozenset[str]]],
    max_nodes: int,
) -> tuple[list[tuple[str, tuple[str, ...]]], dict[str, float]]:
    """Sections chosen greedily, each with the terms it newly covered, and what stays uncovered.

    ``candidates`` are (node id, its term set) in order of preference for ties.
    """
    remaining = dict(need)
    chosen: list[tuple[str, tuple[str, ...]]] = []
    taken: set[str] = set()
    while len(chosen) < max_nodes and remaining:
        best: tuple[str, tuple[str, ...]] | None = None
        best_gain = 0.0
        for node_id, terms in candidates:
            if node_id in taken:
                continue
            hit = tuple(t for t in remaining if t in terms)
            gain = sum(remaining[t] for t in hit)
            if gain > best_gain:
                best, best_gain = (node_id, hit), gain
        if best is None:
            break
        chosen.append(best)
        taken.add(best[0])
        for term in best[1]:
            del remaining[term]
    return chosen, remaining


def share_of(mass: float, uncovered: Mapping[str, float]) -> float:
    """1 − uncovered/mass, kept in [0, 1]; 1.0 when there is no mass."""
    if mass <= 0:
        return 1.0
    return min(1.0, max(0.0, 1.0 - sum(uncovered.values()) / mass))


def check_node_ids(node_ids: object) -> list[str]:
    """Node ids as a de-duplicated list, or an InputError that says what is wrong."""
    if isinstance(node_ids, str | bytes) or not isinstance(node_ids, Sequence | set | frozenset):
        raise InputError(
            f"node_ids must be a list of node id strings, not {type(node_ids).__name__}"
        )
    if len(node_ids) > MAX_NODE_IDS:
        raise InputError(f"pass at most {MAX_NODE_IDS:,} node ids, not {len(node_ids):,}")
    for node_id in node_ids:
        if not isinstance(node_id, str):
            raise InputError(f"node ids must be strings, not {type(node_id).__name__}")
    # A set has no order; sorted, ties between sections go the same way every run.
    ids = sorted(node_ids) if isinstance(node_ids, set | frozenset) else list(node_ids)
    return list(dict.fromkeys(ids))


def check_max_nodes(max_nodes: object) -> int:
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int):
        raise InputError(f"max_nodes must be an integer, not {type(max_nodes).__name__}")
    if not 1 <= max_nodes <= MAX_NODES:
        raise InputError(f"max_nodes must be between 1 and {MAX_NODES}, not {max_nodes}")
    return max_nodes


def check_text(text: object, what: str, limit: int) -> str:
    if not isinstance(text, str):
        raise InputError(f"{what} must be text, not {type(text).__name__}")
    if len(text) > limit:
        raise InputTooLargeError(what, len(text), limit, f"check at most {limit:,} characters")
    return valid_text(text).text


def check_fraction(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise InputError(f"{what} must be a number between 0 and 1, not {value!r}")
    if not 0.0 <= value <= 1.0:
        raise InputError(f"{what} must be between 0 and 1, not {value}")
    return float(value)


def numbers_in(text: str) -> set[str]:
    """The numbers written in ``text``, thousands separators dropped ("1,250" -> "1250")."""
    return {m.group().replace(",", "") for m in _NUMBER.finditer(text)}


def support(
    corpus: GroundingCorpus, claim: str, node_ids: Sequence[str], max_nodes: int = 2
) -> Support:
    """The share of ``claim``'s idf mass that up to ``max_nodes`` of ``node_ids`` cover.

    Ids the corpus does not know are left out. Greedy, so with ``max_nodes`` smaller than
    the number of useful sections, adding a section can change the first pick and lower
    the share; with room for every section it cannot.
    """
    check_text(claim, "the claim", MAX_CLAIM_CHARS)
    ids = check_node_ids(node_ids)
    max_nodes = check_max_nodes(max_nodes)
    need = claim_weights(corpus, claim)
    mass = sum(need.values())
    if mass <= 0:
        return Support(1.0, (), 0.0)
    texts = corpus.node_texts(ids)
    candidates = [(i, frozenset(corpus.terms(texts[i]))) for i in ids if i in texts]
    chosen, uncovered = greedy_cover(need, candidates, max_nodes)
    return Support(share_of(mass, uncovered), tuple(i for i, _ in chosen), mass, tuple(uncovered))
