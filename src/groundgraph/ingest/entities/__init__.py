"""Entities with zero models: names, acronyms, quoted terms, code, key phrases and titles.

``extract_entities`` (``extract``) is the default ``EntityExtractor``; its parts, one rule
each: ``masking`` (what is not prose, blanked with offsets kept), ``words`` (the words of
a text with their case and position), ``names`` (capitalised names), ``keyphrases``
(repeated lower-case pairs), ``titles`` (other documents' titles), ``normalise`` (the one
key every spelling of an entity shares) and ``wordlists`` (the small lists behind them).
``gliner`` puts a GLiNER model (``pip install gliner``) behind the same signature.
"""

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
