"""The ``groundgraph`` command line: one subcommand per verb of the Python API."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import click

from groundgraph.errors import FormatError, GroundgraphError, InputTooLargeError, NotFoundError
from groundgraph.graph import DocumentGraph
from groundgraph.ingest import SkippedFile, parse_file, plan_folder
from groundgraph.records import Hit

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_DB = "groundgraph.db"
MAX_IMPORT_BYTES = 1 << 30


def _fail(message: str, code: int = 2) -> None:
    click.secho(f"error: {message}", fg="red", err=True)
    sys.exit(code)


def friendly(command: F) -> F:
    """Turn groundgraph's errors into one clear line and a non-zero exit, no traceback."""

    @wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except NotFoundError as exc:
            _fail(str(exc), 3)
        except GroundgraphError as exc:
            _fail(str(exc))
        except OSError as exc:
            _fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), 4)
        return None

    return run  # type: ignore[return-value]


@contextmanager
def open_graph(ctx: click.Context) -> Iterator[DocumentGraph]:
    db = ctx.obj["db"]
    graph = DocumentGraph(db, language=ctx.obj["language"])
    try:
        yield graph
    finally:
        graph.close()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    envvar="GROUNDGRAPH_DB",
    default=DEFAULT_DB,
    show_default=True,
    help="The store: a SQLite file (also from GROUNDGRAPH_DB).",
)
@click.option("--language", default=None, help="Stemming language of a new store (english).")
@click.version_option(package_name="groundgraph")
@click.pass_context
def main(ctx: click.Context, db: str, language: str | None) -> None:
    """Index documents into a graph and search it, with an explanation for every hit."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db
    ctx.obj["language"] = language


def example_folder() -> Path:
    """The bundled example documents."""
    return Path(str(resources.files("groundgraph") / "examples"))


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--example", is_flag=True, help="Index the bundled example documents.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
@friendly
def index(
    ctx: click.Context, paths: tuple[Path, ...], example: bool, quiet: bool, as_json: bool
) -> None:
    """Index files and folders (.md .markdown .txt .jsonl); the same document id replaces."""
    targets = list(paths) + ([example_folder()] if example else [])
    if not targets:
        _fail("name files or folders to index, or pass --example")
    for path in targets:
        if not path.exists():
            _fail(f"{path} does not exist: check the path")
    files, skipped = plan_folder(targets)
    added = 0
    with open_graph(ctx) as graph:
        show = not quiet and not as_json and sys.stderr.isatty()
        with click.progressbar(files, label="indexing", file=sys.stderr, hidden=not show) as bar:
            for planned in bar:
                try:
                    parsed = parse_file(planned, max_chunk_chars=graph.settings.max_chunk_chars)
                except GroundgraphError as exc:
                    skipped.append(SkippedFile(str(planned.path), str(exc)))
                    continue
                except OSError as exc:
                    skipped.append(SkippedFile(str(planned.path), f"cannot read it: {exc}"))
                    continue
                for document in parsed:
                    graph.add_parsed(document)
                    added += 1
        graph.save_index()
        stats = graph.stats()
    summary = {
        "documents": added,
        "store": {k: stats[k] for k in ("documents", "nodes", "edges", "edgeTypes")},
        "skipped": [{"path": str(s.path), "reason": s.reason} for s in skipped],
    }
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(
        f"indexed {added} documents; the store now holds {stats['documents']} documents, "
        f"{stats['nodes']} nodes, {stats['edges']} edges"
    )
    for kind, count in sorted(stats["edgeTypes"].items()):
        click.echo(f"  {kind:<13} {count}")
    if skipped:
        click.echo(f"skipped {len(skipped)} files:")
        for item in skipped:
            click.echo(f"  {item.path}: {item.reason}")


def _how(hit: Hit) -> str:
    if hit.via is None:
        return "direct match"
    return f"{hit.edge_type} from {hit.via}"


def _print_hits(hits: list[Hit], explain: bool) -> None:
    if not hits:
        click.echo("no hits")
        return
    width = max(len(h.node_id) for h in hits)
    click.echo(f"{'score':>6}  {'node':<{width}}  {'title':<30}  how it was reached")
    for hit in hits:
        title = hit.title if len(hit.title) <= 30 else hit.title[:29] + "…"
        click.echo(f"{hit.score:6.3f}  {hit.node_id:<{width}}  {title:<30}  {_how(hit)}")
        if explain:
            if len(hit.path) > 1:
                steps = [hit.path[0]]
                for kind, node in zip(hit.edge_types, hit.path[1:], strict=True):
                    steps.append(f"-[{kind}]-> {node}")
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
        )
    if as_json:
        click.echo(json.dumps([h.to_dict() for h in hits], indent=2, ensure_ascii=False))
    else:
        _print_hits(hits, explain)


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
) -> None:
    """Print the hits as '### title [nodeId]' blocks to hand to a language model."""
    with open_graph(ctx) as graph:
        text = graph.retrieve(
            query,
            max_results=max_results,
            max_hops=max_hops,
            max_seeds=max_seeds,
            doc_ids=doc_ids or None,
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
        view = graph.show(node_id)
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


@main.command()
@click.argument("doc_ids", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@friendly
def remove(ctx: click.Context, doc_ids: tuple[str, ...], as_json: bool) -> None:
    """Remove documents and everything that touches them."""
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


@main.command("export")
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), help="File to write (default: stdout)."
)
@click.pass_context
@friendly
def export_command(ctx: click.Context, out: Path | None) -> None:
    """Write the graph as graph-of-thought v2 JSON."""
    with open_graph(ctx) as graph:
        data = graph.to_json()
    text = json.dumps(data, ensure_ascii=False)
    if out is None:
        click.echo(text)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"wrote {len(data['documents'])} documents, {len(data['nodes'])} nodes to {out}")


@main.command("import")
@click.argument("file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.pass_context
@friendly
def import_command(ctx: click.Context, file: Path) -> None:
    """Load a graph-of-thought v2 JSON file; documents with the same ids are replaced."""
    size = file.stat().st_size
    if size > MAX_IMPORT_BYTES:
        raise InputTooLargeError(str(file), size, MAX_IMPORT_BYTES, "split the graph")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FormatError(f"{file} is not UTF-8 JSON ({exc}); export it again") from exc
    with open_graph(ctx) as graph:
        added = graph.load_json(data)
    click.echo(f"imported {len(added)} documents from {file}")


@main.command()
@click.option("--docs", is_flag=True, help="List the documents too.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
@friendly
def stats(ctx: click.Context, docs: bool, as_json: bool) -> None:
    """Counts of documents, nodes, edges by type and terms."""
    with open_graph(ctx) as graph:
        figures = graph.stats()
        documents = graph.documents() if docs else []
    if as_json:
        click.echo(
            json.dumps({**figures, "documentList": documents} if docs else figures, indent=2)
        )
        return
    click.echo(f"store      {ctx.obj['db']}")
    for key in ("documents", "nodes", "edges", "terms", "language"):
        click.echo(f"{key:<10} {figures[key]}")
    for kind, count in sorted(figures["edgeTypes"].items()):
        click.echo(f"  {kind:<13} {count}")
    for d in documents:
        click.echo(f"[{d['docId']}] {d['title']} ({d['nodes']} nodes)")


def run() -> None:  # pragma: no cover - console entry for python -m
    main(prog_name="groundgraph", obj={})


if __name__ == "__main__":  # pragma: no cover
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    run()
