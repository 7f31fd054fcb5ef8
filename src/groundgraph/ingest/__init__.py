"""Text in, records out: markdown, plain text, JSON Lines and folders of them.

Nothing here touches a store: each parser returns ``ParsedDocument`` values (a Document,
its nodes and intra-document edges, its links to other documents, and the source text
every node span points into) for the graph to store and link.
"""

from groundgraph.ingest.folder import (
    DEFAULT_MAX_FILE_BYTES,
    FolderPlan,
    FolderResult,
    PlannedFile,
    SkippedFile,
    parse_file,
    plan_folder,
    read_folder,
)
from groundgraph.ingest.jsonl import iter_jsonl, parse_jsonl
from groundgraph.ingest.markdown import parse_markdown
from groundgraph.ingest.parsed import (
    DEFAULT_MAX_CHUNK_CHARS,
    DEFAULT_MAX_TEXT_CHARS,
    ParsedDocument,
)
from groundgraph.ingest.plaintext import parse_plaintext

__all__ = [
    "DEFAULT_MAX_CHUNK_CHARS",
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_MAX_TEXT_CHARS",
    "FolderPlan",
    "FolderResult",
    "ParsedDocument",
    "PlannedFile",
    "SkippedFile",
    "iter_jsonl",
    "parse_file",
    "parse_jsonl",
    "parse_markdown",
    "parse_plaintext",
    "plan_folder",
    "read_folder",
]
