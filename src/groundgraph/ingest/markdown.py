"""Markdown in, a document's nodes and edges out.

YAML front matter (``ingest.front_matter``) is metadata: it gives the document's
description when none is passed, and is not part of any node. The text before the first
heading is the root's; if the first heading's title is the document's title, that heading
is dropped and its body joins the root. Each other heading
starts a section under the nearest earlier heading of a lower level. Long bodies are
chunked (``chunks.py``); sections are chained in reading order by ``next`` edges and named
sections get ``reference`` edges (``references.py``).
"""

from __future__ import annotations

from itertools import pairwise

from groundgraph.ingest.builder import NodeBuilder
from groundgraph.ingest.chunks import strip_span
from groundgraph.ingest.front_matter import blank_front_matter, read_front_matter
from groundgraph.ingest.headings import Heading, scan_markdown
from groundgraph.ingest.links import document_links
from groundgraph.ingest.parsed import (
    DEFAULT_MAX_CHUNK_CHARS,
    DEFAULT_MAX_TEXT_CHARS,
    ParsedDocument,
    check_inputs,
    content_hash,
    normalise_newlines,
    resolve_doc_id,
)
from groundgraph.ingest.references import link_references
from groundgraph.model import NEXT, Document


def _same_title(heading: str, title: str) -> bool:
    return heading.strip().casefold() == title.strip().casefold()


def _root_span(source: str, headings: list[Heading], merged: Heading | None) -> tuple[int, int]:
    """The root's text: the preamble, extended to the end of a merged heading's body."""
    first = headings[0].start if headings else len(source)
    preamble = strip_span(source, 0, first)
    if merged is None:
        return preamble
    body_end = headings[1].start if len(headings) > 1 else len(source)
    body = strip_span(source, merged.end, body_end)
    if preamble[0] == preamble[1]:
        return body
    if body[0] == body[1]:
        return preamble
    return (preamble[0], body[1])


def parse_markdown(
    text: str,
    title: str,
    doc_id: str | None = None,
    description: str = "",
    source: str = "",
    max_chunk_chars: int = DEFAULT_MAX_CHUNK_CHARS,
    *,
    max_text_chars: int = DEFAULT_MAX_TEXT_CHARS,
) -> ParsedDocument:
    """Parse a markdown document into its root, section and chunk nodes and their edges.

    ``doc_id`` defaults to the slug of ``title``. Raises InputError for arguments of the
    wrong kind and InputTooLargeError for a text over ``max_text_chars``.
    """
    text, title, description, source, replaced = check_inputs(
        text, title, max_chunk_chars, max_text_chars, description, source
    )
    doc_id = resolve_doc_id(title, doc_id)
    source_text = normalise_newlines(text)
    front = read_front_matter(source_text)
    # With front matter blanked out, every offset is the source's and nothing in it is prose.
    body = source_text if front is None else blank_front_matter(source_text, front)
    if front is not None and not description:
        description = front.description
    layout = scan_markdown(body)
    headings = layout.headings
    merged = headings[0] if headings and _same_title(headings[0].title, title) else None

    builder = NodeBuilder(body, doc_id, max_chunk_chars)
    root_start, root_end = _root_span(body, headings, merged)
    root_id = builder.add_root(title, root_start, root_end, description)
    sections = headings[1:] if merged is not None else headings
    ends = [h.start for h in sections[1:]] + [len(body)] if sections else []
    open_headings: list[tuple[int, str]] = []  # (level, node id), levels increasing
    section_ids: list[str] = []
    for heading, end in zip(sections, ends, strict=True):
        while open_headings and open_headings[-1][0] >= heading.level:
            open_headings.pop()
        parent_id = open_headings[-1][1] if open_headings else root_id
        node_id = builder.add_section(heading.title, heading.level, parent_id, heading.end, end)
        open_headings.append((heading.level, node_id))
        section_ids.append(node_id)
    for before, after in pairwise(section_ids):
        builder.edges.link(before, after, NEXT)

    titled = [(root_id, merged.title)] if merged is not None else []
    titled.extend(zip(section_ids, (h.title for h in sections), strict=True))
    link_references(builder.edges, builder.nodes, body, titled, layout.fences)
    metadata = tuple(front.fields.items()) if front is not None else ()
    document = Document(doc_id, title, description, source, content_hash(text), metadata=metadata)
    links = document_links(body, layout.fences)
    edges = builder.edges.to_list()
    return ParsedDocument(document, builder.nodes, edges, links, source_text, replaced)
