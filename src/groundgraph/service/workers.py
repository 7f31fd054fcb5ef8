"""Several uvicorn worker processes over one PostgreSQL store: ``groundgraph serve
--workers N`` (``GROUNDGRAPH_SERVE_WORKERS``).

uvicorn starts each worker in a fresh process and builds its app there from an import
string, so the configuration goes to the workers the way a deploy gives it: as the
``GROUNDGRAPH_*`` environment variables :func:`service.serve.config_from` reads.
:func:`worker_environment` turns the command-line options into those variables (only in
the environment of the child processes; nothing is written to a file, and a keys file
passes by its path). Each worker opens its own store connection in :func:`worker_app`;
the PostgreSQL store keeps the caches of every process coherent (docs/postgres.md), so
any worker answers any request and any job. SQLite takes one writer and the service keeps
its indexes in memory, so over SQLite ``ServeConfig.check`` refuses more than one worker.

    run_workers(config, options, say)     # uvicorn's supervisor; returns when stopped
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from groundgraph.service.serve import ServeConfig

#: The factory uvicorn imports in each worker.
FACTORY = "groundgraph.service.workers:worker_app"

#: Command-line option -> the environment variable a worker reads it from.
VARIABLES = {
    "db": "GROUNDGRAPH_DB",
    "host": "GROUNDGRAPH_HOST",
    "port": "GROUNDGRAPH_PORT",
    "keys_file": "GROUNDGRAPH_KEYS_FILE",
    "allowed_hosts": "GROUNDGRAPH_ALLOWED_HOSTS",
    "cors_origins": "GROUNDGRAPH_CORS_ORIGINS",
    "max_body_bytes": "GROUNDGRAPH_MAX_BODY_BYTES",
    "timeout": "GROUNDGRAPH_TIMEOUT",
    "mcp": "GROUNDGRAPH_MCP",
    "mcp_writes": "GROUNDGRAPH_MCP_WRITES",
    "public_url": "GROUNDGRAPH_PUBLIC_URL",
    "ingest_roots": "GROUNDGRAPH_INGEST_ROOTS",
    "rate_limit": "GROUNDGRAPH_RATE_LIMIT",
    "embedder": "GROUNDGRAPH_EMBEDDER",
    "workers": "GROUNDGRAPH_SERVE_WORKERS",
}


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (tuple, list)):
        return os.pathsep.join(str(part) for part in value)
    return str(value)


def worker_environment(options: Mapping[str, Any]) -> dict[str, str]:
    """The ``GROUNDGRAPH_*`` variables that carry the given ``options`` (None or empty:
    not given, so the inherited environment decides) to the workers."""
    found = {}
    for name, variable in VARIABLES.items():
        value = options.get(name)
        if value is None or value == ():
            continue
        found[variable] = _text(value)
    return found


def worker_app() -> Any:
    """The app of one worker, from the environment: its own store connection, its own
    board of jobs (the jobs live in the store, so each worker reports every job)."""
    from groundgraph.service.serve import build_app, config_from, open_service

    config = config_from({"db": os.environ["GROUNDGRAPH_DB"]}, os.environ)
    service = open_service(config.db, config.embedder)
    atexit.register(service.close)
    return build_app(config, service, say=lambda line: None)


def run_workers(
    config: ServeConfig, options: Mapping[str, Any], say: Callable[[str], None]
) -> None:
    """Run ``config.workers`` uvicorn workers of :func:`worker_app` until stopped."""
    import uvicorn

    from groundgraph.model.masked import masked_location
    from groundgraph.service.serve import open_service

    # Made (or checked) once here, so the workers do not race to create the store, and a
    # wrong URL or embedder stops serve before any worker starts.
    open_service(config.db, config.embedder).close()
    os.environ.update(worker_environment({**options, "db": config.db}))
    say(
        f"groundgraph serve: {masked_location(config.db)} on http://{config.host}:{config.port} "
        f"({config.workers} workers)"
    )
    uvicorn.run(
        FACTORY,
        factory=True,
        workers=config.workers,
        host=config.host,
        port=config.port,
        log_level="warning",
    )
