"""What parsing one document gives: its record, nodes, edges and links, plus the input checks.

Every node's ``span`` points into ``source_text`` (the input with CRLF and CR turned into
LF and a leading byte-order mark dropped): ``source_text[start:end] == node.content``. The
one exception is a root node whose document has no text of its own before its first
section: its content is then the document's description and its span is empty.

Text is made valid here, at the way in (``model.valid_text``): a lone surrogate in the
text, title, description or source becomes U+FFFD and ``ParsedDocument.replaced`` counts
them, so nothing later (the store, a hash) meets text it cannot encode.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import NamedTuple

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.model import Document, Edge, Node
from groundgraph.model.valid_text import valid_text
from groundgraph.text import slugify

DEFAULT_MAX_CHUNK_CHARS = 2000
DEFAULT_MAX_TEXT_CHARS = 50_000_000
# Bump when parsing, term counting or extraction changes what a document's nodes, edges or
# entities come out as: `groundgraph index` then reads again the files it stored before.
INGEST_VERSION = 1


@dataclass(frozen=True)
class ParsedDocument:
    """One parsed document, ready to be stored.

    ``nodes`` run root first, then in creation order; ``edges`` are the document's own
    (structure and reference) edges, at most one per pair of nodes; ``links`` are the raw
    targets of markdown links to other documents, deduplicated, in order of appearance.
    ``replaced`` counts the lone surrogates of the input that became U+FFFD.
    """

    document: Document
    nodes: list[Node]
    edges: list[Edge]
    links: list[str]
    source_text: str
    replaced: int = 0

    @property
    def root(self) -> Node:
        """The document's root node."""
        return self.nodes[0]


def normalise_newlines(text: str) -> str:
    """``text`` with CRLF and CR turned into LF and a leading byte-order mark dropped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def content_hash(text: str) -> str:
    """sha256 hex digest of ``text`` encoded as UTF-8."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class ValidInputs(NamedTuple):
    """A parser's text arguments made valid, and how many code points that replaced."""

    text: str
    title: str
    description: str
    source: str
    replaced: int


def check_inputs(
    text: object,
    title: object,
    max_chunk_chars: int,
    max_text_chars: int,
    description: object = "",
    source: object = "",
) -> ValidInputs:
    """A parser's text arguments made valid (``model.valid_text``); InputError when an
    argument is wrong, InputTooLargeError when the text is too big."""
    names = ("text to parse", "title", "description", "source")
    given = (text, title, description, source)
    for name, value in zip(names, given, strict=True):
        if not isinstance(value, str):
            raise InputError(f"the {name} must be a str, not {type(value).__name__}")
    if isinstance(max_chunk_chars, bool) or not isinstance(max_chunk_chars, int):
        raise InputError("max_chunk_chars must be an int")
    if max_chunk_chars < 1:
        raise InputError(f"max_chunk_chars must be at least 1, not {max_chunk_chars}")
    fixed = [valid_text(value) for value in given if isinstance(value, str)]
    if len(fixed[0].text) > max_text_chars:
        raise InputTooLargeError(
            "the text",
            len(fixed[0].text),
            max_text_chars,
            hint="split it into several documents or raise max_text_chars",
        )
    body, title_text, description_text, source_text = (f.text for f in fixed)
    return ValidInputs(
        body, title_text, description_text, source_text, sum(f.replaced for f in fixed)
    )


def resolve_doc_id(title: str, doc_id: str | None) -> str:
    """The given ``doc_id``, or the slug of ``title`` when none is given."""
    if doc_id is None:
        return slugify(title)
    if not isinstance(doc_id, str) or not doc_id.strip():
        raise InputError("doc_id must be a non-empty str, or None to derive it from the title")
    return doc_id


def in_id_space(doc_id: str, space: str) -> str:
    """``doc_id`` put in the id name space ``space`` (a prefix; "" is the shared space):
    an id already in it is kept."""
    return doc_id if doc_id.startswith(space) else space + doc_id
