"""Relation facts read from text: explicit statements (``extract``) or a model (``llm``).

``extract_relations`` knows five English patterns ("Bo is the father of Ann"); the LLM hook
asks a model for JSON triples, and ``ground_triples`` keeps those the text really names.
"""

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
