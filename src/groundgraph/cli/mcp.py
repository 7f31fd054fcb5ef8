"""``groundgraph mcp``: the MCP server over stdio, for an agent that starts it as a
subprocess (the same tools as ``groundgraph serve --mcp`` serves at ``/mcp``).

Needs the ``[service]`` extra (the ``mcp`` SDK, 2.x).
"""

from __future__ import annotations

import click

from groundgraph.cli.app import fail, friendly, main
from groundgraph.cli.verb_help import example_epilog


@main.command(
    "mcp",
    epilog=example_epilog(
        "groundgraph --db memory.db mcp",
        "groundgraph --db memory.db mcp --writes   # with push_memory, update_memory, ...",
    ),
)
@click.option(
    "--writes",
    is_flag=True,
    help="Also give the tools that change memory and documents (push_memory, "
    "update_memory, delete_memory, forget_stale, got_add_document, got_remove_document).",
)
@click.pass_context
@friendly
def mcp_command(ctx: click.Context, writes: bool) -> None:
    """Serve ReasonGraph's memory tools and the graph tools over MCP on stdio.

    The caller is the local user: every scope. Tools that change anything are left out
    unless --writes is given. Over HTTP, with keys, use groundgraph serve --mcp.
    """
    try:
        from groundgraph.service.mcp_server import create_mcp
        from groundgraph.service.memory_service import MemoryService
    except ImportError as error:
        fail(f"{error.name} is missing: pip install 'groundgraph[service]'")
        return
    with MemoryService(path=ctx.obj["db"], language=ctx.obj["language"]) as service:
        create_mcp(service, writes=writes).run("stdio")
