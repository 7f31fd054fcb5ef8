"""Other tools' spellings of groundgraph's options, so their users' commands still run.

GraphRack names the index after the subcommand (``search QUERY --index FILE``) and writes
it with ``index FOLDER --out FILE``; groundgraph's store is ``--db FILE`` before the
subcommand. ``store_option`` adds such a name to one command: it sets the store the
command opens, exactly as ``--db`` does. ``DefaultGroup`` runs its default subcommand
when the first argument names no subcommand (GraphRack's ``eval QUESTIONS.jsonl`` is
``eval retrieval QUESTIONS.jsonl``). docs/coming-from.md lists every such name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def _set_store(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.ensure_object(dict)
        ctx.obj["db"] = value


def store_option(*decls: str, help: str | None = None) -> Callable[[F], F]:
    """An option naming the store file, as ``--db`` does (the later of the two wins)."""
    text = help or "The store file, as --db FILE before the command (GraphRack's name)."
    option: Callable[[F], F] = click.option(
        *decls,
        metavar="FILE",
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_set_store,
        help=text,
    )
    return option


#: GraphRack's ``--index FILE`` on every command that reads the index.
index_option = store_option("--index")


class DefaultGroup(click.Group):
    """A group that runs ``default`` when its first argument is no subcommand's name."""

    def __init__(self, *args: Any, default: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.default = default

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = [self.default, *args]
        return super().resolve_command(ctx, args)
