"""``groundgraph why-not QUERY TARGET``: why a section did not come up for a query."""

from __future__ import annotations

import json

import click

from groundgraph.cli.app import friendly, main, open_graph
from groundgraph.cli.verb_help import verb_command, verb_option
from groundgraph.model.why_not import WhyNot


def print_why_not(result: WhyNot) -> None:
    """The diagnosis as a short table: stage, reason, each stage's figures, the change."""
    rows: list[tuple[str, str]] = [
        (
            "target",
            result.target
            + (f" ({result.node_id})" if result.node_id not in (None, result.target) else ""),
        ),
        ("stage", result.stage),
        ("reason", result.reason),
    ]
    if result.terms is not None:
        terms = result.terms
        rows.append(("query terms", " ".join(terms.query_terms) or "(none)"))
        if terms.stop_words:
            rows.append(("stop words", " ".join(terms.stop_words)))
        if terms.shared:
            rows.append(("shared", " ".join(terms.shared)))
        elif terms.closest:
            rows.append(("closest stems", " ".join(terms.closest)))
        rows.append(("language", terms.language))
    if result.seed is not None:
        seed = result.seed
        score = "-" if seed.score is None else f"{seed.score:.3f}"
        rows.append(("lexical", f"{score} (rank {seed.rank}, {seed.max_seeds} seeds)"))
        if seed.last_seed is not None and seed.last_seed_score is not None:
            rows.append(("last seed", f"{seed.last_seed} {seed.last_seed_score:.3f}"))
        if seed.terms:
            rows.append(("bm25", ", ".join(f"{t.term} {t.score:.3f}" for t in seed.terms)))
    if result.walk is not None:
        walk = result.walk
        if walk.path:
            steps = [walk.path[0]]
            for kind, node in zip(walk.edge_types, walk.path[1:], strict=True):
                steps.append(f"-[{kind}]-> {node}")
            rows.append(("best path", " ".join(steps)))
            rows.append(("scores", " ".join(f"{s:.3f}" for s in walk.scores)))
        rows.append(("walk limit", walk.limit))
        if walk.hubs:
            rows.append(("hubs", " ".join(walk.hubs)))
    if result.ranking is not None:
        ranking = result.ranking
        rows.append(("score", f"{ranking.score:.3f} (rank {ranking.rank})"))
        if ranking.above:
            rows.append(("above it", " ".join(ranking.above)))
    if result.nearest:
        rows.append(("nearest ids", " ".join(result.nearest)))
    if result.counterfactual is not None and result.stage != "found":
        rows.append(("would come", result.counterfactual.describe()))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        click.echo(f"{name:<{width}}  {value}")


@verb_command(
    main,
    "why-not",
    verb="why_not",
    example=(
        'groundgraph why-not "config fails" getting-started -k 2',
        "groundgraph why-not deploy 'troubleshooting#1' --max-hops 0 --json",
    ),
)
@click.argument("query")
@click.argument("target")
@verb_option(
    "--max-results", "-k", "--top-k", verb="why_not", param="max_results", show_default=True
)
@verb_option("--max-seeds", verb="why_not", param="max_seeds", show_default=True)
@verb_option("--max-hops", verb="why_not", param="max_hops", show_default=True)
@verb_option("--min-score", verb="why_not", param="min_score", show_default=True)
@verb_option("--doc", "doc_ids", verb="why_not", param="doc_ids", multiple=True)
@verb_option("--scope", "scopes", verb="why_not", param="scopes", multiple=True)
@verb_option("--mode", "search_mode", verb="why_not", param="search_mode", show_default=True)
@verb_option("--walker", verb="why_not", param="walker", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the diagnosis as JSON.")
@click.pass_context
@friendly
def why_not_command(
    ctx: click.Context,
    query: str,
    target: str,
    max_results: int,
    max_seeds: int,
    max_hops: int,
    min_score: float,
    doc_ids: tuple[str, ...],
    scopes: tuple[str, ...],
    search_mode: str,
    walker: str,
    as_json: bool,
) -> None:
    """TARGET is a node id (see search or outline) or a document id. The search is run
    again with its stages recorded; every change it proposes was run."""
    with open_graph(ctx) as graph:
        result = graph.why_not(
            query,
            target,
            max_results=max_results,
            max_seeds=max_seeds,
            max_hops=max_hops,
            min_score=min_score,
            doc_ids=doc_ids or None,
            scopes=scopes or None,
            search_mode=search_mode,
            walker=walker,
        )
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        print_why_not(result)
