"""The id scheme, in one place: documents, sections and chunks, entities, memory facts.

- a document's root node has the document's id; its sections and chunks are
  ``"{doc_id}#{n}"``, n counting from 1 in reading order;
- an entity is ``"entity:" + key``, the key being ``ingest.normalise_entity`` of a name;
- a memory fact is a one-node document ``"fact:" + 16 hex digits`` of the SHA-256 of its
  normalised text, so the same statement is the same fact wherever it comes from.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from groundgraph.errors import InputError
from groundgraph.model.valid_text import has_surrogates, valid_text

ENTITY_PREFIX = "entity:"
FACT_PREFIX = "fact:"
MAX_DOC_ID_CHARS = 512
#: Node kinds the lexical index holds (entities are reached by the walk, not matched).
INDEXED_KINDS = frozenset({"document", "section", "chunk"})

_FACT_ID = re.compile(r"fact:[0-9a-f]{16}")
_END_PUNCTUATION = " \t\n.!?;,:"


def section_id(doc_id: str, n: int) -> str:
    """The id of a document's ``n``-th section or chunk (from 1)."""
    return f"{doc_id}#{n}"


def doc_id_of(node_id: str) -> str:
    """The document a section, chunk or root node id belongs to."""
    return node_id.split("#", 1)[0]


def entity_id(key: str) -> str:
    """The node id of an entity whose normalised key is ``key``."""
    return ENTITY_PREFIX + key


def spelling_order(spelling: str) -> tuple[int, str]:
    """How an entity's spellings rank for display: the shortest first, then the one that
    sorts first ("Windows SDK" before "The Windows SDK" and "*value*" after "value");
    a function of the spellings alone, so the order of writes does not show."""
    return len(spelling), spelling


def is_entity_id(node_id: str) -> bool:
    return node_id.startswith(ENTITY_PREFIX)


def entity_key(node_id: str) -> str:
    """The normalised key inside an entity id (the id itself if it is not one)."""
    return node_id.removeprefix(ENTITY_PREFIX)


def normalise_fact(text: str) -> str:
    """The form two statements must share to be the same fact (a lone surrogate counts as
    the U+FFFD it is stored as, ``model.valid_text``)."""
    folded = unicodedata.normalize("NFKC", valid_text(text).text).casefold()
    return " ".join(folded.split()).strip(_END_PUNCTUATION)


def fact_id(text: str) -> str:
    """The id of the fact a statement makes."""
    from hashlib import sha256  # fact ids only: a search makes none

    digest = sha256(normalise_fact(text).encode("utf-8")).hexdigest()
    return FACT_PREFIX + digest[:16]


def is_fact_id(value: str) -> bool:
    return bool(_FACT_ID.fullmatch(value))


def held_ids(ids: Iterable[str]) -> list[str]:
    """The ids a store may hold, to look up: an id that is not valid Unicode names
    nothing (``check_doc_id`` refuses it) and could not even be sent to the store."""
    return [i for i in ids if not has_surrogates(i)]


def check_doc_id(doc_id: str) -> None:
    """Document ids name node ids too (``doc#3``), so they may not contain '#'."""
    if (
        not doc_id
        or "#" in doc_id
        or doc_id.startswith(ENTITY_PREFIX)
        or len(doc_id) > MAX_DOC_ID_CHARS
    ):
        raise InputError(
            f"document id {doc_id[:80]!r} is not usable: use 1 to {MAX_DOC_ID_CHARS} characters "
            f"without '#' and not starting with {ENTITY_PREFIX!r}"
        )
    if has_surrogates(doc_id):
        raise InputError(
            f"document id {doc_id[:80]!r} holds a lone surrogate, which cannot be stored:"
            " pass valid Unicode text"
        )
