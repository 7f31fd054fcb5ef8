"""Text in, records out: markdown, plain text, JSON Lines and folders of them.

Nothing here touches a store: each parser returns ``ParsedDocument`` values (a Document,
its nodes and intra-document edges, its links to other documents, and the source text
every node span points into) for the graph to store and link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from groundgraph.lazy_names import lazy_names

if TYPE_CHECKING:  # type checkers see the names; the interpreter loads them on first use
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

# Imported on first use, so importing one submodule does not load them all.
_LAZY = {
    "EntityExtractor": "groundgraph.ingest.entities",
    "Mention": "groundgraph.ingest.entities",
    "TitleMatcher": "groundgraph.ingest.entities",
    "extract_entities": "groundgraph.ingest.entities",
    "normalise_entity": "groundgraph.ingest.entities",
    "sentence_mentions": "groundgraph.ingest.entities",
    "DEFAULT_MAX_FILE_BYTES": "groundgraph.ingest.folder",
    "FileContents": "groundgraph.ingest.folder",
    "FolderPlan": "groundgraph.ingest.folder",
    "FolderResult": "groundgraph.ingest.folder",
    "PlannedFile": "groundgraph.ingest.folder",
    "SkippedFile": "groundgraph.ingest.folder",
    "parse_file": "groundgraph.ingest.folder",
    "plan_folder": "groundgraph.ingest.folder",
    "read_file": "groundgraph.ingest.folder",
    "read_folder": "groundgraph.ingest.folder",
    "BadLine": "groundgraph.ingest.jsonl",
    "iter_jsonl": "groundgraph.ingest.jsonl",
    "parse_jsonl": "groundgraph.ingest.jsonl",
    "read_jsonl": "groundgraph.ingest.jsonl",
    "parse_markdown": "groundgraph.ingest.markdown",
    "DEFAULT_MAX_CHUNK_CHARS": "groundgraph.ingest.parsed",
    "DEFAULT_MAX_TEXT_CHARS": "groundgraph.ingest.parsed",
    "ParsedDocument": "groundgraph.ingest.parsed",
    "parse_plaintext": "groundgraph.ingest.plaintext",
    "RelationMention": "groundgraph.ingest.relations",
    "extract_relations": "groundgraph.ingest.relations",
    "ground_triples": "groundgraph.ingest.relations",
    "ParsedTriples": "groundgraph.ingest.relations.llm",
    "llm_relation_extractor": "groundgraph.ingest.relations.llm",
    "parse_llm_triples": "groundgraph.ingest.relations.llm",
    "read_llm_triples": "groundgraph.ingest.relations.llm",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())


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
