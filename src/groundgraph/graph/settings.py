"""Settings fixed for the life of a store: kept in it and checked when it is opened again."""

from __future__ import annotations

from dataclasses import dataclass

from groundgraph.errors import InputError
from groundgraph.index.link_params import LinkParams
from groundgraph.store import Store

MIN_CHUNK_CHARS = 100


@dataclass(frozen=True)
class GraphSettings:
    """Settings fixed for the life of a store (kept in it, checked on open)."""

    language: str = "english"
    max_chunk_chars: int = 2000
    semantic_neighbors: int = 5
    min_similarity: float = 0.08


def link_params(
    semantic_neighbors: int, min_similarity: float | None, embedded: bool = False
) -> LinkParams:
    """How sections are linked: without an embedder, ``min_similarity`` is the floor of
    the term overlap (default 0.08); with one (``embedded``), the floor of the cosine
    (default 0.5; Grounded Graph of Thought's 0.3 is ``min_similarity=0.3``), and term
    links keep theirs. None keeps both defaults."""
    if min_similarity is None:
        return LinkParams(neighbours=semantic_neighbors)
    if isinstance(min_similarity, bool) or not isinstance(min_similarity, (int, float)):
        raise InputError(f"min_similarity must be a number, not {type(min_similarity).__name__}")
    floor = float(min_similarity)
    if embedded:
        return LinkParams(neighbours=semantic_neighbors, min_cosine=floor)
    return LinkParams(neighbours=semantic_neighbors, min_similarity=floor)


def graph_settings(
    store: Store,
    language: str | None,
    max_chunk_chars: int,
    semantic_neighbors: int,
    min_similarity: float,
) -> GraphSettings:
    """The settings of a graph over ``store``: the language the store was built with, or
    the one given (recorded on first use); a different one is an error."""
    stored_language = store.settings.get_setting("language")
    if language is None:
        language = stored_language or "english"
    elif stored_language and stored_language != language:
        raise InputError(
            f"this store was built with language {stored_language!r}, not {language!r}; "
            "open it without a language or index into a new store"
        )
    if stored_language is None and not store.read_only and not store.reads.counts().documents:
        # Recorded when a store is new; one holding documents without it is damaged, and
        # a read leaves a damaged store as it found it.
        store.settings.set_setting("language", language)
    if max_chunk_chars < MIN_CHUNK_CHARS:
        raise InputError(f"max_chunk_chars must be at least {MIN_CHUNK_CHARS}")
    return GraphSettings(language, max_chunk_chars, semantic_neighbors, min_similarity)
