"""``groundgraph memory history`` and ``conflicts``: what replaced a fact, and the ledger of
contradictions the memory resolved."""

from __future__ import annotations

import click

from groundgraph.cli.app import friendly
from groundgraph.cli.memory import emit, memory, memory_graph
from groundgraph.cli.verb_help import verb_command, verb_option


@verb_command(
    memory,
    "history",
    verb="supersession_history",
    example="groundgraph memory history 'Alice leads the Atlas team.'",
)
@click.argument("fact")
@verb_option("--scope", "scopes", verb="supersession_history", param="scopes", multiple=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.pass_context
@friendly
def history_command(ctx: click.Context, fact: str, scopes: tuple[str, ...], as_json: bool) -> None:
    with memory_graph(ctx) as graph:
        result = graph.supersession_history(fact, scopes=list(scopes) or None)
    if as_json:
        emit(result)
        return
    state = "retired " + result["fact"]["invalidAt"] if result["fact"]["invalidAt"] else "valid"
    click.echo(f"{result['fact']['factId']}  {result['fact']['content']}  ({state})")
    for other in result["supersededBy"]:
        click.echo(f"superseded by {other['factId']}  {other['content']}  [{other['rule']}]")
    for other in result["supersedes"]:
        click.echo(f"supersedes    {other['factId']}  {other['content']}  [{other['rule']}]")
    for event in result["events"]:
        click.echo(f"{event['at']}  {event['kind']} {' '.join(event['scopes'])}".rstrip())


@verb_command(
    memory,
    "conflicts",
    verb="conflicts",
    example="groundgraph memory conflicts --scope acme --json",
)
@verb_option("--scope", "scopes", verb="conflicts", param="scopes", multiple=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.pass_context
@friendly
def conflicts_command(ctx: click.Context, scopes: tuple[str, ...], as_json: bool) -> None:
    with memory_graph(ctx) as graph:
        ledger = graph.conflicts(scopes=list(scopes) or None)
    if as_json:
        emit(ledger)
        return
    if not ledger:
        click.echo("no contradictions recorded")
    for row in ledger:
        click.echo(f"{row['at']}  {row['rule']}")
        click.echo(f"  new: {row['new']['content']}  [{row['new']['factId']}]")
        click.echo(f"  old: {row['old']['content']}  [{row['old']['factId']}] (retired)")
