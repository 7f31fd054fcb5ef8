"""``groundgraph memory``: agent memory from the command line, verb for verb with the API.

Every reading command takes ``--scope`` (repeatable; read as these scopes),
``--isolate`` (stay inside them), ``--as-of`` (ISO-8601 date or time) and ``--json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from groundgraph.cli.app import friendly, main
from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.graph import DocumentGraph
from groundgraph.model import to_json

F = TypeVar("F", bound=Callable[..., Any])
MAX_STDIN_CHARS = 10_000_000


@contextmanager
def memory_graph(ctx: click.Context, **options: Any) -> Iterator[DocumentGraph]:
    graph = DocumentGraph(ctx.obj["db"], language=ctx.obj["language"], **options)
    try:
        yield graph
    finally:
        graph.close()


def emit(data: Any) -> None:
    click.echo(json.dumps(to_json(data), indent=2, ensure_ascii=False))


def read_options(command: F) -> F:
    for option in reversed(
        [
            click.option(
                "--scope",
                "scopes",
                multiple=True,
                help="Read as this scope (repeat for several; a scope also reads its parents).",
            ),
            click.option(
                "--isolate/--no-isolate",
                default=None,
                help="Stay inside the scopes (default: the walk may cross into others).",
            ),
            click.option("--as-of", default=None, help="Answer as the memory stood then (ISO)."),
            click.option(
                "--include-superseded", is_flag=True, help="Also use retired (superseded) facts."
            ),
            click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts."),
        ]
    ):
        command = option(command)
    return command


def reads(
    scopes: tuple[str, ...], isolate: bool | None, as_of: str | None, superseded: bool
) -> dict[str, Any]:
    return {
        "scopes": list(scopes) or None,
        "isolate": isolate,
        "as_of": as_of,
        "include_superseded": superseded,
    }


@main.group("memory")
def memory() -> None:
    """Agent memory: facts with scopes, recall, causal traces, what-if and forgetting."""


@memory.command("add")
@click.argument("texts", nargs=-1, required=True)
@click.option("--scope", "scopes", multiple=True, help="A scope of the facts (repeatable).")
@click.option("--source", default="", help="Who or what said it (kept as provenance).")
@click.option("--no-causal", is_flag=True, help="Do not look for cause -> effect pairs.")
@click.option("--dedup", type=float, default=None, help="Near-duplicate threshold in (0, 1].")
@click.option("--no-resolve", is_flag=True, help="Do not check for contradicted facts.")
@click.option("--json", "as_json", is_flag=True, help="Print the facts as JSON.")
@click.pass_context
@friendly
def add_command(
    ctx: click.Context,
    texts: tuple[str, ...],
    scopes: tuple[str, ...],
    source: str,
    no_causal: bool,
    dedup: float | None,
    no_resolve: bool,
    as_json: bool,
) -> None:
    """Remember facts (one per argument; '-' reads one fact per line from stdin)."""
    facts_in: list[str] = []
    for text in texts:
        if text == "-":
            data = sys.stdin.read(MAX_STDIN_CHARS + 1)
            if len(data) > MAX_STDIN_CHARS:
                raise InputTooLargeError("standard input", len(data), MAX_STDIN_CHARS)
            facts_in.extend(line for line in data.splitlines() if line.strip())
        else:
            facts_in.append(text)
    if not facts_in:
        raise InputError("no facts given: pass them as arguments or one per line with '-'")
    with memory_graph(ctx) as graph:
        facts = graph.add_texts(
            facts_in,
            scopes=list(scopes) or None,
            causal=False if no_causal else None,
            dedup_threshold=dedup,
            resolve_conflicts=False if no_resolve else None,
            source=source,
        )
    if as_json:
        emit([f.to_dict() for f in facts])
        return
    for fact in facts:
        click.echo(f"{fact.status:<8} {fact.fact_id}  {fact.text}")
        for cause, effect in fact.causes:
            click.echo(f"{'':9}causes: {cause} -> {effect}")
        for old in fact.superseded:
            click.echo(f"{'':9}supersedes {old}")


@memory.command("query")
@click.argument("query")
@click.option("--top-k", "-k", default=5, show_default=True, help="Facts to return.")
@click.option("--hops", default=4, show_default=True, help="Fact-to-fact hops of the walk.")
@click.option("--recency", default=0.0, show_default=True, help="Weight of recency in [0, 1].")
@read_options
@click.pass_context
@friendly
def query_command(
    ctx: click.Context,
    query: str,
    top_k: int,
    hops: int,
    recency: float,
    scopes: tuple[str, ...],
    isolate: bool | None,
    as_of: str | None,
    include_superseded: bool,
    as_json: bool,
) -> None:
    """Recall the facts best for a query, each with how it was found."""
    with memory_graph(ctx) as graph:
        found = graph.query_detailed(
            query,
            top_k=top_k,
            hops=hops,
            recency_weight=recency,
            **reads(scopes, isolate, as_of, include_superseded),
        )
    if as_json:
        emit(found)
        return
    if not found:
        click.echo("no facts")
    for row in found:
        click.echo(f"{row['score']:6.3f}  {row['factId']}  {row['content']}")
        click.echo(f"{'':8}{_how(row['explanation']['path'])}{_scope_note(row)}")


def _how(path: list[dict[str, Any]]) -> str:
    if len(path) <= 1:
        return "direct match"
    steps = []
    for step in path[1:-1]:
        if "entity" in step:
            steps.append(f"entity {step['entity']!r}")
        elif "span" in step:
            steps.append(f"span {step['span']!r}")
        else:
            steps.append(step["factId"])
    return f"from {path[0]['factId']} via " + ", ".join(steps)


def _scope_note(row: Mapping[str, Any]) -> str:
    scopes = ", ".join(row.get("scopes", [])) or "no scope"
    cross = "; another scope" if row.get("crossScope") else ""
    retired = "; retired" if row.get("retired") else ""
    return f"  [{scopes}{cross}{retired}]"


@memory.command("discover")
@click.argument("query")
@click.option("--top-k", "-k", default=5, show_default=True, help="Facts to start from.")
@click.option("--hops", default=4, show_default=True, help="Fact-to-fact hops of the walk.")
@click.option("--max-results", default=10, show_default=True, help="Facts to return.")
@read_options
@click.pass_context
@friendly
def discover_command(
    ctx: click.Context,
    query: str,
    top_k: int,
    hops: int,
    max_results: int,
    scopes: tuple[str, ...],
    isolate: bool | None,
    as_of: str | None,
    include_superseded: bool,
    as_json: bool,
) -> None:
    """Facts and the paths that connect them, with their cause -> effect pairs."""
    with memory_graph(ctx) as graph:
        found = graph.discover(
            query,
            top_k=top_k,
            hops=hops,
            max_results=max_results,
            **reads(scopes, isolate, as_of, include_superseded),
        )
    if as_json:
        emit(found)
        return
    if not found:
        click.echo("no facts")
    for row in found:
        click.echo(f"{row['factId']}  {row['content']}{_scope_note(row)}")
        click.echo(f"{'':4}{_how(row['path'])}")
        for pair in row["causes"]:
            click.echo(f"{'':4}causes: {pair['cause']} -> {pair['effect']}")


@memory.command("history")
@click.argument("fact")
@click.option("--scope", "scopes", multiple=True, help="Read as this scope (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.pass_context
@friendly
def history_command(ctx: click.Context, fact: str, scopes: tuple[str, ...], as_json: bool) -> None:
    """What a fact replaced, what replaced it, and every change in its life."""
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


@memory.command("conflicts")
@click.option("--scope", "scopes", multiple=True, help="Read as this scope (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.pass_context
@friendly
def conflicts_command(ctx: click.Context, scopes: tuple[str, ...], as_json: bool) -> None:
    """The contradiction ledger: both facts, their provenance and the rule that fired."""
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


@memory.command("forget")
@click.argument("facts", nargs=-1)
@click.option("--purge", is_flag=True, help="Also erase them from the ledger and the indexes.")
@click.option("--stale", is_flag=True, help="Forget every fact unread for --after days.")
@click.option("--after", type=float, default=None, help="Days without a read (with --stale).")
@click.option("--json", "as_json", is_flag=True, help="Print the removal reports as JSON.")
@click.pass_context
@friendly
def forget_command(
    ctx: click.Context,
    facts: tuple[str, ...],
    purge: bool,
    stale: bool,
    after: float | None,
    as_json: bool,
) -> None:
    """Delete facts (by id or text) or, with --stale, those unread for --after days."""
    if stale == bool(facts):
        raise InputError("name facts to forget, or pass --stale --after DAYS (not both)")
    if stale and after is None:
        raise InputError("--stale needs --after DAYS")
    with memory_graph(ctx, forget_after=after) as graph:
        if stale:
            reports = graph.delete_stale()
        else:
            reports = [graph.delete(f, purge_orphans=purge) for f in facts]
    if as_json:
        emit(reports)
        return
    for report in reports:
        click.echo(
            f"removed {report['docId']}: {len(report['nodes'])} nodes, "
            f"{len(report['entities'])} entities, {len(report['edges'])} edges"
        )
    if not reports:
        click.echo("nothing to forget")


@memory.command("answer")
@click.argument("query")
@click.option("--top-k", "-k", default=5, show_default=True, help="Facts to answer from.")
@read_options
@click.pass_context
@friendly
def answer_command(
    ctx: click.Context,
    query: str,
    top_k: int,
    scopes: tuple[str, ...],
    isolate: bool | None,
    as_of: str | None,
    include_superseded: bool,
    as_json: bool,
) -> None:
    """An answer from the recalled facts (no model), each sentence with its fact."""
    with memory_graph(ctx) as graph:
        result = graph.answer(
            query, top_k=top_k, **reads(scopes, isolate, as_of, include_superseded)
        )
    if as_json:
        emit(result)
        return
    click.echo(result["answer"] or "the memory holds nothing on that")
    for sentence in result["sentences"]:
        click.echo(f"  [{', '.join(sentence['factIds'])}] {sentence['share']:.2f}")


@memory.command("load")
@click.argument("name")
@click.option("--scope", "scopes", multiple=True, help="Give every fact these scopes instead.")
@click.pass_context
@friendly
def load_command(ctx: click.Context, name: str, scopes: tuple[str, ...]) -> None:
    """Add a built-in dataset's facts (see groundgraph.memory.dataset_names())."""
    with memory_graph(ctx) as graph:
        facts = graph.load_dataset(name, scopes=list(scopes) or None)
    click.echo(f"loaded {len(facts)} facts from {name}")
