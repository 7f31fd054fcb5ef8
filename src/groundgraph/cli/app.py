"""The ``groundgraph`` command group, its options and the error handling every command shares."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

import click

from groundgraph import __version__
from groundgraph.cli.lazy_group import LazyGroup
from groundgraph.errors import GroundgraphError, NoStoreError, NotFoundError
from groundgraph.model.masked import mask_passwords

if TYPE_CHECKING:
    from groundgraph.graph import DocumentGraph

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_DB = "groundgraph.db"


def fail(message: str, code: int = 2) -> None:
    # A message may name the store by its URL: never with its password.
    click.secho(f"error: {mask_passwords(message)}", fg="red", err=True)
    sys.exit(code)


#: Exit codes (docs/cli.md): 2 bad input or store, 3 not found, 4 unreadable file, 70 a bug
#: (BSD's EX_SOFTWARE), 141 the reader of the output went away (128 + SIGPIPE, as shells).
BUG_EXIT = 70
BROKEN_PIPE_EXIT = 141


def friendly(command: F) -> F:
    """Turn groundgraph's errors into one clear line and a non-zero exit, no traceback.

    An error that is not one of ours is a bug: one line that says so and how to report it,
    exit 70; ``groundgraph --debug`` shows its traceback instead. A closed pipe (``| head``)
    ends quietly with 141."""

    @wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except NotFoundError as exc:
            fail(str(exc), 3)
        except GroundgraphError as exc:
            fail(str(exc))
        except BrokenPipeError:
            _quiet_broken_pipe()
        except OSError as exc:
            fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), 4)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as exc:
            if _debugging():
                raise
            fail(
                f"internal error ({type(exc).__name__}: {exc}). This is a bug in groundgraph: "
                "run the command again with `groundgraph --debug ...` and report the traceback",
                BUG_EXIT,
            )
        return None

    return run  # type: ignore[return-value]


def _debugging() -> bool:
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and (ctx.find_root().obj or {}).get("debug"))


def _quiet_broken_pipe() -> None:
    # Whatever is still buffered would fail again at exit: send it nowhere.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(BROKEN_PIPE_EXIT)


@contextmanager
def open_graph(
    ctx: click.Context, *, create: bool = False, embedder: str | None = None, **options: Any
) -> Iterator[DocumentGraph]:
    """The graph in ``--db``. Only a command that adds (``create``) makes a new store: any
    other names an existing one, or fails saying so (exit 3) and leaves no file behind.
    ``embedder`` names one (``index.embedders``) to embed with, else the store's own (if it
    recorded one) is used."""
    from groundgraph.graph import DocumentGraph  # here, so `--version` does not load the graph
    from groundgraph.store import open_store

    db = ctx.obj["db"]
    if embedder:
        from groundgraph.index.embedders import embedder_named

        options["embed"] = embedder_named(embedder)
    try:
        store = open_store(db, create=create)
    except NoStoreError as exc:
        fail(f"{exc} (`groundgraph --db {db} index FOLDER`), or name the store with --db", 3)
        raise
    try:
        graph = DocumentGraph(store=store, language=ctx.obj["language"], **options)
    except BaseException:
        store.close()
        raise
    try:
        yield graph
    finally:
        graph.close()


#: Each command and the modules that register it, imported when it is first used.
COMMANDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("index", "remove", "export", "import", "stats"), ("groundgraph.cli.documents",)
    ),
    **dict.fromkeys(("search", "retrieve", "outline", "show"), ("groundgraph.cli.reading",)),
    **dict.fromkeys(("ask", "bridge", "graph"), ("groundgraph.cli.evidence",)),
    **dict.fromkeys(("verify", "eval"), ("groundgraph.cli.checking",)),
    "ground": ("groundgraph.cli.grounding",),
    "why-not": ("groundgraph.cli.why_not",),
    "reason": ("groundgraph.cli.reasoning",),
    "memory": (
        "groundgraph.cli.memory",
        "groundgraph.cli.memory_causal",
        "groundgraph.cli.memory_ledger",
        "groundgraph.cli.memory_why_not",
    ),
    "serve": ("groundgraph.cli.serve",),
    "copy": ("groundgraph.cli.copying",),
    "mcp": ("groundgraph.cli.mcp",),
}


#: The verb whose summary is a command's one line in ``groundgraph --help``.
COMMAND_VERBS: dict[str, str] = {
    "index": "index_files",
    "remove": "remove_document",
    "export": "to_json",
    "import": "load_json",
    **{name: name for name in ("stats", "search", "retrieve", "outline", "show", "ask")},
    **{name: name for name in ("bridge", "ground")},
    "why-not": "why_not",
}
#: The one line of each other command, the first sentence of its help (a test checks the
#: help page shown from these against the page of the loaded commands).
COMMAND_LINES: dict[str, str] = {
    "graph": "Write every node and edge with its provenance (sources and sentence spans) as JSON.",
    "verify": "Is OBJECT the RELATION of SUBJECT? A proof from the facts, or a refusal.",
    "eval": "Measure: retrieval quality on labelled questions, relation reasoning on CLUTRR.",
    "reason": "Answer QUESTION from the documents with an LLM; every sentence is checked.",
    "memory": "Agent memory: facts with scopes, recall, causal traces, what-if and forgetting.",
    "serve": "Serve the memory and the documents over HTTP (FastAPI on uvicorn), scoped by API "
    "key.",
    "copy": "Copy the store SOURCE into TARGET (a SQLite file or a postgresql:// URL): "
    "documents, nodes, edges, entities, settings, memory's ledger and vectors, in batches.",
    "mcp": "Serve ReasonGraph's memory tools and the graph tools over MCP on stdio.",
}


def command_summary(name: str) -> str:
    """A command's one line for the group's help, without importing its module."""
    if name in COMMAND_VERBS:
        from groundgraph.graph.verbs import verb_summary  # the table alone: no numpy

        return verb_summary(COMMAND_VERBS[name])
    return COMMAND_LINES[name]


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    summary=command_summary,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "--db",
    envvar="GROUNDGRAPH_DB",
    default=DEFAULT_DB,
    show_default=True,
    help="The store: a SQLite file or a postgresql:// URL (also from GROUNDGRAPH_DB).",
)
@click.option("--language", default=None, help="Stemming language of a new store (english).")
@click.option(
    "--debug", is_flag=True, help="Show the traceback of an unexpected error, for a bug report."
)
@click.version_option(version=__version__, prog_name="groundgraph")
@click.pass_context
def main(ctx: click.Context, db: str, language: str | None, debug: bool) -> None:
    """Index documents into a graph and search it, with an explanation for every hit."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db
    ctx.obj["language"] = language
    ctx.obj["debug"] = debug
