"""Plain text in, a document's nodes out: no headings, a root and its chunk parts."""

from __future__ import annotations

from groundgraph.ingest.builder import NodeBuilder
from groundgraph.ingest.parsed import (
    DEFAULT_MAX_CHUNK_CHARS,
    DEFAULT_MAX_TEXT_CHARS,
    ParsedDocument,
    check_inputs,
    content_hash,
    normalise_newlines,
    resolve_doc_id,
)
from groundgraph.model import Document


def parse_plaintext(
    text: str,
    title: str,
    doc_id: str | None = None,
    description: str = "",
    source: str = "",
    max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS,
    *,
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS,
) -> ParsedDocument:
    """Parse plain text: the root holds the first chunk, later chunks hang under it.

    Nothing in the text is read as markup, so there are no sections and no links.
    ``doc_id`` defaults to the slug of ``title``.
    """
    text, title, description, source, replaced = check_inputs(
        text, title, max_chunk_chars, max_text_chars, description, source
    )
    doc_id = resolve_doc_id(title, doc_id)
    body = normalise_newlines(text)
    builder = NodeBuilder(body, doc_id, max_chunk_chars)
    builder.add_root(title, 0, len(body), description)
    document = Document(doc_id, title, description, source, content_hash(text))
    return ParsedDocument(document, builder.nodes, builder.edges.to_list(), [], body, replaced)
