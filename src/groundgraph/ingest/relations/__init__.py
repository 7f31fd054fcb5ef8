"""Relation facts read from text: explicit statements (``extract``) or a model (``llm``).

``extract_relations`` knows five English patterns ("Bo is the father of Ann"); the LLM hook
asks a model for JSON triples, and ``ground_triples`` keeps those the text really names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundgraph.lazy_names import lazy_names

if TYPE_CHECKING:  # type checkers see the names; the interpreter loads them on first use
    from groundgraph.ingest.relations.extract import (
        IS_A,
        RelationMention,
        extract_relations,
        ground_triples,
        relation_name,
    )
    from groundgraph.ingest.relations.llm import (
        MAX_FIELD_CHARS,
        MAX_REPLY_CHARS,
        RELATION_PROMPT,
        ParsedTriples,
        Triple,
        llm_relation_extractor,
        parse_llm_triples,
        read_llm_triples,
        relation_prompt,
    )

# Imported on first use (issue 12, cold start): importing one submodule does not load the
# others (a read needs the title matcher, not the extractors' patterns).
_LAZY = {
    "IS_A": "groundgraph.ingest.relations.extract",
    "RelationMention": "groundgraph.ingest.relations.extract",
    "extract_relations": "groundgraph.ingest.relations.extract",
    "ground_triples": "groundgraph.ingest.relations.extract",
    "relation_name": "groundgraph.ingest.relations.extract",
    "MAX_FIELD_CHARS": "groundgraph.ingest.relations.llm",
    "MAX_REPLY_CHARS": "groundgraph.ingest.relations.llm",
    "RELATION_PROMPT": "groundgraph.ingest.relations.llm",
    "ParsedTriples": "groundgraph.ingest.relations.llm",
    "Triple": "groundgraph.ingest.relations.llm",
    "llm_relation_extractor": "groundgraph.ingest.relations.llm",
    "parse_llm_triples": "groundgraph.ingest.relations.llm",
    "read_llm_triples": "groundgraph.ingest.relations.llm",
    "relation_prompt": "groundgraph.ingest.relations.llm",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())


__all__ = [
    "IS_A",
    "MAX_FIELD_CHARS",
    "MAX_REPLY_CHARS",
    "RELATION_PROMPT",
    "ParsedTriples",
    "RelationMention",
    "Triple",
    "extract_relations",
    "ground_triples",
    "llm_relation_extractor",
    "parse_llm_triples",
    "read_llm_triples",
    "relation_name",
    "relation_prompt",
]
