"""Commands over the evidence layer: ask, bridge, graph."""

from __future__ import annotations

import json
from pathlib import Path

import click

from groundgraph.cli.aliases import index_option
from groundgraph.cli.app import friendly, main, open_graph
from groundgraph.cli.verb_help import example_epilog, verb_command, verb_option
from groundgraph.graph.formats.evidence import evidence_graph


@verb_command(
    main,
    "ask",
    verb="ask",
    example=(
        'groundgraph ask "Who services the boiler?"',
        'groundgraph ask "Who services the boiler?" --scope acme/team-a',
    ),
)
@click.argument("question")
@verb_option("--threshold", verb="ask", param="threshold", show_default=True)
@verb_option("--max-sentences", verb="ask", param="max_sentences", show_default=True)
@verb_option("--mode", "search_mode", verb="search", param="search_mode", show_default=True)
@verb_option("--scope", "scopes", verb="search", param="scopes", multiple=True)
@click.option("--json", "as_json", is_flag=True, help="Print the answer and its citations as JSON.")
@index_option
@click.pass_context
@friendly
def ask(
    ctx: click.Context,
    question: str,
    threshold: float,
    max_sentences: int,
    search_mode: str,
    scopes: tuple[str, ...],
    as_json: bool,
) -> None:
    """Exit code 0 when answered, 1 for insufficient_evidence."""
    with open_graph(ctx) as graph:
        answer = graph.ask(
            question,
            threshold=threshold,
            max_sentences=max_sentences,
            search_mode=search_mode,
            scopes=scopes or None,
        )
    if as_json:
        click.echo(json.dumps(answer.to_dict(), indent=2, ensure_ascii=False))
    elif answer.status == "answered":
        for cite in answer.sentences:
            where = f"{cite.node_id} [{cite.start}:{cite.end}]"
            click.echo(f"{cite.text}\n    — {cite.title}, {where}")
        click.echo(f"(score {answer.score:.2f}, threshold {answer.threshold:.2f})")
    else:
        click.echo(
            f"insufficient_evidence: the best sentence scores {answer.score:.2f}, "
            f"below {answer.threshold:.2f}"
        )
    raise SystemExit(0 if answer.status == "answered" else 1)


@verb_command(
    main,
    "bridge",
    verb="bridge",
    example=(
        'groundgraph bridge "Aster Research" Atlas --json',
        "groundgraph bridge Alice Atlas --scope acme/team-a",
    ),
)
@click.argument("a")
@click.argument("b")
@verb_option("--max-hops", verb="bridge", param="max_hops", show_default=True)
@verb_option("-k", "k", verb="bridge", param="k", show_default=True)
@verb_option("--scope", "scopes", verb="bridge", param="scopes", multiple=True)
@click.option("--json", "as_json", is_flag=True, help="Print the paths as JSON.")
@index_option
@click.pass_context
@friendly
def bridge(
    ctx: click.Context,
    a: str,
    b: str,
    max_hops: int,
    k: int,
    scopes: tuple[str, ...],
    as_json: bool,
) -> None:
    with open_graph(ctx) as graph:
        bridges = graph.bridge(a, b, max_hops=max_hops, k=k, scopes=scopes or None)
    if as_json:
        click.echo(json.dumps([x.to_dict() for x in bridges], indent=2, ensure_ascii=False))
        return
    if not bridges:
        click.echo(f"no path of at most {max_hops} hops between {a!r} and {b!r}")
        raise SystemExit(1)
    for number, found in enumerate(bridges, 1):
        click.echo(f"{number}. {' → '.join(found.names)}  (strength {found.strength:.3f})")
        for hop in found.hops:
            kind = f"{hop.type} {hop.label}" if hop.label else hop.type
            click.echo(f"   {hop.source} -[{kind}]-> {hop.target}")
            if hop.support is not None:
                click.echo(f"      “{hop.support.text}” ({hop.support.node_id})")


@main.command("graph", epilog=example_epilog("groundgraph graph -o evidence.json"))
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), help="File to write (default: stdout)."
)
@index_option
@click.pass_context
@friendly
def graph_command(ctx: click.Context, out: Path | None) -> None:
    """Write every node and edge with its provenance (sources and sentence spans) as JSON."""
    with open_graph(ctx) as graph:
        data = evidence_graph(graph.store)
    text = json.dumps(data, ensure_ascii=False)
    if out is None:
        click.echo(text)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"wrote {len(data['nodes'])} nodes and {len(data['edges'])} edges to {out}")
