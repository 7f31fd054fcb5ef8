"""A click group whose commands load on first use, so ``groundgraph --version`` and a
single command import only what they need (issue 12, cold start).

Each command name maps to the modules that register it on the group (``@main.command``);
``get_command`` imports them when the command is invoked or its help is shown, and
``list_commands`` names every command without importing any (``--help`` then loads each
to show its one-line help, as a help page must).
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

import click


class LazyGroup(click.Group):
    """A ``click.Group`` over ``{command name: modules that register it}``."""

    def __init__(self, *args: Any, lazy: Mapping[str, tuple[str, ...]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            for module in self.lazy.get(cmd_name, ()):
                import_module(module)
        return super().get_command(ctx, cmd_name)

    def load_all(self) -> dict[str, click.Command]:
        """Every command, each module imported: for tests and the docs check."""
        for modules in self.lazy.values():
            for module in modules:
                import_module(module)
        return dict(self.commands)
