"""Why a fact is not among the facts a memory query recalls: the recall is run again with
its stages recorded (:func:`~groundgraph.memory.recall.run_recall`) and the fact is
followed through them, as ``search.why_not`` follows a section through a search.

Before the pipeline comes the read's view: a fact not yet written at ``as_of`` is
``not-yet-valid``, a superseded one is ``retired`` (unless ``include_superseded``), one the
read's scopes may not see is ``outside-scopes``. Then the pipeline's stages: ``outranked``,
``below-seed-cutoff``, ``walk-stopped`` (the walk over the edges visible facts assert,
probed with its limits lifted) and ``no-common-term``. The counterfactual reruns the
query verb itself with one option changed (``rerun``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from groundgraph.index.bm25 import LexicalIndex
from groundgraph.memory.fact_graph import FactGraph
from groundgraph.memory.index import MemoryIndex
from groundgraph.memory.recall import MAX_HOPS, MAX_TOP_K, RecallParams, RecallRun
from groundgraph.memory.view import MemoryView
from groundgraph.model.valid_text import valid_text
from groundgraph.model.why_not import (
    BELOW_SEED_CUTOFF,
    FOUND,
    MISSING,
    NO_COMMON_TERM,
    NOT_YET_VALID,
    OUTRANKED,
    OUTSIDE_SCOPES,
    RETIRED,
    WALK_STOPPED,
    Counterfactual,
    OptionValue,
    RankTrace,
    WhyNot,
)
from groundgraph.search.replay import (
    Ladder,
    counterfactual,
    more,
    probe_walk,
    seed_trace,
    term_trace,
)

#: A rerun of the query verb with one option changed: the rank the fact gets, or None.
FactRerun = Callable[[str, OptionValue], int | None]


def why_not_fact(
    query: str,
    fact: str,
    run: RecallRun,
    index: LexicalIndex,
    memory: MemoryIndex,
    graph: FactGraph,
    view: MemoryView,
    params: RecallParams,
    rerun: FactRerun,
    language: str,
    given: str | None = None,
) -> WhyNot:
    """Why ``fact`` (a fact id; ``given``: the text or id the caller named it by) is not
    among the ``params.limit`` facts ``run`` recalled."""
    query = valid_text(query).text  # echoed in the answer, which must encode
    k = params.limit
    none = Counterfactual(None, None, None, None)

    def result(stage: str, reason: str, **parts: object) -> WhyNot:
        return WhyNot(query, fact, fact, stage, reason, k, **parts)  # type: ignore[arg-type]

    state = memory.states.get(fact)
    if state is None:
        texts = {s.text: f for f, s in memory.states.items()}
        near = difflib.get_close_matches(given or fact, list(texts), n=5, cutoff=0.4)
        nearest = tuple(texts[t] for t in near)
        reason = f"no fact {given or fact!r} in memory"
        return WhyNot(query, fact, None, MISSING, reason, k, nearest=nearest, counterfactual=none)
    at, as_of = state.at(view.options.as_of), view.options.as_of
    since = view.since(state)  # a scoped read: when its own scopes got the fact
    if at is None or (as_of is not None and since > as_of):
        reason = f"{fact} was written at {since}, after as_of {as_of}"
        return result(NOT_YET_VALID, reason, counterfactual=none)
    if not at[1] and not view.options.include_superseded:
        cf = counterfactual(rerun, [("include_superseded", False, (True,))])
        return result(RETIRED, f"{fact} was superseded (retired)", counterfactual=cf)
    if not view.sees(fact):
        reason = f"{fact} is in scopes the read may not see, and the read stays in its own"
        return result(OUTSIDE_SCOPES, reason, counterfactual=none)

    found = [f for f, _ in run.order]
    if fact in found[:k]:
        rank = found.index(fact) + 1
        return result(FOUND, f"{fact} is result {rank}", ranking=_trace(run, fact, rank))
    filled = [r.fact_id for r in run.recalled if r.seeding is not None and r.seeding.mode == "fill"]
    if fact in filled:  # query gives it, though the pipeline did not find it (memory.fill)
        rank = [r.fact_id for r in run.recalled].index(fact) + 1
        terms = term_trace(index.analyzer, query, set(index.analyzer.terms(state.text)), language)
        reason = (
            f"{fact} is result {rank} as a fill: the pipeline found fewer than {k} facts, "
            "and it shares the most spelling with the query among the rest"
        )
        return result(FOUND, reason, terms=terms, counterfactual=none)
    ladders: list[Ladder] = [
        ("top_k", params.limit, more(params.limit, MAX_TOP_K)),
        ("hops", params.hops, more(params.hops, MAX_HOPS, (1, 2, 3))),
    ]
    if fact in found:
        rank = found.index(fact) + 1
        cf = counterfactual(rerun, ladders)
        reason = f"{fact} was scored and ranked {rank}, below the top {k}"
        return result(OUTRANKED, reason, ranking=_trace(run, fact, rank), counterfactual=cf)
    seeds = run.ranked.seeds if run.ranked else {}
    stage = run.stage
    terms = term_trace(index.analyzer, query, set(index.analyzer.terms(state.text)), language)
    lexical = stage.scores_of([fact]).get(fact) if stage is not None else None
    if lexical is not None:
        seed = seed_trace(stage, seeds, fact, params.seeds)
        cf = counterfactual(rerun, ladders)
        where = "" if fact in view.seedable else " (it is in another scope: it may not seed)"
        reason = (
            f"{fact} matched with lexical score {lexical:.3f} (rank {seed.rank}), under the "
            f"{params.seeds} seeds{where}, and the walk did not reach it"
        )
        return result(BELOW_SEED_CUTOFF, reason, terms=terms, seed=seed, counterfactual=cf)
    walk = None
    if seeds:
        walk = probe_walk(seeds, graph.neighbours, run.walk, {fact}, 2 * MAX_HOPS, lambda _: ())
    if walk is not None and walk.limit != "unreachable":
        cf = counterfactual(rerun, [ladders[1], ladders[0]])
        steps = len(walk.path) - 1
        reason = f"the strongest path to {fact} takes {steps} steps; it stopped at {walk.limit}"
        return result(WALK_STOPPED, reason, terms=terms, walk=walk, counterfactual=cf)
    cf = counterfactual(rerun, [ladders[1], ladders[0]])
    if terms.shared:
        reason = f"{fact} was not among the seed stage's matches ({params.search_mode})"
        return result(BELOW_SEED_CUTOFF, reason, terms=terms, walk=walk, counterfactual=cf)
    reason = (
        f"no term of the query ({', '.join(terms.query_terms) or 'none after analysis'}) "
        f"is in the fact, and no path from a seed reaches it"
    )
    return result(NO_COMMON_TERM, reason, terms=terms, walk=walk, counterfactual=cf)


def _trace(run: RecallRun, fact: str, rank: int) -> RankTrace:
    score = dict(run.order)[fact]
    candidate = next(c for c in run.ranked.candidates if c.node_id == fact) if run.ranked else None
    lexical = candidate.lexical or 0.0 if candidate is not None else 0.0
    graph = candidate.reached.score if candidate is not None and candidate.reached else 0.0
    above = tuple(f for f, _ in run.order[: min(rank - 1, len(run.recalled))])
    return RankTrace(score, rank, lexical, graph, above)
