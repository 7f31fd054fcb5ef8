"""``groundgraph memory trace`` and ``what-if``: causal reasoning over memory."""

from __future__ import annotations

from typing import Any

import click

from groundgraph.cli.app import friendly
from groundgraph.cli.memory import emit, memory, memory_graph, read_options, reads


@memory.command("trace")
@click.argument("content")
@click.option(
    "--direction",
    type=click.Choice(["effects", "causes"]),
    default="effects",
    show_default=True,
    help="Walk to effects (what follows) or to causes (what led to it).",
)
@click.option("--roots", is_flag=True, help="Only the root causes.")
@click.option("--to", "to_content", default=None, help="Find the causal chain to this fact.")
@click.option("--max-depth", default=6, show_default=True, help="Longest chain, in hops.")
@read_options
@click.pass_context
@friendly
def trace_command(
    ctx: click.Context,
    content: str,
    direction: str,
    roots: bool,
    to_content: str | None,
    max_depth: int,
    scopes: tuple[str, ...],
    isolate: bool | None,
    as_of: str | None,
    include_superseded: bool,
    as_json: bool,
) -> None:
    """Trace cause -> effect hops from a fact (its id or text) or a cause/effect phrase."""
    options = reads(scopes, isolate, as_of, include_superseded)
    with memory_graph(ctx) as graph:
        if to_content is not None:
            hops = graph.causal_chain(content, to_content, max_depth=max_depth, **options)
            result: Any = {"chain": hops}
        elif roots:
            result = {"roots": graph.root_causes(content, max_depth=max_depth, **options)}
        elif direction == "effects":
            result = graph.trace_effects(content, max_depth=max_depth, **options)
        else:
            result = graph.trace_causes(content, max_depth=max_depth, **options)
    if as_json:
        emit(result)
        return
    if "roots" in result:
        click.echo("\n".join(result["roots"]) or "no root causes")
        return
    if result["chain"] is None:
        click.echo("no causal chain links them")
        return
    for hop in result["chain"]:
        note = " (another scope)" if hop["crossScope"] else ""
        click.echo(f"{hop['depth']:>3}  {hop['cause']} -> {hop['effect']}  [{hop['factId']}]{note}")
    if result.get("terminals"):
        click.echo("ends at: " + "; ".join(result["terminals"]))


@memory.command("what-if")
@click.argument("content")
@click.option("--origin", default=None, help="Measure from this fact (default: the pruned one).")
@click.option(
    "--direction",
    type=click.Choice(["effects", "causes"]),
    default="effects",
    show_default=True,
    help="Which side of the origin to check.",
)
@click.option("--max-depth", default=6, show_default=True, help="Longest chain, in hops.")
@read_options
@click.pass_context
@friendly
def what_if_command(
    ctx: click.Context,
    content: str,
    origin: str | None,
    direction: str,
    max_depth: int,
    scopes: tuple[str, ...],
    isolate: bool | None,
    as_of: str | None,
    include_superseded: bool,
    as_json: bool,
) -> None:
    """What would collapse if a fact were false (nothing is changed)."""
    with memory_graph(ctx) as graph:
        result = graph.what_if(
            content,
            origin=origin,
            direction=direction,
            max_depth=max_depth,
            **reads(scopes, isolate, as_of, include_superseded),
        )
    if as_json:
        emit(result)
        return
    for edge in result["prunedEdges"]:
        click.echo(f"pruned:    {edge['cause']} -> {edge['effect']}")
    for key in ("collapsed", "survived"):
        for item in result[key]:
            click.echo(f"{key + ':':<10} {item['span']}  (depth {item['depth']}, {item['factId']})")
    if not result["collapsed"]:
        click.echo("nothing collapses")
