"""The ``groundgraph`` command line: one subcommand per verb of the Python API."""

from __future__ import annotations

from groundgraph.cli import checking, documents, evidence, reading
from groundgraph.cli.app import main

__all__ = ["checking", "documents", "evidence", "main", "reading"]
