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

from groundgraph.cli.app import friendly, main, open_graph
from groundgraph.cli.verb_help import verb_command, verb_option
from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.graph import DocumentGraph
from groundgraph.index.embedders import EMBEDDER_NAMES, embedder_named
from groundgraph.model import to_json

F = TypeVar("F", bound=Callable[..., Any])
MAX_STDIN_CHARS = 10_000_000
#: The verb whose read options (scopes, isolate, as_of, include_superseded) the help shows.
READS = "query_detailed"


@contextmanager
def memory_graph(
    ctx: click.Context, *, create: bool = False, **options: Any
) -> Iterator[DocumentGraph]:
    """The graph in ``--db`` for a memory command (only ``add`` and ``load`` make a store)."""
    with open_graph(ctx, create=create, **options) as graph:
        yield graph


def emit(data: Any) -> None:
    click.echo(json.dumps(to_json(data), indent=2, ensure_ascii=False))


def read_options(command: F) -> F:
    """The read options every memory read takes; their help is query_detailed's."""
    for option in reversed(
        [
            verb_option("--scope", "scopes", verb=READS, param="scopes", multiple=True),
            verb_option("--isolate/--no-isolate", verb=READS, param="isolate"),
            verb_option("--as-of", verb=READS, param="as_of"),
            verb_option(
                "--include-superseded", verb=READS, param="include_superseded", is_flag=True
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


@verb_command(
    memory,
    "add",
    verb="add_texts",
    example=("groundgraph memory add 'Alice leads the Atlas team.' --scope acme/team-a",),
)
@click.argument("texts", nargs=-1, required=True)
@verb_option("--scope", "scopes", verb="add_texts", param="scopes", multiple=True)
@verb_option("--source", verb="add_texts", param="source")
@click.option("--no-causal", is_flag=True, help="Do not look for cause -> effect pairs.")
@verb_option("--dedup", verb="add_texts", param="dedup_threshold", type=float)
@click.option("--no-resolve", is_flag=True, help="Do not check for contradicted facts.")
@click.option(
    "--embedder",
    type=click.Choice(EMBEDDER_NAMES),
    default=None,
    help="Embed each fact with this model, kept in the store (as index --embedder).",
)
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
    embedder: str | None,
    as_json: bool,
) -> None:
    """One fact per argument; '-' reads one fact per line from stdin."""
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
    embed = embedder_named(embedder) if embedder else None
    with memory_graph(ctx, create=True, embed=embed) as graph:
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


@verb_command(
    memory,
    "query",
    verb="query_detailed",
    example="groundgraph memory query 'who leads Atlas?' -k 3",
)
@click.argument("query")
@verb_option("--top-k", "-k", verb="query_detailed", param="top_k", show_default=True)
@verb_option("--hops", verb="query_detailed", param="hops", show_default=True)
@verb_option("--recency", verb="query_detailed", param="recency_weight", show_default=True)
@verb_option("--mode", "search_mode", verb="query_detailed", param="search_mode", show_default=True)
@read_options
@click.pass_context
@friendly
def query_command(
    ctx: click.Context,
    query: str,
    top_k: int,
    hops: int,
    recency: float,
    search_mode: str,
    scopes: tuple[str, ...],
    isolate: bool | None,
    as_of: str | None,
    include_superseded: bool,
    as_json: bool,
) -> None:
    with memory_graph(ctx) as graph:
        found = graph.query_detailed(
            query,
            top_k=top_k,
            hops=hops,
            recency_weight=recency,
            search_mode=search_mode,
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


@verb_command(
    memory, "discover", verb="discover", example="groundgraph memory discover Atlas --json"
)
@click.argument("query")
@verb_option("--top-k", "-k", verb="discover", param="top_k", show_default=True)
@verb_option("--hops", verb="discover", param="hops", show_default=True)
@verb_option("--max-results", verb="discover", param="max_results", show_default=True)
@verb_option("--mode", "search_mode", verb="discover", param="search_mode", show_default=True)
@read_options
@click.pass_context
@friendly
def discover_command(
    ctx: click.Context,
    query: str,
    top_k: int,
    hops: int,
    max_results: int,
    search_mode: str,
    scopes: tuple[str, ...],
    isolate: bool | None,
    as_of: str | None,
    include_superseded: bool,
    as_json: bool,
) -> None:
    with memory_graph(ctx) as graph:
        found = graph.discover(
            query,
            top_k=top_k,
            hops=hops,
            max_results=max_results,
            search_mode=search_mode,
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


@verb_command(
    memory,
    "forget",
    verb="delete",
    example=(
        "groundgraph memory forget 'Alice leads the Atlas team.'",
        "groundgraph memory forget --stale --after 30",
    ),
)
@click.argument("facts", nargs=-1)
@verb_option("--purge", verb="delete", param="purge_orphans", is_flag=True)
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
    """FACTS by id or text; or, with --stale, every fact unread for --after days."""
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


@verb_command(
    memory, "answer", verb="answer", example="groundgraph memory answer 'who leads Atlas?'"
)
@click.argument("query")
@verb_option("--top-k", "-k", verb="answer", param="top_k", show_default=True)
@verb_option("--mode", "search_mode", verb="answer", param="search_mode", show_default=True)
@verb_option(
    "--discover/--no-discover", "use_discover", verb="answer", param="use_discover", default=True
)
@verb_option("--max-results", verb="answer", param="max_results", show_default=True)
@read_options
@click.pass_context
@friendly
def answer_command(
    ctx: click.Context,
    query: str,
    top_k: int,
    search_mode: str,
    use_discover: bool,
    max_results: int,
    scopes: tuple[str, ...],
    isolate: bool | None,
    as_of: str | None,
    include_superseded: bool,
    as_json: bool,
) -> None:
    with memory_graph(ctx) as graph:
        result = graph.answer(
            query,
            top_k=top_k,
            search_mode=search_mode,
            use_discover=use_discover,
            max_results=max_results,
            **reads(scopes, isolate, as_of, include_superseded),
        )
    if as_json:
        emit(result)
        return
    click.echo(result["answer"] or "the memory holds nothing on that")
    for sentence in result["sentences"]:
        click.echo(f"  [{', '.join(sentence['factIds'])}] {sentence['share']:.2f}")


@verb_command(
    memory, "load", verb="load_dataset", example="groundgraph memory load NAME --scope demo"
)
@click.argument("name")
@verb_option("--scope", "scopes", verb="load_dataset", param="scopes", multiple=True)
@click.pass_context
@friendly
def load_command(ctx: click.Context, name: str, scopes: tuple[str, ...]) -> None:
    with memory_graph(ctx, create=True) as graph:
        facts = graph.load_dataset(name, scopes=list(scopes) or None)
    click.echo(f"loaded {len(facts)} facts from {name}")
