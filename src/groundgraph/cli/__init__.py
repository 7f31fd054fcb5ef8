"""The ``groundgraph`` command line: one subcommand per verb of the Python API."""

from __future__ import annotations

from groundgraph.cli import (
    checking,
    documents,
    evidence,
    grounding,
    memory,
    memory_causal,
    reading,
    reasoning,
)
from groundgraph.cli.app import main

__all__ = [
    "checking",
    "documents",
    "evidence",
    "grounding",
    "main",
    "memory",
    "memory_causal",
    "reading",
    "reasoning",
]
