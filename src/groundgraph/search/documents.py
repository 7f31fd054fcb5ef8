"""Document search: the pipeline (``search.pipeline``) over the whole lexical index and
the graph's edges, and the hits it explains.

The lexical stage is BM25 over every section, chunk and fact the index holds (``doc_ids``
narrows it; a scoped search scores with the statistics of what it may read alone); the
walker is the bounded best-first walk over every edge type (confined to what the caller
may see when scoped, hub degrees counted over that) or personalized PageRank; fusion is
noisy-OR or linear. Each hit carries its path, the edge types along it and the per-term BM25 parts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from groundgraph.errors import InputError
from groundgraph.index.bm25 import LexicalIndex, LexicalMatches, top_positions
from groundgraph.model import Hit, Node, Seeding, TermScore
from groundgraph.search.choices import FUSIONS as FUSIONS
from groundgraph.search.choices import WALKERS as WALKERS
from groundgraph.search.pipeline import Ranked, check_query, fuse_noisy_or, rank
from groundgraph.search.rerank import Reranker, rerank_candidates
from groundgraph.search.seeds import (
    MIN_COSINE,
    DenseMatches,
    FusedMatches,
    SeedStage,
    VectorSource,
    check_mode,
)
from groundgraph.search.walk_source import WalkArcs
from groundgraph.store.base import Store
from groundgraph.walk.dijkstra import (
    HUB_PREFIX,
    MAX_FAN_IN,
    MAX_FANOUT,
    Arc,
    NeighbourFn,
    Reached,
    WalkParams,
    arcs_from_edges,
    arcs_from_steps,
    walk_from_seeds,
)

if TYPE_CHECKING:  # the PPR walker's parts load when it runs
    from groundgraph.walk.matrix import GraphMatrix


@dataclass(frozen=True)
class SearchParams:
    """Knobs of :func:`search`; the defaults are those of the seed system."""

    max_results: int = 8
    max_seeds: int = 5
    max_hops: int = 2
    damping: float = 0.85
    min_score: float = 0.1
    max_activated: int = 200
    doc_ids: tuple[str, ...] | None = None
    walker: str = "bounded"
    fusion: str = "noisy-or"
    graph_weight: float = 0.3
    ppr_time_cap: float = 1.0
    search_mode: str = "keyword"
    rrf_k: int = 60
    min_cosine: float = MIN_COSINE
    rerank_top_k: int = 20

    def __post_init__(self) -> None:
        check_mode(self.search_mode, self.rrf_k)
        if not -1 <= self.min_cosine <= 1:
            raise InputError("min_cosine must be in [-1, 1]")
        if self.rerank_top_k < 1:
            raise InputError("rerank_top_k must be >= 1")
        if self.walker not in WALKERS:
            raise InputError(f"walker must be one of {', '.join(WALKERS)}, not {self.walker!r}")
        if self.fusion not in FUSIONS:
            raise InputError(f"fusion must be one of {', '.join(FUSIONS)}, not {self.fusion!r}")
        if not 0 <= self.graph_weight <= 1:
            raise InputError("graph_weight (the λ of linear fusion) must be in [0, 1]")
        if self.max_results < 1 or self.max_seeds < 0 or self.max_hops < 0:
            raise InputError("max_results must be >= 1, max_seeds and max_hops >= 0")
        if not 0 < self.damping <= 1 or not 0 <= self.min_score <= 1:
            raise InputError("damping must be in (0, 1] and min_score in [0, 1]")
        if self.max_activated < 1:
            raise InputError("max_activated must be >= 1")

    def walk(self) -> WalkParams:
        return WalkParams(self.max_hops, self.damping, self.min_score, self.max_activated)


@dataclass(frozen=True)
class SearchRun:
    """One search as the pipeline ran it: the seed stage, everything it ranked, the hits
    it returned, and the walk's neighbours and keep rule (``search.why_not`` replays a
    search from these). ``stage`` and ``ranked`` are None when nothing matched."""

    params: SearchParams
    stage: SeedStage | None
    ranked: Ranked | None
    hits: list[Hit]
    neighbours: NeighbourFn
    keep: Callable[[str], bool]


def search(
    query: str,
    index: LexicalIndex,
    store: Store,
    params: SearchParams | None = None,
    matrix: Callable[[], GraphMatrix] | None = None,
    walkable: Callable[[str], bool] | None = None,
    vectors: VectorSource | None = None,
    rerank: Reranker | None = None,
    arcs: WalkArcs | None = None,
) -> list[Hit]:
    """Hits for ``query``, best first, each with the explanation of how it was reached
    (see :func:`run_search`)."""
    return run_search(query, index, store, params, matrix, walkable, vectors, rerank, arcs).hits


def run_search(
    query: str,
    index: LexicalIndex,
    store: Store,
    params: SearchParams | None = None,
    matrix: Callable[[], GraphMatrix] | None = None,
    walkable: Callable[[str], bool] | None = None,
    vectors: VectorSource | None = None,
    rerank: Reranker | None = None,
    arcs: WalkArcs | None = None,
) -> SearchRun:
    """A search of ``query`` and what its stages recorded.

    ``matrix`` supplies the whole-graph adjacency that ``walker="ppr"`` needs.
    ``walkable`` (with ``doc_ids``) confines the walk: a step into a node it refuses is
    never taken, so no path or hit passes through what the caller may not see.
    ``vectors`` gives the dense seeds of ``search_mode="embedding"`` and ``"hybrid"``;
    ``rerank`` rescores the best ``rerank_top_k`` candidates after the walk. ``arcs``
    is where an unconfined walk reads its arcs (``search.walk_source``: the store or the
    adjacency in memory; the store's ``walk_arcs`` without it).
    """
    p = params or SearchParams()
    check_query(query)
    if walkable is not None and p.walker == "ppr":
        raise InputError("a scoped search walks with walker='bounded'; PPR spans the whole graph")
    allowed = None
    if p.doc_ids is not None:
        allowed = [pos for d in p.doc_ids for pos in index.doc_positions.get(d, [])]
    allowed_docs = None if p.doc_ids is None else set(p.doc_ids)
    # Each candidate's index position, found once per search: the lexical stage, the
    # fusion and the keep rule all ask for the same few hundred nodes.
    found = FoundPositions(index)

    def keep(node_id: str) -> bool:
        pos = found.find(node_id)
        if pos is None or index.is_blank(pos):
            return False
        return allowed_docs is None or index.doc_at(pos) in allowed_docs

    # A scoped search (``walkable``) scores as if the index held only what it may read:
    # the whole store's N, document frequencies and mean length would tell a tenant how
    # many of another tenant's sections hold a word (idf is in every hit's explanation).
    stage = _seed_stage(query, index, allowed, p, vectors, keep, walkable is not None, found)

    def neighbours(node_ids: Sequence[str], weakest: float) -> Mapping[str, Sequence[Arc]]:
        if walkable is None:
            if arcs is not None:
                return arcs.neighbours(node_ids, weakest)
            steps = store.reads.walk_arcs(node_ids, MAX_FANOUT, HUB_PREFIX, weakest, MAX_FAN_IN)
            return arcs_from_steps(steps, node_ids)
        # Every edge of the nodes is read: the hub and fan-in rules count only the
        # readable ones (the store's own degrees would count other tenants' edges, and an
        # entity they name often would stop this walk).
        return _confined_arcs(store, list(node_ids), node_ids, walkable)

    prefetch = walkable is not None or arcs is None or arcs.prefetch

    def walker(seeds: dict[str, float]) -> dict[str, Reached]:
        if p.walker == "ppr":
            if matrix is None:
                raise InputError(
                    "walker='ppr' needs the graph matrix; search through DocumentGraph"
                )
            return _ppr_reached(seeds, matrix(), p)
        return walk_from_seeds(seeds, neighbours, p.walk(), prefetch=prefetch)

    if stage is None:
        return SearchRun(p, None, None, [], neighbours, keep)

    def fusion(reached: Reached | None, lexical: float | None) -> float:
        if p.fusion == "noisy-or":
            return fuse_noisy_or(reached, lexical)
        graph = reached.score if reached is not None else 0.0
        through_graph = reached is not None and (reached.hops > 0 or p.walker == "ppr")
        lex = lexical or 0.0
        return (1.0 - p.graph_weight) * lex + p.graph_weight * (graph if through_graph else 0.0)

    ranked = rank(stage, p.max_seeds, p.max_results, walker, fusion, keep)
    depth = max(p.max_results, p.rerank_top_k) if rerank is not None else p.max_results
    top = ranked.candidates[:depth]
    nodes = store.reads.get_nodes([c.node_id for c in top])
    top = [c for c in top if c.node_id in nodes]  # others: removed since the index was read
    reranked: dict[str, float] = {}
    if rerank is not None:
        top, reranked = rerank_candidates(query, top, nodes, rerank)
    top = top[: p.max_results]
    reached = ranked.reached
    if p.walker == "ppr" and matrix is not None and top:
        reached = _explain_ppr(reached, ranked.seeds, matrix(), [c.node_id for c in top], p)
    hits = []
    seeds: dict[str, Seeding] = {}  # many hits share a seed
    for candidate in top:
        node = nodes[candidate.node_id]
        terms = stage.terms(node.node_id) if candidate.lexical is not None else ()
        way = reached.get(node.node_id)
        origin = way.path[0] if way is not None and way.path else node.node_id
        seed = seeds.get(origin)
        if seed is None:
            seed = seeds[origin] = stage.seeding(origin)
        rescored = reranked.get(node.node_id)
        hits.append(_hit(node, candidate.score, way, candidate.lexical, terms, seed, rescored))
    return SearchRun(p, stage, ranked, hits, neighbours, keep)


def _seed_stage(
    query: str,
    index: LexicalIndex,
    allowed: list[int] | None,
    p: SearchParams,
    vectors: VectorSource | None,
    keep: Callable[[str], bool],
    own_statistics: bool = False,
    found: FoundPositions | None = None,
) -> SeedStage | None:
    """The seed stage of ``p.search_mode``, or None when nothing matches; with
    ``own_statistics``, BM25 over the ``allowed`` nodes with their own statistics."""
    lexical = None
    if p.search_mode != "embedding":
        matches = index.match(query, allowed, own_statistics)
        lexical = IndexMatches(matches, index, found) if len(matches.positions) else None
        if p.search_mode == "keyword":
            return lexical
    if vectors is None:
        raise InputError(
            f"search_mode {p.search_mode!r} needs an embedder: open the graph with embed=..., "
            "or index with --embedder minilm"
        )
    dense = DenseMatches(vectors.index(), vectors.query_vector(query), p.min_cosine, keep)
    if p.search_mode == "embedding":
        return dense if dense.ranked else None
    fused = FusedMatches(lexical, dense, p.rrf_k)
    return fused if fused.ranked else None


def _confined_arcs(
    store: Store, open_nodes: list[str], node_ids: Sequence[str], walkable: Callable[[str], bool]
) -> dict[str, list[Arc]]:
    # Only edges whose ends and whose every asserting node the caller may see: an edge
    # between two entities that another scope's sentence asserts is not walked either.
    # Degrees (hub damping) are counted over those edges alone.
    edges = [
        e
        for e in store.reads.edges_touching(open_nodes)
        if walkable(e.source) and walkable(e.target) and all(walkable(n) for n in e.sources)
    ]
    return arcs_from_edges(edges, node_ids)


def _ppr_reached(
    seeds: dict[str, float], matrix: GraphMatrix, p: SearchParams
) -> dict[str, Reached]:
    """PageRank mass (divided by the largest) of the strongest nodes, by local push
    (:mod:`walk.push`): what the seeds activate, not the whole graph.

    Paths come later, for the hits only (:func:`_explain_ppr`); until then a node that is
    not a seed counts as reached through the graph (one hop, no path yet).
    """
    from groundgraph.walk.push import PushParams, local_pagerank  # the PPR walker's, on use

    push = PushParams(p.damping, time_cap=p.ppr_time_cap)
    scores = local_pagerank(matrix, seeds, push).scores
    if not len(scores) or scores.max() <= 0:
        return {}
    best = scores.max()
    ids = matrix.node_ids
    keep = np.flatnonzero(scores > 0)
    if len(keep) > p.max_activated:
        keep = keep[np.argsort(-scores[keep], kind="stable")[: p.max_activated]]
    reached = {}
    for i in keep.tolist():
        node = ids[i]
        hops = 0 if node in seeds else 1
        reached[node] = Reached(node, float(scores[i] / best), hops, (node,), ())
    return reached


def _explain_ppr(
    reached: Mapping[str, Reached],
    seeds: dict[str, float],
    matrix: GraphMatrix,
    hits: list[str],
    p: SearchParams,
) -> dict[str, Reached]:
    """Give the PageRank hits the strongest path from a seed (at most four hops)."""
    from groundgraph.walk.ppr import explain_paths  # the PPR walker's, on use

    wanted = [n for n in hits if n in reached]
    paths = explain_paths(matrix, seeds, wanted, max_hops=max(p.max_hops, 4))
    out = dict(reached)
    for node in wanted:
        found = paths.get(node)
        if found is not None:
            old = reached[node]
            out[node] = Reached(node, old.score, found.hops, found.path, found.edge_types)
    return out


def _hit(
    node: Node,
    score: float,
    reached: Reached | None,
    lexical: float | None,
    terms: tuple[TermScore, ...],
    seed: Seeding | None = None,
    rerank_score: float | None = None,
) -> Hit:
    direct = reached is None or reached.hops == 0
    return Hit(
        node_id=node.node_id,
        doc_id=node.doc_id,
        title=node.title,
        content=node.content,
        score=score,
        lexical_score=lexical if lexical is not None else 0.0,
        graph_score=reached.score if reached else 0.0,
        hops=0 if direct or reached is None else reached.hops,
        via=None if direct or reached is None else reached.via,
        edge_type=None if direct or reached is None else reached.edge_type,
        path=(node.node_id,) if direct or reached is None else reached.path,
        edge_types=() if direct or reached is None else reached.edge_types,
        terms=terms,
        seed=seed,
        rerank_score=rerank_score,
    )


class FoundPositions:
    """Index positions by node id, each found once (a search's memo of ``index.find``)."""

    def __init__(self, index: LexicalIndex) -> None:
        self.index = index
        self.held: dict[str, int | None] = {}

    def find(self, node_id: str) -> int | None:
        held = self.held
        if node_id in held:
            return held[node_id]
        pos = held[node_id] = self.index.find(node_id)
        return pos

    def learn(self, node_ids: Sequence[str], positions: Sequence[int]) -> None:
        """These live nodes are at these positions (as ``find`` would say)."""
        self.held.update(zip(node_ids, positions, strict=True))


class IndexMatches:
    """The lexical stage over the whole index: a query's ``LexicalMatches``, normalised."""

    def __init__(
        self, matches: LexicalMatches, index: LexicalIndex, found: FoundPositions | None = None
    ) -> None:
        self.matches = matches
        self.index = index
        self.found = found if found is not None else FoundPositions(index)
        best = float(matches.scores.max())
        self.normalised = (
            matches.scores / best if best > 0 else np.zeros(len(matches.scores), dtype=float)
        )

    def top(self, k: int) -> list[tuple[str, float]]:
        positions = self.matches.positions
        index = self.index
        rows = top_positions(positions, self.matches.scores, k, index.node_id_at, index.node_ids_at)
        at = positions[rows].tolist()
        ids = self.index.node_ids_at(at)
        self.found.learn(ids, at)  # matches are live nodes: find would give these
        normalised = self.normalised[rows].tolist()
        return list(zip(ids, normalised, strict=True))

    def scores_of(self, node_ids: Sequence[str]) -> dict[str, float]:
        # One vectorised lookup of the rows of the nodes that match.
        find = self.found.find
        found_at = {n: p for n in node_ids if (p := find(n)) is not None}
        known = list(found_at)
        if not known or not len(self.matches.positions):
            return {}
        positions = self.matches.positions
        wanted = np.array([found_at[n] for n in known], dtype=np.int64)
        rows = np.minimum(np.searchsorted(positions, wanted), len(positions) - 1)
        found = positions[rows] == wanted
        return {
            node_id: float(self.normalised[row])
            for node_id, row, hit in zip(known, rows.tolist(), found.tolist(), strict=True)
            if hit
        }

    def terms(self, node_id: str) -> tuple[TermScore, ...]:
        pos = self.found.find(node_id)
        if pos is None:
            raise KeyError(node_id)
        return self.matches.contributions(pos)

    def rank_of(self, node_id: str) -> int | None:
        """The node's rank among the matches (1 first, ties broken by id), or None."""
        position = self.found.find(node_id)
        positions = self.matches.positions
        row = int(np.searchsorted(positions, position)) if position is not None else len(positions)
        if row >= len(positions) or positions[row] != position:
            return None
        scores = self.matches.scores
        score = scores[row]
        ties = self.index.node_ids_at(positions[np.flatnonzero(scores == score)].tolist())
        before = sum(1 for name in ties if name < node_id)
        return int(np.count_nonzero(scores > score)) + before + 1

    def seeding(self, node_id: str) -> Seeding:
        return Seeding(node_id, "keyword", lexical_rank=self.rank_of(node_id))
