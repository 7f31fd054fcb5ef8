"""Seed, walk, fuse, explain: one retrieval pipeline (``pipeline``) and document search
over it (``documents``); memory recall (``memory.recall``) runs the same pipeline."""

from __future__ import annotations

from groundgraph.search.documents import FUSIONS, WALKERS, IndexMatches, SearchParams, search
from groundgraph.search.pipeline import (
    MAX_QUERY_CHARS,
    Candidate,
    LexicalStage,
    Ranked,
    check_query,
    fuse_noisy_or,
    noisy_or,
    rank,
)

__all__ = [
    "FUSIONS",
    "MAX_QUERY_CHARS",
    "WALKERS",
    "Candidate",
    "IndexMatches",
    "LexicalStage",
    "Ranked",
    "SearchParams",
    "check_query",
    "fuse_noisy_or",
    "noisy_or",
    "rank",
    "search",
]
