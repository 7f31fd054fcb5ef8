"""``groundgraph memory trace`` and ``what-if``: causal reasoning over memory."""

from __future__ import annotations

from typing import Any

import click

from groundgraph.cli.app import friendly
from groundgraph.cli.memory import emit, memory, memory_graph, read_options, reads
from groundgraph.cli.verb_help import verb_command, verb_option


@verb_command(
    memory,
    "trace",
    verb="trace_effects",
    example=(
        "groundgraph memory trace 'the outage' --direction causes",
        "groundgraph memory trace 'the outage' --to 'the refund'",
    ),
)
@click.argument("content")
@click.option(
    "--direction",
    type=click.Choice(["effects", "causes"]),
    default="effects",
    show_default=True,
    help="Walk to effects (what follows) or to causes (what led to it).",
)
@click.option("--roots", is_flag=True, help="Only the root causes.")
@verb_option("--to", "to_content", verb="causal_chain", param="to_content", default=None)
@verb_option("--max-depth", verb="trace_effects", param="max_depth", show_default=True)
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
    """Walks to causes with --direction causes; --roots gives only the root causes, --to
    the causal chain to another fact."""
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


@verb_command(
    memory, "what-if", verb="what_if", example="groundgraph memory what-if 'the outage' --json"
)
@click.argument("content")
@verb_option("--origin", verb="what_if", param="origin")
@verb_option("--direction", verb="what_if", param="direction", show_default=True)
@verb_option("--max-depth", verb="what_if", param="max_depth", show_default=True)
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
