"""The ``groundgraph`` command line: one subcommand per verb of the Python API.

Each command's module (``documents``, ``reading``, ``evidence``, ``checking``,
``grounding``, ``reasoning``, ``memory``, ``memory_causal``, ``memory_ledger``, ...) is
imported when the command is first used (``cli.app.COMMANDS``), so a command loads only
what it needs.
"""

from __future__ import annotations

from groundgraph.cli.app import main

__all__ = ["main"]
