"""The ``groundgraph`` command group, its options and the error handling every command shares."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any, TypeVar

import click

from groundgraph.errors import GroundgraphError, NotFoundError
from groundgraph.graph import DocumentGraph

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_DB = "groundgraph.db"


def fail(message: str, code: int = 2) -> None:
    click.secho(f"error: {message}", fg="red", err=True)
    sys.exit(code)


def friendly(command: F) -> F:
    """Turn groundgraph's errors into one clear line and a non-zero exit, no traceback."""

    @wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except NotFoundError as exc:
            fail(str(exc), 3)
        except GroundgraphError as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), 4)
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
