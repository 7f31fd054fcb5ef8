"""Seed, walk, fuse, explain: one retrieval pipeline (``pipeline``) and document search
over it (``documents``); memory recall (``memory.recall``) runs the same pipeline."""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundgraph.lazy_names import lazy_names

if TYPE_CHECKING:  # type checkers see the names; the interpreter loads them on first use
    from groundgraph.search.choices import FUSIONS, WALKERS
    from groundgraph.search.documents import IndexMatches, SearchParams, search
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

# Imported on first use, so that a module of this package (``search.choices``, which the
# verb table reads) loads without the pipeline and numpy (issue 12, cold start).
_LAZY = {
    "FUSIONS": "groundgraph.search.choices",
    "WALKERS": "groundgraph.search.choices",
    **dict.fromkeys(("IndexMatches", "SearchParams", "search"), "groundgraph.search.documents"),
    **dict.fromkeys(
        (
            "MAX_QUERY_CHARS",
            "Candidate",
            "LexicalStage",
            "Ranked",
            "check_query",
            "fuse_noisy_or",
            "noisy_or",
            "rank",
        ),
        "groundgraph.search.pipeline",
    ),
}

__getattr__ = lazy_names(__name__, _LAZY, globals())

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
