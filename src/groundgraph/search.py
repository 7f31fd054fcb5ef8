"""Seed, walk, fuse, explain: the search pipeline.

1. Seed: BM25 scores, divided by the best one, pick the top ``max_seeds`` nodes.
2. Walk: a bounded best-first walk from the seeds over every edge type.
3. Fuse: a node reached through another node and matched lexically scores
   ``1 − (1 − graph)(1 − lexical)``; otherwise the larger of the two.
4. Explain: each hit carries its path, the edge types along it and the per-term BM25 parts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.index.bm25 import LexicalIndex, LexicalMatches, top_positions
from groundgraph.model import Hit, TermScore
from groundgraph.store.base import Store
from groundgraph.walk.dijkstra import (
    HUB_PREFIX,
    MAX_FANOUT,
    Arc,
    Reached,
    WalkParams,
    arcs_from_edges,
    arcs_from_steps,
    walk_from_seeds,
)
from groundgraph.walk.matrix import GraphMatrix
from groundgraph.walk.ppr import PPRParams, explain_paths, personalized_pagerank

MAX_QUERY_CHARS = 10_000
WALKERS = ("bounded", "ppr")
FUSIONS = ("noisy-or", "linear")


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

    def __post_init__(self) -> None:
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


def check_query(query: str) -> str:
    if not isinstance(query, str):
        raise InputError(f"a query must be text, not {type(query).__name__}")
    if len(query) > MAX_QUERY_CHARS:
        raise InputTooLargeError("the query", len(query), MAX_QUERY_CHARS, "shorten the query")
    return query


def search(
    query: str,
    index: LexicalIndex,
    store: Store,
    params: SearchParams | None = None,
    matrix: Callable[[], GraphMatrix] | None = None,
    walkable: Callable[[str], bool] | None = None,
) -> list[Hit]:
    """Hits for ``query``, best first, each with the explanation of how it was reached.

    ``matrix`` supplies the whole-graph adjacency that ``walker="ppr"`` needs.
    ``walkable`` (with ``doc_ids``) confines the walk: a step into a node it refuses is
    never taken, so no path or hit passes through what the caller may not see.
    """
    p = params or SearchParams()
    check_query(query)
    if walkable is not None and p.walker == "ppr":
        raise InputError("a scoped search walks with walker='bounded'; PPR spans the whole graph")
    allowed = None
    if p.doc_ids is not None:
        allowed = [pos for d in p.doc_ids for pos in index.doc_positions.get(d, [])]
    matches = index.match(query, allowed)
    if not len(matches.positions):
        return []
    lexical = _normalised(matches)
    ids = index.node_ids
    seed_rows = top_positions(matches.positions, matches.scores, p.max_seeds, ids.__getitem__)
    seeds = {ids[int(matches.positions[i])]: lexical[i] for i in seed_rows}
    allowed_docs = None if p.doc_ids is None else set(p.doc_ids)

    def neighbours(node_ids: Sequence[str]) -> dict[str, list[Arc]]:
        steps = store.walk_arcs(node_ids, MAX_FANOUT, HUB_PREFIX)
        if walkable is None:
            return arcs_from_steps(steps, node_ids)
        return _confined_arcs(store, sorted({s[0] for s in steps}), node_ids, walkable)

    if not seeds:
        reached: dict[str, Reached] = {}
    elif p.walker == "ppr":
        if matrix is None:
            raise InputError("walker='ppr' needs the graph matrix; search through DocumentGraph")
        reached = _ppr_reached(seeds, matrix(), p)
    else:
        reached = walk_from_seeds(seeds, neighbours, p.walk())
    # Nodes matched lexically but not reached: the best few can still make the list.
    lexical_rows = top_positions(
        matches.positions, matches.scores, p.max_results + len(reached), ids.__getitem__
    )
    lexical_of = {ids[int(matches.positions[i])]: (i, lexical[i]) for i in lexical_rows}
    # Reached nodes that also match lexically: find their rows in one vectorised lookup.
    others = [n for n in reached if n not in lexical_of and n in index.position]
    if others:
        wanted = np.array([index.position[n] for n in others], dtype=np.int64)
        rows = np.minimum(np.searchsorted(matches.positions, wanted), len(matches.positions) - 1)
        found = matches.positions[rows] == wanted
        for node_id, row, hit in zip(others, rows.tolist(), found.tolist(), strict=True):
            if hit:
                lexical_of[node_id] = (row, lexical[row])
    scored: list[tuple[float, str]] = []
    for node_id in set(reached) | set(lexical_of):
        pos = index.position.get(node_id)
        if pos is None or index.is_blank(pos):
            continue
        if allowed_docs is not None and index.doc_of[pos] not in allowed_docs:
            continue
        scored.append((_fused(reached.get(node_id), lexical_of.get(node_id), p), node_id))
    scored.sort(key=lambda item: (-item[0], item[1]))
    top = scored[: p.max_results]
    if p.walker == "ppr" and matrix is not None and top:
        reached = _explain_ppr(reached, seeds, matrix(), [n for _, n in top], p)
    nodes = store.get_nodes([n for _, n in top])
    hits = []
    for score, node_id in top:
        node = nodes.get(node_id)
        if node is None:  # removed by another process since the index was read
            continue
        row_lex = lexical_of.get(node_id)
        terms: tuple[TermScore, ...] = ()
        if row_lex is not None:
            terms = matches.contributions(int(matches.positions[row_lex[0]]))
        via = reached.get(node_id)
        hits.append(
            _hit(node.node_id, node.doc_id, node.title, node.content, score, via, row_lex, terms)
        )
    return hits


def _confined_arcs(
    store: Store, open_nodes: list[str], node_ids: Sequence[str], walkable: Callable[[str], bool]
) -> dict[str, list[Arc]]:
    # Only edges whose ends and whose every asserting node the caller may see: an edge
    # between two entities that another scope's sentence asserts is not walked either.
    # Degrees (hub damping) are counted over those edges alone.
    edges = [
        e
        for e in store.edges_touching(open_nodes)
        if walkable(e.source) and walkable(e.target) and all(walkable(n) for n in e.sources)
    ]
    return arcs_from_edges(edges, node_ids)


def _normalised(matches: LexicalMatches) -> list[float]:
    best = float(matches.scores.max())
    if best <= 0:
        return [0.0] * len(matches.scores)
    return (matches.scores / best).tolist()  # type: ignore[no-any-return]


def _fused(reached: Reached | None, lexical: tuple[int, float] | None, p: SearchParams) -> float:
    lex = lexical[1] if lexical else 0.0
    graph = reached.score if reached is not None else 0.0
    through_graph = reached is not None and (reached.hops > 0 or p.walker == "ppr")
    if p.fusion == "linear":
        return (1.0 - p.graph_weight) * lex + p.graph_weight * (graph if through_graph else 0.0)
    return noisy_or(graph, reached.hops if reached is not None else 0, lex)


def noisy_or(graph: float, hops: int, lexical: float) -> float:
    """The fused score of a node the walk reached with ``graph`` after ``hops`` steps and
    BM25 matched with ``lexical`` (both in [0, 1]): ``1 − (1 − graph)(1 − lexical)`` when
    it was reached through another node, else the larger (a seed is not counted twice).
    Document search and memory recall fuse with this one rule."""
    if hops > 0:
        return 1.0 - (1.0 - graph) * (1.0 - lexical)
    return max(graph, lexical)


def _ppr_reached(
    seeds: dict[str, float], matrix: GraphMatrix, p: SearchParams
) -> dict[str, Reached]:
    """PageRank mass (divided by the largest) of the strongest nodes.

    Paths come later, for the hits only (:func:`_explain_ppr`); until then a node that is
    not a seed counts as reached through the graph (one hop, no path yet).
    """
    result = personalized_pagerank(matrix, seeds, PPRParams(p.damping, time_cap=p.ppr_time_cap))
    scores = result.scores
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
    reached: dict[str, Reached],
    seeds: dict[str, float],
    matrix: GraphMatrix,
    hits: list[str],
    p: SearchParams,
) -> dict[str, Reached]:
    """Give the PageRank hits the strongest path from a seed (at most four hops)."""
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
    node_id: str,
    doc_id: str,
    title: str,
    content: str,
    score: float,
    reached: Reached | None,
    lexical: tuple[int, float] | None,
    terms: tuple[TermScore, ...],
) -> Hit:
    direct = reached is None or reached.hops == 0
    return Hit(
        node_id=node_id,
        doc_id=doc_id,
        title=title,
        content=content,
        score=score,
        lexical_score=lexical[1] if lexical else 0.0,
        graph_score=reached.score if reached else 0.0,
        hops=0 if direct or reached is None else reached.hops,
        via=None if direct or reached is None else reached.via,
        edge_type=None if direct or reached is None else reached.edge_type,
        path=(node_id,) if direct or reached is None else reached.path,
        edge_types=() if direct or reached is None else reached.edge_types,
        terms=terms,
    )
