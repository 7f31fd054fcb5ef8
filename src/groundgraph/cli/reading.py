"""Commands that read the graph: search, retrieve, outline, show."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

from groundgraph.cli.app import friendly, main, open_graph
from groundgraph.model import Hit

F = TypeVar("F", bound=Callable[..., Any])


def _how(hit: Hit, names: dict[str, str]) -> str:
    if hit.via is None:
        return "direct match"
    entities = [names.get(n, n) for n in hit.path[1:-1] if n.startswith("entity:")]
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


def _search_options(command: F) -> F:
    for option in reversed(
        [
            click.option(
                "--max-results", "-k", default=8, show_default=True, help="Hits to return."
            ),
            click.option("--max-hops", default=2, show_default=True, help="Walk length."),
            click.option("--max-seeds", default=5, show_default=True, help="BM25 seeds."),
            click.option("--doc", "doc_ids", multiple=True, help="Only these documents."),
            click.option(
                "--scope",
                "scopes",
                multiple=True,
                help="Only what these scopes may read (facts of the scope and its ancestors); "
                "nothing else is walked through. Repeat for several.",
            ),
        ]
    ):
        command = option(command)
    return command


@main.command("search")
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
    as_json: bool,
    explain: bool,
) -> None:
    """Search: BM25 seeds, a walk along links, and how each hit was reached."""
    with open_graph(ctx) as graph:
        hits = graph.search(
            query,
            max_results=max_results,
            max_hops=max_hops,
            max_seeds=max_seeds,
            doc_ids=doc_ids or None,
            scopes=scopes or None,
        )
        entity_ids = sorted({n for h in hits for n in h.path if n.startswith("entity:")})
        # An entity's stored spelling may come from text another scope wrote: keys only.
        names = (
            {}
            if scopes
            else {n.node_id: n.title for n in graph.store.get_nodes(entity_ids).values()}
        )
    if as_json:
        click.echo(json.dumps([h.to_dict() for h in hits], indent=2, ensure_ascii=False))
    else:
        _print_hits(hits, explain, names)


@main.command()
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
) -> None:
    """Print the hits as '### title [nodeId]' blocks to hand to a language model."""
    with open_graph(ctx) as graph:
        text = graph.retrieve(
            query,
            max_results=max_results,
            max_hops=max_hops,
            max_seeds=max_seeds,
            doc_ids=doc_ids or None,
            scopes=scopes or None,
        )
    click.echo(text)


@main.command()
@click.argument("doc_id")
@click.option("--max-depth", default=6, show_default=True)
@click.pass_context
@friendly
def outline(ctx: click.Context, doc_id: str, max_depth: int) -> None:
    """A document's table of contents with node ids."""
    with open_graph(ctx) as graph:
        click.echo(graph.outline(doc_id, max_depth=max_depth))


@main.command()
@click.argument("node_id")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@friendly
def show(ctx: click.Context, node_id: str, as_json: bool) -> None:
    """A node with its parent, children and links."""
    with open_graph(ctx) as graph:
        view = graph.show(node_id).to_dict()
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
