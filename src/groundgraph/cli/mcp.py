"""``groundgraph mcp``: the MCP server over stdio, for an agent that starts it as a
subprocess (the same tools as ``groundgraph serve --mcp`` serves at ``/mcp``).

Needs the ``[service]`` extra (the ``mcp`` SDK, 2.x).
"""

from __future__ import annotations

import os

import click

from groundgraph.cli.app import fail, friendly, main
from groundgraph.cli.serve import EMBEDDER_OPTION
from groundgraph.cli.verb_help import example_epilog


@main.command(
    "mcp",
    epilog=example_epilog(
        "groundgraph --db memory.db mcp",
        "groundgraph --db memory.db mcp --writes   # with push_memory, update_memory, ...",
        "groundgraph mcp --writes --ingest-root ~/notes   # got_ingest_folder may index ~/notes",
    ),
)
@click.option(
    "--writes",
    is_flag=True,
    help="Also give the tools that change memory and documents (push_memory, "
    "update_memory, delete_memory, forget_stale, got_add_document, got_remove_document, "
    "got_ingest_folder).",
)
@click.option(
    "--ingest-root",
    "ingest_roots",
    multiple=True,
    help="A folder got_ingest_folder may index files under (repeatable; GROUNDGRAPH_INGEST_ROOTS).",
)
@EMBEDDER_OPTION
@click.pass_context
@friendly
def mcp_command(
    ctx: click.Context, writes: bool, ingest_roots: tuple[str, ...], embedder: str | None
) -> None:
    """Serve ReasonGraph's memory tools and the graph tools over MCP on stdio.

    The caller is the local user: every scope. Tools that change anything are left out
    unless --writes is given. Over HTTP, with keys, use groundgraph serve --mcp.
    """
    try:
        from groundgraph.service.jobs import IngestJobs
        from groundgraph.service.mcp_server import create_mcp
        from groundgraph.service.serve import embedder_from, open_service
    except ImportError as error:
        fail(f"{error.name} is missing: pip install 'groundgraph[service]'")
        return
    roots = ingest_roots or tuple(
        p for p in os.environ.get("GROUNDGRAPH_INGEST_ROOTS", "").split(os.pathsep) if p
    )
    named = embedder_from(embedder, os.environ)
    with open_service(ctx.obj["db"], named, language=ctx.obj["language"]) as service:
        jobs = IngestJobs(service, roots)
        try:
            create_mcp(service, writes=writes, jobs=jobs).run("stdio")
        finally:
            jobs.stop()
