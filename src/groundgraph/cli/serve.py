"""``groundgraph serve``: the HTTP API (memory routes, document and search routes) on uvicorn.

Needs the ``[service]`` extra (FastAPI, uvicorn): ``pip install 'groundgraph[service]'``.
"""

from __future__ import annotations

import json
import os
from typing import Any

import click

from groundgraph.cli.app import fail, friendly, main
from groundgraph.cli.verb_help import example_epilog
from groundgraph.index.embedders import EMBEDDER_NAMES

#: ``--embedder`` of the commands that serve the graph (``serve``, ``mcp``).
EMBEDDER_OPTION = click.option(
    "--embedder",
    type=click.Choice(EMBEDDER_NAMES),
    default=None,
    help="Embed documents and facts with this model (GROUNDGRAPH_EMBEDDER; else the "
    "store's own, if it recorded one).",
)


@main.command(
    "serve",
    epilog=example_epilog(
        "groundgraph --db memory.db serve --port 8000",
        "groundgraph serve --new-key acme/alice > alice.json   # a key and its keys-file entry",
        "GROUNDGRAPH_KEYS_FILE=keys.json groundgraph serve --host 0.0.0.0 --mcp",
        "groundgraph serve --ingest-root /srv/docs   # POST /jobs may index /srv/docs",
        "groundgraph --db postgresql://me@db/notes serve --workers 4",
    ),
)
@click.option("--host", default=None, help="Address to listen on (GROUNDGRAPH_HOST; 127.0.0.1).")
@click.option("--port", type=int, default=None, help="Port (GROUNDGRAPH_PORT; 8000).")
@click.option(
    "--keys",
    "keys_file",
    default=None,
    help="A JSON keys file (GROUNDGRAPH_KEYS_FILE); GROUNDGRAPH_KEYS holds the same JSON.",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    default=None,
    help="Host names the server answers to, comma-separated (GROUNDGRAPH_ALLOWED_HOSTS).",
)
@click.option(
    "--cors-origin",
    "cors_origins",
    default=None,
    help="Browser origins allowed to call, comma-separated (GROUNDGRAPH_CORS_ORIGINS; off).",
)
@click.option(
    "--max-body-bytes",
    type=int,
    default=None,
    help="Largest request body (GROUNDGRAPH_MAX_BODY_BYTES; 4 MiB).",
)
@click.option("--timeout", type=float, default=None, help="Seconds a read may take (30).")
@click.option(
    "--mcp/--no-mcp", "mcp", default=None, help="Also serve MCP at /mcp (GROUNDGRAPH_MCP)."
)
@click.option(
    "--mcp-writes",
    is_flag=True,
    default=None,
    help="MCP with its write tools (push_memory, ...; GROUNDGRAPH_MCP_WRITES).",
)
@click.option(
    "--public-url",
    default=None,
    help="Where clients reach the server, e.g. https://memory.example.org "
    "(GROUNDGRAPH_PUBLIC_URL).",
)
@click.option(
    "--ingest-root",
    "ingest_roots",
    multiple=True,
    help="A folder POST /jobs may index files under (repeatable; GROUNDGRAPH_INGEST_ROOTS).",
)
@click.option(
    "--rate-limit",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="At most N requests a minute per key, or per client address without keys "
    "(GROUNDGRAPH_RATE_LIMIT; off); over it, 429 with Retry-After.",
)
@EMBEDDER_OPTION
@click.option(
    "--workers",
    type=int,
    default=None,
    metavar="N",
    help="uvicorn worker processes (GROUNDGRAPH_SERVE_WORKERS; 1); more than one needs a "
    "PostgreSQL store: SQLite serves from one process.",
)
@click.option(
    "--new-key",
    "new_key_scopes",
    default=None,
    metavar="SCOPES",
    help="Print a new key for these comma-separated scopes ('*': all) and its keys-file "
    "entry, then exit.",
)
@click.option("--read-only", is_flag=True, help="With --new-key: a read-only key.")
@click.pass_context
@friendly
def serve_command(
    ctx: click.Context,
    host: str | None,
    port: int | None,
    keys_file: str | None,
    allowed_hosts: str | None,
    cors_origins: str | None,
    max_body_bytes: int | None,
    timeout: float | None,
    mcp: bool | None,
    mcp_writes: bool | None,
    public_url: str | None,
    ingest_roots: tuple[str, ...],
    rate_limit: int | None,
    embedder: str | None,
    workers: int | None,
    new_key_scopes: str | None,
    read_only: bool,
) -> None:
    """Serve the memory and the documents over HTTP (FastAPI on uvicorn), scoped by API key.

    On 127.0.0.1 it starts without keys and says so; on any other address it refuses to
    start without keys. Each key is bound to scopes and to read-only or read-write; send
    it as 'Authorization: Bearer KEY' or 'X-API-Key: KEY'. Routes: docs/service.md.
    """
    from groundgraph.service.keys import hash_key, new_key

    if new_key_scopes is not None:
        key = new_key()
        scopes = [s.strip() for s in new_key_scopes.split(",") if s.strip()]
        entry = {
            "name": f"key-{hash_key(key)[:8]}",
            "sha256": hash_key(key),
            "scopes": scopes,
            "access": "read-only" if read_only else "read-write",
        }
        click.echo(json.dumps({"key": key, "entry": entry}, indent=2))
        return
    try:
        from groundgraph.service.serve import config_from, serve
    except ImportError as error:
        fail(f"{error.name} is missing: pip install 'groundgraph[service]'")
        return
    options: dict[str, Any] = {
        "db": ctx.obj["db"],
        "host": host,
        "port": port,
        "keys_file": keys_file,
        "allowed_hosts": allowed_hosts,
        "cors_origins": cors_origins,
        "max_body_bytes": max_body_bytes,
        "timeout": timeout,
        "mcp": mcp,
        "mcp_writes": mcp_writes or None,
        "public_url": public_url,
        "ingest_roots": ingest_roots,
        "rate_limit": rate_limit,
        "embedder": embedder,
        "workers": workers,
    }
    config = config_from(options, os.environ)
    serve(config, say=lambda line: click.echo(line, err=True), options=options)
