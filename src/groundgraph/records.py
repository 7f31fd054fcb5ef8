"""Compatibility names: the records moved to :mod:`groundgraph.model`."""

from __future__ import annotations

from groundgraph.model import *  # noqa: F403
from groundgraph.model import __all__  # noqa: F401
