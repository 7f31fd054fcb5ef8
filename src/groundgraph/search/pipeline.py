"""Seed, walk, fuse: the one retrieval pipeline, for document search and memory recall.

1. **Seed**: the lexical stage's best matches, their BM25 scores divided by the best
   one, start the walk (``max_seeds`` of them, ties broken by id).
2. **Walk**: a caller's walker (the bounded best-first walk over the graph's edges, or
   PageRank; memory walks the edges its visible facts assert) reaches nodes from them.
3. **Fuse**: a node reached through another node and matched lexically scores
   ``1 − (1 − graph)(1 − lexical)`` (noisy-OR), otherwise the larger of the two;
   document search may fuse linearly instead. Nodes matched but not reached join the
   candidates: the best ``limit + reached`` of them can still make the list.
4. **Explain** is the caller's: each candidate keeps how it was reached (``Reached``:
   path, edge types, hops) and its BM25 parts, recorded while scoring, so a document hit
   (``Hit``) and a recalled fact (``MemoryHit``) carry the same explanation.

What differs between callers is data, not code: which lexical scores (the whole index, or
a subset scored with its own statistics), which edges the walk may take, which nodes may
be returned.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.model import TermScore
from groundgraph.walk.dijkstra import Reached

MAX_QUERY_CHARS = 10_000

#: A walker: the nodes it reached from these seeds (seed id → normalised score).
Walker = Callable[[dict[str, float]], Mapping[str, Reached]]
#: A fusion rule: the score of a candidate from how it was reached and its lexical score.
Fusion = Callable[[Reached | None, float | None], float]


class LexicalStage(Protocol):
    """A query's lexical matches as the pipeline reads them, scores normalised by the best
    seedable match (so a seed scores at most 1)."""

    def top(self, k: int) -> list[tuple[str, float]]:
        """The ``k`` best seedable matches, best first, ties broken by id."""
        ...

    def scores_of(self, node_ids: Sequence[str]) -> dict[str, float]:
        """The normalised scores of those of ``node_ids`` that match (capped at 1)."""
        ...

    def terms(self, node_id: str) -> tuple[TermScore, ...]:
        """The per-term BM25 parts of a matching node's score."""
        ...


class Candidate(NamedTuple):
    """A node the pipeline scored: its fused score, lexical score and how it was reached
    (a tuple: a search scores a few hundred of them)."""

    node_id: str
    score: float
    lexical: float | None
    reached: Reached | None


@dataclass(frozen=True)
class Ranked:
    """What the pipeline found: the seeds, every node reached, and the candidates best first."""

    seeds: dict[str, float]
    reached: Mapping[str, Reached]
    candidates: list[Candidate]


def check_query(query: str) -> str:
    """The query, or an error saying what is wrong with it."""
    if not isinstance(query, str):
        raise InputError(f"a query must be text, not {type(query).__name__}")
    if len(query) > MAX_QUERY_CHARS:
        raise InputTooLargeError("the query", len(query), MAX_QUERY_CHARS, "shorten the query")
    return query


def noisy_or(graph: float, hops: int, lexical: float) -> float:
    """The fused score of a node the walk reached with ``graph`` after ``hops`` steps and
    BM25 matched with ``lexical`` (both in [0, 1]): ``1 − (1 − graph)(1 − lexical)`` when
    it was reached through another node, else the larger (a seed is not counted twice)."""
    if hops > 0:
        return 1.0 - (1.0 - graph) * (1.0 - lexical)
    return max(graph, lexical)


def fuse_noisy_or(reached: Reached | None, lexical: float | None) -> float:
    """:func:`noisy_or` as a pipeline fusion rule."""
    graph = reached.score if reached is not None else 0.0
    return noisy_or(graph, reached.hops if reached is not None else 0, lexical or 0.0)


def rank(
    lexical: LexicalStage,
    max_seeds: int,
    limit: int,
    walker: Walker,
    fusion: Fusion = fuse_noisy_or,
    keep: Callable[[str], bool] | None = None,
) -> Ranked:
    """Seed, walk and fuse: every candidate ``keep`` allows, best first (ties by id).

    The caller cuts the list (after any re-ranking of its own, such as recency) and
    explains what it keeps.
    """
    seeds = dict(lexical.top(max_seeds))
    reached = walker(seeds) if seeds else {}
    matched = lexical.scores_of(list(reached))
    for node_id, score in lexical.top(limit + len(reached)):
        matched.setdefault(node_id, score)
    candidates = [
        Candidate(node_id, fusion(reached.get(node_id), score), score, reached.get(node_id))
        for node_id, score in _union(reached, matched)
        if keep is None or keep(node_id)
    ]
    candidates.sort(key=lambda c: (-c.score, c.node_id))
    return Ranked(seeds, reached, candidates)


def _union(
    reached: Mapping[str, Reached], matched: Mapping[str, float]
) -> list[tuple[str, float | None]]:
    out: list[tuple[str, float | None]] = [(n, matched.get(n)) for n in reached]
    out += [(n, s) for n, s in matched.items() if n not in reached]
    return out
