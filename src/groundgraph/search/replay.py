"""The parts of a ``why_not`` that document search and memory recall share: what analysis
made of the query and the target, the target's place among the seeds, the strongest path
the walk would take to it with its limits lifted, and the counterfactual reruns.

Nothing here scores anything of its own: the lexical figures are the seed stage's, the
walk probe is :func:`~groundgraph.walk.dijkstra.walk_from_seeds` over the search's own
neighbours with the threshold and hop limit lifted, each step's score is
:func:`~groundgraph.walk.dijkstra.step_score`, and every counterfactual is a rerun of the
search itself (``rerun``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Mapping, Sequence

from groundgraph.model.why_not import (
    Counterfactual,
    OptionValue,
    SeedTrace,
    TermTrace,
    Trial,
    WalkTrace,
)
from groundgraph.search.seeds import SeedStage
from groundgraph.text import Analyzer, words
from groundgraph.walk.dijkstra import NeighbourFn, Reached, WalkParams, step_score, walk_from_seeds

#: The most nodes the lifted walk may settle looking for the target.
PROBE_ACTIVATED = 50_000
#: Stems of the target shown as nearest to the query's.
CLOSEST = 5

#: A rerun: the rank the target gets (1 first; None: not in the top k) with one option
#: changed to a value.
Rerun = Callable[[str, OptionValue], int | None]
#: A ladder: an option, its value in the search asked about, and the values to try,
#: smallest change first.
Ladder = tuple[str, OptionValue, Sequence[OptionValue]]


def term_trace(
    analyzer: Analyzer, query: str, target_terms: Collection[str], language: str
) -> TermTrace:
    """The query's analysed terms, the stop words analysis removed from it, the terms the
    target shares with it, and the target's stems nearest the query's."""
    query_terms = tuple(dict.fromkeys(analyzer.terms(query)))
    stop = analyzer.stop
    stop_words = tuple(dict.fromkeys(w for w in words(query) if w in stop))
    shared = tuple(t for t in query_terms if t in target_terms)
    closest: list[str] = []
    if not shared:
        pool = sorted(target_terms)
        for term in query_terms:
            for near in difflib.get_close_matches(term, pool, n=2, cutoff=0.5):
                if near not in closest:
                    closest.append(near)
    return TermTrace(language, query_terms, stop_words, shared, tuple(closest[:CLOSEST]))


def seed_trace(
    stage: SeedStage | None, seeds: Mapping[str, float], node_id: str, max_seeds: int
) -> SeedTrace:
    """The node's lexical score and rank as the seed stage gave them, beside the last
    seed's."""
    last = list(seeds)[-1] if seeds else None
    last_score = seeds[last] if last is not None else None
    if stage is None:
        return SeedTrace(None, None, max_seeds, last, last_score)
    score = stage.scores_of([node_id]).get(node_id)
    seeding = stage.seeding(node_id)
    rank = seeding.lexical_rank if seeding.lexical_rank is not None else seeding.cosine_rank
    terms = stage.terms(node_id) if score is not None else ()
    return SeedTrace(score, rank, max_seeds, last, last_score, terms)


def probe_walk(
    seeds: Mapping[str, float],
    neighbours: NeighbourFn,
    params: WalkParams,
    targets: set[str],
    probe_hops: int,
    hubs: Callable[[set[str]], tuple[str, ...]],
) -> WalkTrace:
    """The strongest path from a seed to one of ``targets`` of at most ``probe_hops``
    steps, walked with no threshold and no quota, and where the real walk's limits cut it."""
    lifted = WalkParams(probe_hops, params.damping, 0.0, PROBE_ACTIVATED, params.up_factor)
    found = walk_from_seeds(seeds, neighbours, lifted, targets=set(targets))
    reached = [found[t] for t in sorted(targets) if t in found]
    if not reached:
        named = hubs(targets)
        limit = "hub" if named else "unreachable"
        return WalkTrace(
            limit,
            min_score=params.min_score,
            max_hops=params.max_hops,
            probe_hops=probe_hops,
            hubs=named,
        )
    best = max(reached, key=lambda r: (r.score, -r.hops))
    scores = step_scores(best, seeds, neighbours, params)
    below = [i for i, s in enumerate(scores) if s < params.min_score]
    if below:
        limit, stopped = "min_score", below[0]
    elif best.hops > params.max_hops:
        limit, stopped = "max_hops", params.max_hops + 1
    else:
        limit, stopped = "max_activated", None
    return WalkTrace(
        limit,
        best.path,
        best.edge_types,
        scores,
        stopped,
        params.min_score,
        params.max_hops,
        probe_hops,
    )


def step_scores(
    reached: Reached, seeds: Mapping[str, float], neighbours: NeighbourFn, params: WalkParams
) -> tuple[float, ...]:
    """The score of ``reached``'s path after each of its nodes, the seed's first."""
    score = seeds.get(reached.path[0], 0.0)
    out = [score]
    for node, nxt, kind in zip(
        reached.path[:-1], reached.path[1:], reached.edge_types, strict=True
    ):
        arcs = neighbours([node], 0.0).get(node, ())
        steps = [step_score(score, a, params) for a in arcs if a.target == nxt and a.type == kind]
        score = max(steps, default=0.0)
        out.append(score)
    return tuple(out)


def counterfactual(rerun: Rerun, ladders: Sequence[Ladder]) -> Counterfactual:
    """The first ladder (in the order given) with a value that brings the target into
    the top k, at its smallest such value; every rerun made is listed. The ladders after
    the first that succeeds are not run."""
    tried: list[Trial] = []
    for name, was, values in ladders:
        for value in values:
            rank = rerun(name, value)
            tried.append(Trial(name, value, was, rank))
            if rank is not None:
                return Counterfactual(name, value, was, rank, tuple(tried))
    return Counterfactual(None, None, None, None, tuple(tried))


def more(was: int, limit: int, steps: Sequence[int] = (1, 2, 3, 4, 5)) -> list[int]:
    """Larger whole values than ``was``: a few single steps, then doublings, to ``limit``."""
    values = [was + s for s in steps]
    value = was + steps[-1]
    while value < limit:
        value = min(limit, max(value + 1, value * 2))
        values.append(value)
    return sorted({v for v in values if was < v <= limit})


def less(was: float) -> list[float]:
    """Smaller thresholds than ``was``: three quarters, half, a quarter, a tenth, none."""
    return [v for v in (was * 0.75, was * 0.5, was * 0.25, was * 0.1, 0.0) if v < was]
