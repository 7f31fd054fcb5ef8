"""Entities with zero models: names, acronyms, quoted terms, code, key phrases and titles.

``extract_entities`` (``extract``) is the default ``EntityExtractor``; its parts, one rule
each: ``masking`` (what is not prose, blanked with offsets kept), ``words`` (the words of
a text with their case and position), ``names`` (capitalised names), ``keyphrases``
(repeated lower-case pairs), ``titles`` (other documents' titles), ``normalise`` (the one
key every spelling of an entity shares) and ``wordlists`` (the small lists behind them).
``gliner`` puts a GLiNER model (``pip install gliner``) behind the same signature.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundgraph.lazy_names import lazy_names

if TYPE_CHECKING:  # type checkers see the names; the interpreter loads them on first use
    from groundgraph.ingest.entities.extract import (
        KINDS,
        EntityExtractor,
        Mention,
        MentionKind,
        extract_entities,
        sentence_mentions,
        untitled_mentions,
        with_titles,
    )
    from groundgraph.ingest.entities.gliner import GlinerEntityExtractor
    from groundgraph.ingest.entities.normalise import MAX_KEY_CHARS, normalise_entity
    from groundgraph.ingest.entities.titles import TitleMatcher

# Imported on first use (issue 12, cold start): importing one submodule does not load the
# others (a read needs the title matcher, not the extractors' patterns).
_LAZY = {
    "KINDS": "groundgraph.ingest.entities.extract",
    "EntityExtractor": "groundgraph.ingest.entities.extract",
    "Mention": "groundgraph.ingest.entities.extract",
    "MentionKind": "groundgraph.ingest.entities.extract",
    "extract_entities": "groundgraph.ingest.entities.extract",
    "sentence_mentions": "groundgraph.ingest.entities.extract",
    "untitled_mentions": "groundgraph.ingest.entities.extract",
    "with_titles": "groundgraph.ingest.entities.extract",
    "GlinerEntityExtractor": "groundgraph.ingest.entities.gliner",
    "MAX_KEY_CHARS": "groundgraph.ingest.entities.normalise",
    "normalise_entity": "groundgraph.ingest.entities.normalise",
    "TitleMatcher": "groundgraph.ingest.entities.titles",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())


__all__ = [
    "KINDS",
    "MAX_KEY_CHARS",
    "EntityExtractor",
    "GlinerEntityExtractor",
    "Mention",
    "MentionKind",
    "TitleMatcher",
    "extract_entities",
    "normalise_entity",
    "sentence_mentions",
    "untitled_mentions",
    "with_titles",
]
