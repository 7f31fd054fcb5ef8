"""Text in, records out: markdown, plain text, JSON Lines and folders of them.

Nothing here touches a store: each parser returns ``ParsedDocument`` values (a Document,
its nodes and intra-document edges, its links to other documents, and the source text
every node span points into) for the graph to store and link.
"""

from groundgraph.ingest.entities import (
    EntityExtractor,
    Mention,
    TitleMatcher,
    extract_entities,
    normalise_entity,
    sentence_mentions,
)
from groundgraph.ingest.folder import (
    DEFAULT_MAX_FILE_BYTES,
    FileContents,
    FolderPlan,
    FolderResult,
    PlannedFile,
    SkippedFile,
    parse_file,
    plan_folder,
    read_file,
    read_folder,
)
from groundgraph.ingest.jsonl import BadLine, iter_jsonl, parse_jsonl, read_jsonl
from groundgraph.ingest.markdown import parse_markdown
from groundgraph.ingest.parsed import (
    DEFAULT_MAX_CHUNK_CHARS,
    DEFAULT_MAX_TEXT_CHARS,
    ParsedDocument,
)
from groundgraph.ingest.plaintext import parse_plaintext
from groundgraph.ingest.relations import (
    RelationMention,
    extract_relations,
    ground_triples,
)
from groundgraph.ingest.relations.llm import (
    ParsedTriples,
    llm_relation_extractor,
    parse_llm_triples,
    read_llm_triples,
)

__all__ = [
    "DEFAULT_MAX_CHUNK_CHARS",
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_MAX_TEXT_CHARS",
    "BadLine",
    "EntityExtractor",
    "FileContents",
    "FolderPlan",
    "FolderResult",
    "Mention",
    "ParsedDocument",
    "ParsedTriples",
    "PlannedFile",
    "RelationMention",
    "SkippedFile",
    "TitleMatcher",
    "extract_entities",
    "extract_relations",
    "ground_triples",
    "iter_jsonl",
    "llm_relation_extractor",
    "normalise_entity",
    "parse_file",
    "parse_jsonl",
    "parse_llm_triples",
    "parse_markdown",
    "parse_plaintext",
    "plan_folder",
    "read_file",
    "read_folder",
    "read_jsonl",
    "read_llm_triples",
    "sentence_mentions",
]
