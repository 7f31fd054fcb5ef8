"""Commands that read the graph: search, retrieve, outline, show."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

from groundgraph.cli.aliases import index_option
from groundgraph.cli.app import fail, friendly, main, open_graph
from groundgraph.cli.verb_help import verb_command, verb_option
from groundgraph.model import Hit
from groundgraph.model.ids import is_entity_id

F = TypeVar("F", bound=Callable[..., Any])


def _how(hit: Hit, names: dict[str, str]) -> str:
    if hit.via is None:
        return "direct match"
    entities = [names.get(n, n) for n in hit.path[1:-1] if is_entity_id(n)]
    if entities:
        return f"via entity {entities[-1]}, mentioned in {hit.path[0]}"
    return f"{hit.edge_type} from {hit.via}"


def _print_hits(hits: list[Hit], explain: bool, names: dict[str, str]) -> None:
    if not hits:
        click.echo("no hits")
        return
    width = max(len(h.node_id) for h in hits)
    click.echo(f"{'score':>6}  {'node':<{width}}  {'title':<30}  how it was reached")
    for hit in hits:
        title = hit.title if len(hit.title) <= 30 else hit.title[:29] + "…"
        click.echo(f"{hit.score:6.3f}  {hit.node_id:<{width}}  {title:<30}  {_how(hit, names)}")
        if explain:
            if len(hit.path) > 1:
                steps = [hit.path[0]]
                for kind, node in zip(hit.edge_types, hit.path[1:], strict=True):
                    shown = f"entity {names[node]!r}" if node in names else node
                    steps.append(f"-[{kind}]-> {shown}")
                click.echo(f"{'':8}path: {' '.join(steps)}")
            if hit.terms:
                parts = ", ".join(f"{t.term} {t.score:.3f}" for t in hit.terms)
                click.echo(f"{'':8}bm25: {parts} (lexical {hit.lexical_score:.3f})")
            if hit.seed is not None and hit.seed.cosine_rank is not None:
                click.echo(f"{'':8}seed: {_seeding(hit)}")
            if hit.rerank_score is not None:
                click.echo(f"{'':8}rerank: {hit.rerank_score:.3f}")


def _seeding(hit: Hit) -> str:
    """How a dense or hybrid hit's seed was chosen, in one line."""
    seed = hit.seed
    assert seed is not None
    parts = [f"{seed.node_id}"]
    if seed.lexical_rank is not None:
        parts.append(f"bm25 rank {seed.lexical_rank}")
    if seed.cosine is not None:
        parts.append(f"cosine {seed.cosine:.3f} (rank {seed.cosine_rank})")
    if seed.fused is not None:
        parts.append(f"rrf {seed.fused:.4f}")
    return ", ".join(parts)


def _fusion(ctx: click.Context, fusion: str) -> str:
    """The fusion a command runs: ``--expansion λ`` (or ``--graph-weight``) weighs linear
    fusion, so given without ``--fusion`` it asks for it, as GraphRack's only fusion is
    linear; with ``--fusion noisy-or`` it would be ignored, so that is refused."""
    weighed = ctx.get_parameter_source("graph_weight") is click.core.ParameterSource.COMMANDLINE
    if not weighed:
        return fusion
    if ctx.get_parameter_source("fusion") is click.core.ParameterSource.DEFAULT:
        return "linear"
    if fusion != "linear":
        fail(
            f"--expansion (--graph-weight) weighs linear fusion, which --fusion {fusion} "
            "does not use: give --fusion linear, or leave --expansion out"
        )
    return fusion


def _search_options(command: F) -> F:
    for option in reversed(
        [
            verb_option(
                "--max-results",
                "-k",
                "--top-k",
                verb="search",
                param="max_results",
                show_default=True,
            ),
            verb_option("--max-hops", verb="search", param="max_hops", show_default=True),
            verb_option("--max-seeds", verb="search", param="max_seeds", show_default=True),
            verb_option("--doc", "doc_ids", verb="search", param="doc_ids", multiple=True),
            verb_option("--scope", "scopes", verb="search", param="scopes", multiple=True),
            verb_option(
                "--mode", "search_mode", verb="search", param="search_mode", show_default=True
            ),
            verb_option("--fusion", verb="search", param="fusion", show_default=True),
            verb_option(
                "--graph-weight",
                "--expansion",
                verb="search",
                param="graph_weight",
                show_default=True,
                type=click.FloatRange(0.0, 1.0),
            ),
            index_option,
        ]
    ):
        command = option(command)
    return command


