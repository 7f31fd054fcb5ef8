"""Why a node (or any node of a document) is not among a search's top k: the search is
run again with its stages recorded (:func:`~groundgraph.search.documents.run_search`),
the target is followed through them, and the first stage it fell out of is the diagnosis.

1. It must exist, be searchable, and lie inside the documents asked for (``doc_ids``:
   else ``outside-scopes``). With ``scopes``, a target the scopes may not read is
   ``missing``, as one that never existed is, and only ids they may read are suggested:
   a fact's id is a hash of its text, so telling "outside" from "missing" would let a
   caller test whether another scope holds a statement it guessed.
2. **Outranked**: it was scored (a candidate of the pipeline) but others ranked above.
3. **Below the seed cut-off**: the seed stage matched it, too low to seed or to stand
   on its own, and the walk did not reach it.
4. **Walk stopped**: no lexical match, but a path from a seed leads to it; the walk,
   probed with its limits lifted, says where that path fell under ``min_score``, went
   past ``max_hops``, lost to the ``max_activated`` quota, or met a hub.
5. **No term in common**: analysis leaves the query no term the target holds, and no
   path reaches it.

The counterfactual reruns the search with one option changed (``search.replay``).
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Iterable
from typing import Any

from groundgraph.index.bm25 import LexicalIndex
from groundgraph.model import Hit
from groundgraph.model.ids import is_entity_id
from groundgraph.model.valid_text import valid_text
from groundgraph.model.why_not import (
    BELOW_SEED_CUTOFF,
    FOUND,
    MISSING,
    NO_COMMON_TERM,
    OUTRANKED,
    OUTSIDE_SCOPES,
    RETIRED,
    WALK_STOPPED,
    Counterfactual,
    OptionValue,
    RankTrace,
    WalkTrace,
    WhyNot,
)
from groundgraph.search.documents import SearchParams, SearchRun
from groundgraph.search.replay import (
    Ladder,
    counterfactual,
    less,
    more,
    probe_walk,
    seed_trace,
    term_trace,
)
from groundgraph.search.seeds import SEARCH_MODES
from groundgraph.store.base import Store
from groundgraph.walk.dijkstra import HUB_PREFIX, MAX_FAN_IN, MAX_FANOUT

#: The deepest a counterfactual looks: results (k), seeds and hops.
MAX_K = 100
MAX_SEEDS = 50
MAX_HOPS = 5
#: Ids suggested for a target that does not exist.
NEAREST = 5

#: One search with these options, and what its stages recorded.
Runner = Callable[[SearchParams], SearchRun]


@dataclasses.dataclass(frozen=True)
class Target:
    """What ``why_not`` looks for: the indexed nodes that stand for the target id."""

    given: str
    doc_id: str
    nodes: tuple[str, ...]

    def rank_in(self, hits: list[Hit]) -> int | None:
        wanted = set(self.nodes)
        return next((i for i, h in enumerate(hits, 1) if h.node_id in wanted), None)


def why_not(
    query: str,
    target: str,
    index: LexicalIndex,
    store: Store,
    params: SearchParams,
    run: Runner,
    language: str,
    sees: Callable[[str], bool] | None = None,
    modes: tuple[str, ...] = ("keyword",),
) -> WhyNot:
    """Why ``target`` (a node id or a document id) is not in the top ``max_results`` of
    ``query``. ``run`` searches with the given options; ``sees`` says which nodes the
    caller's scopes may read (``params.doc_ids`` are then within those): a target it
    does not see is answered as one no store holds, and no id it does not see is named;
    ``modes`` are the search modes this graph can run (the embedding modes need an
    embedder)."""
    query = valid_text(query).text  # echoed in the answer, which must encode
    k = params.max_results
    base = run(params)

    def result(stage: str, reason: str, node: str | None = None, **parts: object) -> WhyNot:
        return WhyNot(query, target, node, stage, reason, k, **parts)  # type: ignore[arg-type]

    found = resolve(target, index, store, sees)
    if isinstance(found, WhyNot):
        return dataclasses.replace(found, query=query, k=k)
    if params.doc_ids is not None and found.doc_id not in params.doc_ids:
        # A scoped read's target lies within its scopes (resolve), so only doc_ids left
        # it out; the search without doc_ids would also drop the scopes: no rerun then.
        where = "the documents asked for (doc_ids)"
        cf = Counterfactual(None, None, None, None)
        if sees is None:
            rank = found.rank_in(run(dataclasses.replace(params, doc_ids=None)).hits)
            cf = counterfactual(lambda *_: rank, [("doc_ids", "given", ("all documents",))])
        reason = f"{target} is in document {found.doc_id}, outside {where}"
        return result(OUTSIDE_SCOPES, reason, found.nodes[0], counterfactual=cf)

    def rerun(name: str, value: OptionValue) -> int | None:
        changed: dict[str, Any] = {name: value}
        return found.rank_in(run(dataclasses.replace(params, **changed)).hits)

    deep: list[int | None] = []

    def deep_rank() -> int | None:
        # The rank in a search of MAX_K results is the rank a search of that many gives:
        # a longer list only adds lexical matches weaker than all it already holds.
        if not deep:
            deep.append(found.rank_in(run(dataclasses.replace(params, max_results=MAX_K)).hits))
        return deep[0]

    def ladders(stage: str, limit: str | None = None) -> list[Ladder]:
        return _ladders(stage, params, modes, deep_rank(), limit)

    ranked = base.ranked
    rank = found.rank_in(base.hits)
    if rank is not None:
        hit = base.hits[rank - 1]
        above = tuple(h.node_id for h in base.hits[: rank - 1])
        trace = RankTrace(hit.score, rank, hit.lexical_score, hit.graph_score, above)
        return result(FOUND, f"{hit.node_id} is result {rank}", hit.node_id, ranking=trace)
    candidates = {c.node_id: (i, c) for i, c in enumerate(ranked.candidates, 1)} if ranked else {}
    scored = [candidates[n] for n in found.nodes if n in candidates]
    if scored:
        place, best = min(scored, key=lambda pair: pair[0])
        above = tuple(h.node_id for h in base.hits)
        graph = best.reached.score if best.reached is not None else 0.0
        stated = deep_rank() or place
        trace = RankTrace(best.score, stated, best.lexical or 0.0, graph, above)
        cf = counterfactual(rerun, ladders(OUTRANKED))
        reason = (
            f"{best.node_id} was scored {best.score:.3f} and ranked {stated}, "
            f"below the top {k} (the last scored {base.hits[-1].score:.3f})"
            if base.hits
            else f"{best.node_id} was scored {best.score:.3f} but no result was kept"
        )
        return result(OUTRANKED, reason, best.node_id, ranking=trace, counterfactual=cf)

    seeds = ranked.seeds if ranked else {}
    stage = base.stage
    lexical = {n: s for n, s in stage.scores_of(list(found.nodes)).items()} if stage else {}
    target_terms = _terms_of(index, found.nodes)
    terms = term_trace(index.analyzer, query, target_terms, language)
    if lexical:
        node = max(lexical, key=lambda n: (lexical[n], n))
        seed = seed_trace(stage, seeds, node, params.max_seeds)
        cf = counterfactual(rerun, ladders(BELOW_SEED_CUTOFF))
        last = (
            f"the last scored {seed.last_seed_score:.3f}"
            if seed.last_seed_score is not None
            else "none were taken"
        )
        reason = (
            f"{node} matched with lexical score {lexical[node]:.3f} (rank {seed.rank}), "
            f"under the {params.max_seeds} seeds ({last}), too low to stand among the top "
            f"{k} on its own, and the walk did not reach it"
        )
        return result(BELOW_SEED_CUTOFF, reason, node, terms=terms, seed=seed, counterfactual=cf)

    walk = None
    if seeds:
        probe_hops = max(MAX_HOPS, params.max_hops + 2)
        hubs = _hub_finder(store, sees)
        walk = probe_walk(seeds, base.neighbours, params.walk(), set(found.nodes), probe_hops, hubs)
    if walk is not None and walk.limit != "unreachable":
        node = walk.path[-1] if walk.path else found.nodes[0]
        cf = counterfactual(rerun, ladders(WALK_STOPPED, walk.limit))
        reason = _walk_reason(walk, node)
        return result(WALK_STOPPED, reason, node, terms=terms, walk=walk, counterfactual=cf)
    node = found.nodes[0]
    cf = counterfactual(rerun, ladders(NO_COMMON_TERM))
    if terms.shared:
        # The embedding modes: words in common, but not near enough by cosine.
        reason = f"{node} was not among the seed stage's matches ({params.search_mode})"
        seed = seed_trace(stage, seeds, node, params.max_seeds)
        parts = {"terms": terms, "seed": seed, "walk": walk, "counterfactual": cf}
        return result(BELOW_SEED_CUTOFF, reason, node, **parts)
    reason = (
        f"no term of the query ({', '.join(terms.query_terms) or 'none after analysis'}) "
        f"is in {target}, and no path from a seed reaches it"
    )
    return result(NO_COMMON_TERM, reason, node, terms=terms, walk=walk, counterfactual=cf)


def resolve(
    target: str, index: LexicalIndex, store: Store, sees: Callable[[str], bool] | None = None
) -> Target | WhyNot:
    """The indexed nodes that stand for ``target``, or the diagnosis that there are none;
    a target ``sees`` refuses is one no store holds, and the nearest ids named are ids it
    sees."""
    position = index.position
    if sees is not None and not sees(target):
        return _unknown(target, index, sees)
    pos = position.get(target)
    if pos is not None and not index.is_blank(pos):
        return Target(target, index.doc_of[pos], (target,))
    held = [p for p in index.doc_positions.get(target, []) if not index.is_blank(p)]
    if held:
        nodes = tuple(sorted(index.node_ids[p] for p in held))
        return Target(target, target, nodes)

    def missing(stage: str, reason: str, node: str | None, near: tuple[str, ...] = ()) -> WhyNot:
        cf = Counterfactual(None, None, None, None)
        return WhyNot("", target, node, stage, reason, 0, nearest=near, counterfactual=cf)

    if pos is not None:
        return missing(MISSING, f"{target} has no text of its own: search never returns it", target)
    node = store.reads.get_nodes([target]).get(target)
    if node is not None and node.invalid_at is not None:
        return missing(RETIRED, f"{target} was retired at {node.invalid_at}", target)
    if node is not None:
        reason = f"{target} is a {node.kind} node, which search does not return"
        return missing(MISSING, reason, target)
    return _unknown(target, index, sees)


def _unknown(target: str, index: LexicalIndex, sees: Callable[[str], bool] | None) -> WhyNot:
    """The diagnosis of an id no store holds, naming the nearest ids (those ``sees``
    allows; no entity then, as telling which it sees costs a read each)."""

    def seen(ids: Iterable[str]) -> list[str]:
        return [i for i in ids if sees is None or (not is_entity_id(i) and sees(i))]

    doc, _, _ = target.partition("#")
    pool = seen(index.node_ids[p] for p in index.doc_positions.get(doc, [])) or seen(index.position)
    pool += seen(index.doc_positions)
    near = tuple(dict.fromkeys(difflib.get_close_matches(target, pool, n=NEAREST, cutoff=0.5)))
    cf = Counterfactual(None, None, None, None)
    reason = f"no node or document {target!r}"
    return WhyNot("", target, None, MISSING, reason, 0, nearest=near, counterfactual=cf)


def _terms_of(index: LexicalIndex, nodes: tuple[str, ...]) -> set[str]:
    out: set[str] = set()
    for node in nodes:
        ids, _ = index.node_terms(index.position[node])
        out.update(index.terms[int(t)] for t in ids)
    return out


def _hub_finder(
    store: Store, sees: Callable[[str], bool] | None = None
) -> Callable[[set[str]], tuple[str, ...]]:
    """The neighbours of the targets that give no step towards them: entities with more
    than MAX_FANOUT edges, and pages with more than MAX_FAN_IN edges pointing at them
    (only those ``sees`` allows)."""

    def hubs(targets: set[str]) -> tuple[str, ...]:
        edges = store.reads.edges_touching(sorted(targets))
        pointed = {e.target for e in edges if e.source in targets}
        found = []
        for other in sorted({e.target if e.source in targets else e.source for e in edges})[:32]:
            around = store.reads.edges_touching([other])
            if other.startswith(HUB_PREFIX):
                too_many = len(around) > MAX_FANOUT
            else:
                fan_in = sum(1 for e in around if e.target == other)
                too_many = other in pointed and fan_in > MAX_FAN_IN
            if too_many and (sees is None or sees(other)):
                found.append(other)
        return tuple(found)

    return hubs


def _walk_reason(walk: WalkTrace, node: str) -> str:
    if walk.limit == "hub":
        return f"the only ways to {node} pass through hubs that give no steps: {walk.hubs[0]}"
    hops = len(walk.path) - 1
    if walk.limit == "min_score":
        at = walk.stopped_at or 0
        return (
            f"the strongest path to {node} ({hops} hops) falls to {walk.scores[at]:.3f} at hop "
            f"{at}, under min_score {walk.min_score}"
        )
    if walk.limit == "max_hops":
        return f"the strongest path to {node} takes {hops} hops, over max_hops {walk.max_hops}"
    return f"the walk settled its quota of stronger nodes before reaching {node}"


def _ladders(
    stage: str,
    p: SearchParams,
    modes: tuple[str, ...],
    deep: int | None,
    limit: str | None = None,
) -> list[Ladder]:
    """The options to try, the one the stage points at first; ``deep`` is the target's
    rank among the first MAX_K results."""
    k: Ladder = ("max_results", p.max_results, [deep] if deep is not None else [MAX_K])
    seeds: Ladder = ("max_seeds", p.max_seeds, more(p.max_seeds, MAX_SEEDS))
    hops: Ladder = ("max_hops", p.max_hops, more(p.max_hops, MAX_HOPS, (1, 2, 3)))
    threshold: Ladder = ("min_score", p.min_score, less(p.min_score))
    quota_values = more(p.max_activated, 8 * p.max_activated, (p.max_activated,))
    quota: Ladder = ("max_activated", p.max_activated, quota_values)
    others = tuple(m for m in SEARCH_MODES if m in modes and m != p.search_mode)
    mode: Ladder = ("search_mode", p.search_mode, others)
    if stage == OUTRANKED:
        return [k, seeds, hops, threshold, mode]
    if stage == BELOW_SEED_CUTOFF:
        return [seeds, k, hops, threshold, mode]
    if stage == WALK_STOPPED and limit == "max_hops":
        return [hops, threshold, seeds, k, mode]
    if stage == WALK_STOPPED and limit == "max_activated":
        return [quota, threshold, seeds, k, mode]
    if stage == WALK_STOPPED:
        return [threshold, hops, seeds, k, mode]
    return [mode, hops, seeds, threshold, k]
