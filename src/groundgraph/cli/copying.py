"""``groundgraph copy SRC DST``: one store into another (SQLite and PostgreSQL, either way)."""

from __future__ import annotations

from collections.abc import Callable

import click

from groundgraph.cli.app import friendly, main
from groundgraph.cli.verb_help import example_epilog


@main.command(
    "copy",
    epilog=example_epilog(
        "groundgraph copy notes.db postgresql://me@db.example.org/notes",
        "groundgraph copy postgresql://me@db.example.org/notes?schema=team backup.db",
    ),
)
@click.argument("source")
@click.argument("target")
@click.option("--batch", default=200, show_default=True, help="Documents per transaction.")
@click.option("--quiet", is_flag=True, help="Print only the summary, no progress.")
@friendly
def copy_command(source: str, target: str, batch: int, quiet: bool) -> None:
    """Copy the store SOURCE into TARGET (a SQLite file or a postgresql:// URL): documents,
    nodes, edges, entities, settings, memory's ledger and vectors, in batches. TARGET must
    be new and empty, or a copy of SOURCE that stopped: run the same command again and it
    goes on from where it stopped. --db is not used."""
    from groundgraph.store import open_store
    from groundgraph.store.copy import copy_store

    def progress(stage: str, count: int) -> None:
        if not quiet:
            click.echo(f"{stage}: {count}", err=True)

    src = open_store(source, create=False)
    try:
        dst = open_store(target, create=True)
        try:
            report = copy_store(src, dst, batch=batch, progress=progress)
        finally:
            dst.close()
    finally:
        src.close()
    _derive_index(target, progress)
    click.echo(report.summary())


def _derive_index(target: str, progress: Callable[[str, int], None]) -> None:
    """Derive the copy's lexical index snapshot now, at its own generation (the copy
    carries no derived state): else every process that opens the copy and never closes
    it cleanly, or only reads, derives it again (8 s at 100k sections)."""
    from groundgraph import DocumentGraph

    with DocumentGraph(target) as graph:
        graph.save_index()
        progress("index snapshot, nodes", int(graph.stats()["nodes"]))
