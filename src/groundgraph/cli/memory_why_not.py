"""``groundgraph memory why-not QUERY FACT``: why a fact did not come for a memory query."""

from __future__ import annotations

import click

from groundgraph.cli.app import friendly
from groundgraph.cli.memory import emit, memory, memory_graph, read_options, reads
from groundgraph.cli.verb_help import verb_command, verb_option
from groundgraph.cli.why_not import print_why_not


@verb_command(
    memory,
    "why-not",
    verb="why_not_fact",
    example="groundgraph memory why-not 'who leads Atlas?' 'Alice leads Atlas.' -k 1",
)
@click.argument("query")
@click.argument("fact")
@verb_option("--top-k", "-k", verb="why_not_fact", param="top_k", show_default=True)
@verb_option("--hops", verb="why_not_fact", param="hops", show_default=True)
@read_options
@click.pass_context
@friendly
def memory_why_not_command(
    ctx: click.Context,
    query: str,
    fact: str,
    top_k: int,
    hops: int,
    scopes: tuple[str, ...],
    isolate: bool | None,
    as_of: str | None,
    include_superseded: bool,
    as_json: bool,
) -> None:
    """FACT is a fact id (fact:...) or the fact's text."""
    with memory_graph(ctx) as graph:
        result = graph.why_not_fact(
            query,
            fact,
            top_k=top_k,
            hops=hops,
            **reads(scopes, isolate, as_of, include_superseded),
        )
    if as_json:
        emit(result)
    else:
        print_why_not(result)