@verb_command(
    main,
    "search",
    verb="search",
    example=(
        'groundgraph search "why does the config fail to load"',
        "groundgraph search deploy --json -k 5",
    ),
)
@click.argument("query")
@_search_options
@click.option("--json", "as_json", is_flag=True, help="Print hits as JSON.")
@click.option("--explain/--no-explain", default=True, help="Show paths and BM25 parts.")
@click.pass_context
@friendly
def search_command(
    ctx: click.Context,
    query: str,
    max_results: int,
    max_hops: int,
    max_seeds: int,
    doc_ids: tuple[str, ...],
    scopes: tuple[str, ...],
    search_mode: str,
    fusion: str,
    graph_weight: float,
    as_json: bool,
    explain: bool,
) -> None:
    with open_graph(ctx) as graph:
        hits = graph.search(
            query,
            max_results=max_results,
            max_hops=max_hops,
            max_seeds=max_seeds,
            doc_ids=doc_ids or None,
            scopes=scopes or None,
            search_mode=search_mode,
            fusion=_fusion(ctx, fusion),
            graph_weight=graph_weight,
        )
        entity_ids = sorted({n for h in hits for n in h.path if is_entity_id(n)})
        # A scoped search names an entity by its own documents' spelling (entity_spellings).
        from groundgraph.graph.document_scope import document_scope
        from groundgraph.graph.entity_spellings import scoped_titles

        scope = document_scope(graph.store, scopes or None)
        names = scoped_titles(scope, graph.store.reads.get_nodes(entity_ids))
    if as_json:
        click.echo(json.dumps([h.to_dict() for h in hits], indent=2, ensure_ascii=False))
    else:
        _print_hits(hits, explain, names)


@verb_command(main, "retrieve", verb="retrieve", example='groundgraph retrieve "deploy" -k 3')
@click.argument("query")
@_search_options
@click.pass_context
@friendly
def retrieve(
    ctx: click.Context,
    query: str,
    max_results: int,
    max_hops: int,
    max_seeds: int,
    doc_ids: tuple[str, ...],
    scopes: tuple[str, ...],
    search_mode: str,
    fusion: str,
    graph_weight: float,
) -> None:
    with open_graph(ctx) as graph:
        text = graph.retrieve(
            query,
            max_results=max_results,
            max_hops=max_hops,
            max_seeds=max_seeds,
            doc_ids=doc_ids or None,
            scopes=scopes or None,
            search_mode=search_mode,
            fusion=_fusion(ctx, fusion),
            graph_weight=graph_weight,
        )
    click.echo(text)


@verb_command(
    main,
    "outline",
    verb="outline",
    example=(
        "groundgraph outline user-guide",
        "groundgraph outline team-notes --scope acme/team-a",
    ),
)
@click.argument("doc_id")
@verb_option("--max-depth", verb="outline", param="max_depth", show_default=True)
@verb_option("--scope", "scopes", verb="outline", param="scopes", multiple=True)
@click.pass_context
@friendly
def outline(ctx: click.Context, doc_id: str, max_depth: int, scopes: tuple[str, ...]) -> None:
    with open_graph(ctx) as graph:
        click.echo(graph.outline(doc_id, max_depth=max_depth, scopes=scopes or None))


@verb_command(
    main,
    "show",
    verb="show",
    example=(
        "groundgraph show 'user-guide#4' --json",
        "groundgraph show 'team-notes#2' --scope acme/team-a",
    ),
)
@click.argument("node_id")
@verb_option("--scope", "scopes", verb="show", param="scopes", multiple=True)
@click.option("--json", "as_json", is_flag=True, help="Print the node as JSON.")
@click.pass_context
@friendly
def show(ctx: click.Context, node_id: str, scopes: tuple[str, ...], as_json: bool) -> None:
    with open_graph(ctx) as graph:
        view = graph.show(node_id, scopes=scopes or None).to_dict()
    if as_json:
        click.echo(json.dumps(view, indent=2, ensure_ascii=False))
        return
    click.echo(f"[{view['nodeId']}] {view['title']}  ({view['type']}, level {view['level']})")
    if view["parentId"]:
        click.echo(f"parent: [{view['parentId']}] {view['parentTitle'] or ''}")
    for child in view["children"]:
        click.echo(f"child:  [{child['nodeId']}] {child['title']}")
    for link in view["links"]:
        arrow = "->" if link["direction"] == "out" else "<-"
        click.echo(
            f"{link['type']:<10} {arrow} [{link['nodeId']}] {link['title']} ({link['weight']:.2f})"
        )
    click.echo("")
    click.echo(view["content"])
