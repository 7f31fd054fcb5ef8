"""The BM25 settings of a lexical index: k1, b and how much a title word counts.

The formula they enter is in ``index.bm25``; a snapshot made with other settings is
refused (``index.snapshot``).
"""

from __future__ import annotations

from dataclasses import dataclass

from groundgraph.errors import InputError


@dataclass(frozen=True)
class BM25Params:
    """BM25 parameters; ``title_boost`` is how many extra times a title word counts."""

    k1: float = 1.2
    b: float = 0.75
    title_boost: int = 3

    def __post_init__(self) -> None:
        if self.k1 < 0 or not 0 <= self.b <= 1 or self.title_boost < 0:
            raise InputError("BM25 needs k1 >= 0, 0 <= b <= 1 and title_boost >= 0")
