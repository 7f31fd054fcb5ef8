"""Serving: the configuration of ``groundgraph serve`` (flags, else environment), the
refusal to listen off loopback without keys, and uvicorn.

Environment: ``GROUNDGRAPH_DB``, ``GROUNDGRAPH_HOST`` (127.0.0.1), ``GROUNDGRAPH_PORT``
(8000), ``GROUNDGRAPH_KEYS`` (the JSON of a keys file), ``GROUNDGRAPH_KEYS_FILE``,
``GROUNDGRAPH_ALLOWED_HOSTS`` and ``GROUNDGRAPH_CORS_ORIGINS`` (comma-separated),
``GROUNDGRAPH_MAX_BODY_BYTES``, ``GROUNDGRAPH_TIMEOUT`` (seconds), ``GROUNDGRAPH_MCP`` and
``GROUNDGRAPH_MCP_WRITES`` (``1``: serve MCP at ``/mcp``, with its write tools),
``GROUNDGRAPH_PUBLIC_URL`` (where clients reach the server, for MCP's resource metadata),
``GROUNDGRAPH_INGEST_ROOTS`` (folders ``POST /jobs`` may index, separated by ``os.pathsep``),
``GROUNDGRAPH_RATE_LIMIT`` (requests a minute per key or client address; off),
``GROUNDGRAPH_EMBEDDER`` (an embedder by name, ``index.embedders``; else the store's own),
``GROUNDGRAPH_SERVE_WORKERS`` (uvicorn worker processes, 1; more only over PostgreSQL:
``service.workers``).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from groundgraph.errors import InputError
from groundgraph.index.embedders import EMBEDDER_NAMES, embedder_named, is_registered
from groundgraph.model.masked import masked_location
from groundgraph.service.guard import LOOPBACK_HOSTS
from groundgraph.service.keys import KeyRing
from groundgraph.service.limits import Limits
from groundgraph.service.rate_limit import check_rate

if TYPE_CHECKING:
    from groundgraph.service.memory_service import MemoryService


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _names(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


@dataclass(frozen=True)
class ServeConfig:
    """Everything ``groundgraph serve`` needs; see :func:`config_from`."""

    db: str
    host: str = "127.0.0.1"
    port: int = 8000
    keys: KeyRing = field(default_factory=KeyRing)
    allowed_hosts: tuple[str, ...] = ()
    cors_origins: tuple[str, ...] = ()
    limits: Limits = field(default_factory=Limits)
    mcp: bool = False
    mcp_writes: bool = False
    public_url: str | None = None
    ingest_roots: tuple[str, ...] = ()
    #: Requests a minute per key (or client address); None: no limit.
    rate_limit: int | None = None
    #: The embedder's registered name (None: the one the store recorded, if any).
    embedder: str | None = None
    #: uvicorn worker processes; more than one only over PostgreSQL.
    workers: int = 1

    def check(self) -> list[str]:
        """Refuse an open server off loopback; the notes to print at start otherwise."""
        notes = []
        if self.workers < 1:
            raise InputError(f"--workers must be 1 or more, not {self.workers}")
        if self.workers > 1 and not self.db.startswith(("postgresql://", "postgres://")):
            raise InputError(
                f"--workers {self.workers} needs a PostgreSQL store (--db postgresql://...): "
                "SQLite takes one writer and the service keeps its indexes in memory, so over "
                "SQLite serve runs one worker (--workers 1, the default)"
            )
        if not self.keys:
            if not is_loopback(self.host):
                raise InputError(
                    f"refusing to listen on {self.host} without API keys: anyone who can reach "
                    "the port could read and change the memory. Give keys (--keys FILE or "
                    "GROUNDGRAPH_KEYS; groundgraph serve --new-key makes one) or listen on "
                    "127.0.0.1"
                )
            notes.append(
                "no API keys: every caller on this machine may read and write (loopback only)"
            )
        else:
            notes.append(f"{len(self.keys.keys)} API key(s); every route but the probes needs one")
        if not self.host_check() and not is_loopback(self.host):
            notes.append("no GROUNDGRAPH_ALLOWED_HOSTS: any Host header is accepted")
        if self.rate_limit is not None:
            per = "key" if self.keys else "client address"
            each = f" in each of {self.workers} workers" if self.workers > 1 else ""
            notes.append(f"rate limit: {self.rate_limit:,} requests a minute per {per}{each}")
        return notes

    def host_check(self) -> tuple[str, ...] | None:
        """The Host names the guard accepts (None: any)."""
        if is_loopback(self.host):
            return (*LOOPBACK_HOSTS, *self.allowed_hosts)
        return self.allowed_hosts or None


def _flag(value: str) -> bool:
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(value)


def config_from(options: Mapping[str, Any], env: Mapping[str, str]) -> ServeConfig:
    """A ServeConfig from command-line ``options`` (None: not given) and ``env``."""

    def pick(name: str, variable: str, default: Any, cast: Callable[[str], Any] = str) -> Any:
        value = options.get(name)
        if value is not None:
            return value
        raw = env.get(variable)
        if raw is None or raw == "":
            return default
        try:
            return cast(raw)
        except ValueError:
            raise InputError(f"{variable}={raw!r} is not a valid value") from None

    defaults = Limits()
    limits = Limits(
        max_body_bytes=pick("max_body_bytes", "GROUNDGRAPH_MAX_BODY_BYTES", 4 << 20, int),
        timeout_seconds=pick("timeout", "GROUNDGRAPH_TIMEOUT", defaults.timeout_seconds, float),
    )
    keys = KeyRing.load(
        pick("keys_file", "GROUNDGRAPH_KEYS_FILE", None), env.get("GROUNDGRAPH_KEYS")
    )
    return ServeConfig(
        db=str(options["db"]),
        host=pick("host", "GROUNDGRAPH_HOST", "127.0.0.1"),
        port=pick("port", "GROUNDGRAPH_PORT", 8000, int),
        keys=keys,
        allowed_hosts=_names(pick("allowed_hosts", "GROUNDGRAPH_ALLOWED_HOSTS", "")),
        cors_origins=_names(pick("cors_origins", "GROUNDGRAPH_CORS_ORIGINS", "")),
        limits=limits,
        mcp=pick("mcp", "GROUNDGRAPH_MCP", False, _flag),
        mcp_writes=pick("mcp_writes", "GROUNDGRAPH_MCP_WRITES", False, _flag),
        public_url=pick("public_url", "GROUNDGRAPH_PUBLIC_URL", None),
        ingest_roots=tuple(options.get("ingest_roots") or ())
        or tuple(p for p in env.get("GROUNDGRAPH_INGEST_ROOTS", "").split(os.pathsep) if p),
        rate_limit=check_rate(
            pick("rate_limit", "GROUNDGRAPH_RATE_LIMIT", None, int),
            "--rate-limit" if options.get("rate_limit") is not None else "GROUNDGRAPH_RATE_LIMIT",
        ),
        embedder=embedder_from(options.get("embedder"), env),
        workers=pick("workers", "GROUNDGRAPH_SERVE_WORKERS", 1, int),
    )


def embedder_from(option: str | None, env: Mapping[str, str]) -> str | None:
    """The embedder named by ``--embedder``, else ``GROUNDGRAPH_EMBEDDER`` (None: not
    named, or ``none``); a name that is not registered is an InputError naming the
    setting and the names it takes."""
    given = option if option is not None else env.get("GROUNDGRAPH_EMBEDDER") or None
    if given is None or given == "none":
        return None
    if not is_registered(given):
        where = "--embedder" if option is not None else "GROUNDGRAPH_EMBEDDER"
        raise InputError(
            f"{where}={given[:100]!r} is not an embedder: use one of {', '.join(EMBEDDER_NAMES)}"
        )
    return given


def open_service(db: str, embedder: str | None, **options: Any) -> MemoryService:
    """The service over the store ``db``, embedding with ``embedder`` (a registered name;
    None: the store's own embedder, if it recorded one)."""
    from groundgraph.service.memory_service import MemoryService

    embed = embedder_named(embedder) if embedder is not None else None
    return MemoryService(path=db, embed=embed, **options)


def build_app(config: ServeConfig, service: MemoryService, say: Callable[[str], None]) -> Any:
    """The ASGI app ``serve`` runs over ``service``: the HTTP routes, MCP at ``/mcp`` when
    asked, one board of ingest jobs for both, the rate limit."""
    from groundgraph.service.http_app import create_app
    from groundgraph.service.jobs import IngestJobs

    # One board of jobs for the routes and the MCP tools: each reports the other's jobs.
    jobs = IngestJobs(service, config.ingest_roots)
    mcp = None
    if config.mcp or config.mcp_writes:
        from groundgraph.service.mcp_server import create_mcp

        public = config.public_url or f"http://{config.host}:{config.port}"
        mcp = create_mcp(
            service, writes=config.mcp_writes, keys=config.keys, public_url=public, jobs=jobs
        )
        tools = "with write tools" if config.mcp_writes else "read tools only"
        say(f"groundgraph serve: MCP at /mcp ({tools})")
    app = create_app(
        service,
        keys=config.keys,
        limits=config.limits,
        allowed_hosts=config.host_check(),
        cors_origins=config.cors_origins,
        mcp=mcp,
        jobs=jobs,
        rate_limit=config.rate_limit,
    )
    for root in config.ingest_roots:
        say(f"groundgraph serve: POST /jobs may index files under {root}")
    if config.embedder is not None:
        say(f"groundgraph serve: embedding with {config.embedder}")
    return app


def serve(
    config: ServeConfig,
    say: Callable[[str], None] = print,
    options: Mapping[str, Any] | None = None,
) -> None:
    """Open the store, build the app and run uvicorn until stopped: one process, or with
    ``config.workers`` over PostgreSQL that many (``service.workers``; ``options``, the
    command line's, go to them as environment variables)."""
    import uvicorn

    for note in config.check():
        say(f"groundgraph serve: {note}")
    if config.workers > 1:
        from groundgraph.service.workers import run_workers

        run_workers(config, options or {}, say)
        return
    with open_service(config.db, config.embedder) as service:
        app = build_app(config, service, say)
        say(
            f"groundgraph serve: {masked_location(config.db)} on http://{config.host}:{config.port}"
        )
        uvicorn.run(app, host=config.host, port=config.port, log_level="warning")
