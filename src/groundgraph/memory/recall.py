"""Recall: the retrieval pipeline of document search (``search.pipeline``), over facts.

1. **Seed**: BM25 over the graph's one lexical index, restricted to the facts the read
   may see and scored with their own statistics (``index.subset``; retired facts the read
   asks for join by their term counts); the facts it may seed from, divided by the best,
   start the walk. With an embedder, ``search_mode="embedding"`` seeds from the facts
   nearest by cosine instead, and ``"hybrid"`` from both rankings fused by reciprocal rank
   (``search.seeds``), over the same facts.
2. **Walk**: the same best-first walk (``walk.dijkstra``) over the edges the visible facts
   assert (``fact_graph``): a fact reaches another through an entity or a causal span in
   two steps, so ``hops`` fact-to-fact hops are ``2·hops`` steps.
3. **Fuse**: the pipeline's noisy-OR; with ``recency_weight`` w the rank is
   ``(1 − w)·relevance + w·recency``, both min-max scaled over the candidates.
4. **Fill** (``fill=True``, as ``query`` and ``query_detailed`` ask): fewer facts than
   ``limit`` are topped up from the other facts the read may seed from, ranked by
   spelling shared with the query (``memory.fill``), each marked ``mode="fill"``.
5. **Explain**: each fact carries its path from a seed, the edge types along it, the BM25
   parts of its lexical score, its scopes then and whether it lies outside the read's
   scopes (``crossScope``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from groundgraph.errors import InputError
from groundgraph.index.bm25 import LexicalIndex
from groundgraph.index.subset import SubsetScores, subset_bm25
from groundgraph.memory.fact_graph import FactGraph
from groundgraph.memory.fill import fill_order
from groundgraph.memory.index import MemoryIndex
from groundgraph.memory.limits import MAX_HOPS as MAX_HOPS
from groundgraph.memory.limits import MAX_TOP_K as MAX_TOP_K
from groundgraph.memory.limits import MAX_VISITED as MAX_VISITED
from groundgraph.memory.view import MemoryView
from groundgraph.model import Seeding, TermScore
from groundgraph.search.pipeline import Ranked, check_query, fuse_noisy_or, rank
from groundgraph.search.seeds import (
    MIN_COSINE,
    DenseMatches,
    FusedMatches,
    SeedStage,
    VectorSource,
    check_mode,
)
from groundgraph.walk.dijkstra import Reached, WalkParams, walk_from_seeds

DAMPING = 0.85
MIN_SCORE = 0.005


@dataclass(frozen=True)
class RecallParams:
    """How many facts to start from and return, how far to walk, how much recency counts."""

    seeds: int = 5
    limit: int = 5
    hops: int = 4
    recency_weight: float = 0.0
    max_visited: int = 1000
    search_mode: str = "keyword"
    rrf_k: int = 60
    fill: bool = False

    def __post_init__(self) -> None:
        check_mode(self.search_mode, self.rrf_k)
        for name, value, top in (
            ("top_k", self.seeds, MAX_TOP_K),
            ("max_results", self.limit, MAX_TOP_K),
            ("hops", self.hops, MAX_HOPS),
            ("max_visited", self.max_visited, MAX_VISITED),
        ):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(f"{name} must be a whole number, not {type(value).__name__}")
            low = 0 if name == "hops" else 1
            if not low <= value <= top:
                raise InputError(f"{name} must be between {low} and {top}, not {value}")
        weight = self.recency_weight
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 <= weight <= 1:
            raise InputError(f"recency_weight must be a number in [0, 1], not {weight!r}")


@dataclass(frozen=True)
class Recalled:
    """A recalled fact and the explanation of how it was found."""

    fact_id: str
    text: str
    score: float
    lexical_score: float
    graph_score: float
    seed: bool
    path: tuple[str, ...]
    edge_types: tuple[str, ...]
    terms: tuple[TermScore, ...]
    scopes: tuple[str, ...]
    cross_scope: bool
    created_at: str
    retired: bool
    seeding: Seeding | None = None

    @property
    def hops(self) -> int:
        """Fact-to-fact hops from the seed it was reached from."""
        return sum(1 for n in self.path if n.startswith("fact:")) - 1 if self.path else 0


class FactMatches:
    """The lexical stage over the facts one read may see: scores normalised by the best
    fact the read may seed from (a fact it may only reach scores at most 1)."""

    def __init__(self, scores: SubsetScores, seedable: set[str]) -> None:
        self.scores = scores
        found = {f: s for f, s in scores.scores.items() if f in seedable and s > 0}
        self.best = max(found.values()) if found else 0.0
        self._ranked = sorted(found, key=lambda f: (-found[f], f))
        self._rank = {f: i + 1 for i, f in enumerate(self._ranked)}

    def top(self, k: int) -> list[tuple[str, float]]:
        raw = self.scores.scores
        return [(f, raw[f] / self.best) for f in self._ranked[:k]]

    def scores_of(self, node_ids: Sequence[str]) -> dict[str, float]:
        raw = self.scores.scores
        return {f: min(1.0, raw[f] / self.best) for f in node_ids if f in raw}

    def terms(self, node_id: str) -> tuple[TermScore, ...]:
        return self.scores.parts(node_id)

    def seeding(self, node_id: str) -> Seeding:
        rank = self._rank.get(node_id)
        return Seeding(node_id, "keyword", lexical_rank=rank)


@dataclass(frozen=True)
class RecallRun:
    """One recall as the pipeline ran it (``memory.why_not`` replays from it): the seed
    stage and what it ranked (None when nothing matched), the walk's options, and the
    facts in their final order, before the cut."""

    stage: SeedStage | None
    ranked: Ranked | None
    walk: WalkParams
    order: list[tuple[str, float]]
    recalled: list[Recalled]


def recall(
    query: str,
    index: LexicalIndex,
    memory: MemoryIndex,
    graph: FactGraph,
    view: MemoryView,
    params: RecallParams,
    vectors: VectorSource | None = None,
) -> list[Recalled]:
    """The best facts for ``query`` that ``view`` may show, best first; ``vectors`` gives
    the dense seeds of ``search_mode="embedding"`` and ``"hybrid"``."""
    return run_recall(query, index, memory, graph, view, params, vectors).recalled


def run_recall(
    query: str,
    index: LexicalIndex,
    memory: MemoryIndex,
    graph: FactGraph,
    view: MemoryView,
    params: RecallParams,
    vectors: VectorSource | None = None,
) -> RecallRun:
    """A recall of ``query`` and what its stages recorded."""
    check_query(query)
    stage = _seed_stage(query, index, memory, view, params, vectors)
    walk = WalkParams(2 * params.hops, DAMPING, MIN_SCORE, params.max_visited)
    if stage is None:
        return RecallRun(None, None, walk, [], _filled(query, [], index, memory, view, params))

    def walker(seeds: dict[str, float]) -> dict[str, Reached]:
        return walk_from_seeds(seeds, graph.neighbours, walk, prefetch=False)

    def keep(node_id: str) -> bool:
        return view.sees(node_id) and node_id in memory.states

    ranked = rank(stage, params.seeds, params.limit, walker, fuse_noisy_or, keep)
    candidates = {c.node_id: c.score for c in ranked.candidates}
    lexical = {c.node_id: c.lexical for c in ranked.candidates}
    order = _rank(candidates, memory, view, params.recency_weight)
    out = []
    for fact, score in order[: params.limit]:
        state = memory.states[fact]
        via = ranked.reached.get(fact)
        direct = via is None or via.hops == 0
        out.append(
            Recalled(
                fact_id=fact,
                text=state.text,
                score=score,
                lexical_score=lexical[fact] or 0.0,
                graph_score=via.score if via is not None else 0.0,
                seed=fact in ranked.seeds,
                path=(fact,) if direct or via is None else via.path,
                edge_types=() if direct or via is None else via.edge_types,
                terms=stage.terms(fact),
                scopes=view.scopes_at[fact],
                cross_scope=view.cross_scope(fact),
                created_at=view.since(state),
                retired=fact in view.retired,
                seeding=stage.seeding(fact if direct or via is None else via.path[0]),
            )
        )
    return RecallRun(stage, ranked, walk, order, _filled(query, out, index, memory, view, params))


def _filled(
    query: str,
    found: list[Recalled],
    index: LexicalIndex,
    memory: MemoryIndex,
    view: MemoryView,
    params: RecallParams,
) -> list[Recalled]:
    """``found``, topped up to ``params.limit`` when ``params.fill`` (``memory.fill``)."""
    missing = params.limit - len(found)
    if not params.fill or missing <= 0:
        return found
    have = {r.fact_id for r in found}
    candidates = (
        (fact, memory.states[fact].text, view.since(memory.states[fact]))
        for fact in view.seedable
        if fact not in have and fact in memory.states
    )
    extra = []
    for fact, similarity in fill_order(query, candidates, missing, index.analyzer.stop):
        state = memory.states[fact]
        extra.append(
            Recalled(
                fact_id=fact,
                text=state.text,
                score=0.0,
                lexical_score=0.0,
                graph_score=0.0,
                seed=False,
                path=(fact,),
                edge_types=(),
                terms=(),
                scopes=view.scopes_at[fact],
                cross_scope=view.cross_scope(fact),
                created_at=view.since(state),
                retired=fact in view.retired,
                seeding=Seeding(fact, "fill", fill_score=round(similarity, 6)),
            )
        )
    return [*found, *extra]


def _seed_stage(
    query: str,
    index: LexicalIndex,
    memory: MemoryIndex,
    view: MemoryView,
    params: RecallParams,
    vectors: VectorSource | None,
) -> SeedStage | None:
    """The seed stage of ``params.search_mode`` over the facts the read may seed from."""
    lexical = None
    if params.search_mode != "embedding":
        visible, outside = view.lexical_set(index, memory.retired)
        lexical = FactMatches(subset_bm25(index, query, visible, outside), view.seedable)
        if params.search_mode == "keyword":
            return lexical if lexical.best else None
    if vectors is None:
        raise InputError(f"search_mode {params.search_mode!r} needs an embedder: embed=...")
    seedable = view.seedable
    dense = DenseMatches(
        vectors.index(), vectors.query_vector(query), MIN_COSINE, seedable.__contains__
    )
    if params.search_mode == "embedding":
        return dense if dense.ranked else None
    fused = FusedMatches(
        lexical if lexical is not None and lexical.best else None, dense, params.rrf_k
    )
    return fused if fused.ranked else None


def _rank(
    candidates: dict[str, float], memory: MemoryIndex, view: MemoryView, weight: float
) -> list[tuple[str, float]]:
    if weight > 0 and candidates:
        times = {f: _timestamp(view.since(memory.states[f])) for f in candidates}
        relevance = _scaled(candidates)
        recency = _scaled(times)
        candidates = {f: (1.0 - weight) * relevance[f] + weight * recency[f] for f in candidates}
    return sorted(candidates.items(), key=lambda item: (-item[1], item[0]))


def _scaled(values: dict[str, float]) -> dict[str, float]:
    low, high = min(values.values()), max(values.values())
    if high <= low:
        return dict.fromkeys(values, 1.0)
    return {k: (v - low) / (high - low) for k, v in values.items()}


def _timestamp(stamp: str) -> float:
    try:
        return datetime.fromisoformat(stamp).timestamp()
    except ValueError:
        return 0.0
