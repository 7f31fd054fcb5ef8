"""A click group whose commands load on first use, so ``groundgraph --version`` and a
single command import only what they need (issue 12, cold start).

Each command name maps to the modules that register it on the group (``@main.command``);
``get_command`` imports them when the command is invoked or its help is shown, and
``list_commands`` names every command without importing any. The group's ``--help``
shows each command's one line from ``summary`` (the command's name to its help's first
sentence) without importing it either, so it loads neither the graph nor numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

import click


class LazyGroup(click.Group):
    """A ``click.Group`` over ``{command name: modules that register it}``."""

    def __init__(
        self,
        *args: Any,
        lazy: Mapping[str, tuple[str, ...]],
        summary: Callable[[str], str],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy)
        self.short_help_of = summary

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            for module in self.lazy.get(cmd_name, ()):
                import_module(module)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The ``Commands`` section of the group's help: a loaded command's own short help,
        else its ``summary``, shortened as click shortens a command's help (by a stand-in
        command that has the summary as its help)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(map(len, names))
        rows = []
        for name in names:
            command = self.commands.get(name) or click.Command(name, help=self.short_help_of(name))
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def load_all(self) -> dict[str, click.Command]:
        """Every command, each module imported: for tests and the docs check."""
        for modules in self.lazy.values():
            for module in modules:
                import_module(module)
        return dict(self.commands)
