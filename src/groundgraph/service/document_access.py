"""Writing documents with a key bound to scopes: the ids it adds under, and which it may
replace and remove.

A document read by scopes (``add_document(..., scopes=...)``, ``graph.document_scope``)
belongs to those scopes. A key bound to scopes adds documents read by the scopes it
names (by default its own), and it may replace or remove a document only when it may
write every scope the document is read by:

- each set of scopes has a document id name space of its own: a document a key bound to
  scopes adds for the scopes ``acme/alice`` is stored as ``acme/alice~{doc_id}``
  (:func:`namespaced_id`; the scopes sorted and joined by ``,``, which no scope name
  holds, then ``~``). Two tenants' ids can never meet, so adding under any id answers
  the same whether another tenant holds that id or nobody does. Adding again under the
  id the add answered replaces that document;
- removing a document the key may not read is answered as removing an unknown id
  (``null``), so a key cannot probe for another tenant's documents by removing them;
- removing one it reads but may not write (an ancestor's, or one shared with another
  tenant) is refused, as for a memory fact shared beyond the key's scopes. A document
  without scopes belongs to no tenant: only a key bound to every scope replaces or
  removes it.

A key bound to every scope adds under the id it gives, as the library and ``groundgraph
index`` do.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from groundgraph.graph import DocumentGraph
from groundgraph.ingest.parsed import in_id_space, resolve_doc_id
from groundgraph.memory.scopes import ScopeReader
from groundgraph.model import Document
from groundgraph.model.valid_text import has_surrogates
from groundgraph.service.access import Access, AccessDeniedError

#: The write verbs on documents that ``guard_document_write`` rules on.
DOCUMENT_WRITES = ("add_document", "remove_document")
#: Between a namespaced id's scopes and the id its writer gave (no scope name holds it,
#: nor ``,``, which joins several scopes).
NAMESPACE_MARK = "~"


def namespaced_id(doc_id: str, scopes: Iterable[str]) -> str:
    """The id a document read by ``scopes`` is stored under when a key bound to scopes
    adds it as ``doc_id``: in those scopes' name space (an id already in it is kept)."""
    return in_id_space(doc_id, id_space(scopes))


def id_space(scopes: Iterable[str]) -> str:
    """The prefix of the document ids a key bound to scopes adds for ``scopes``."""
    return ",".join(sorted(set(scopes))) + NAMESPACE_MARK


def _stored(graph: DocumentGraph, doc_id: object) -> Document | None:
    if not isinstance(doc_id, str) or has_surrogates(doc_id):
        return None
    return graph.store.reads.get_document(doc_id)


def may_write(access: Access, document: Document) -> bool:
    """Whether ``access`` may replace or remove ``document``: every scope that reads it is
    one the key may name (a document without scopes: only an unrestricted key)."""
    if access.unrestricted:
        return True
    return bool(document.scopes) and all(access.names(s) for s in document.scopes)


def guard_document_write(
    graph: DocumentGraph, name: str, given: dict[str, Any], access: Access
) -> bool:
    """For a restricted key: refuse a document write it may not make (AccessDeniedError);
    False when the write must be answered as one on an unknown id; an added document's
    ``doc_id`` put in its scopes' name space (the module docstring)."""
    if access.unrestricted or name not in DOCUMENT_WRITES:
        return True
    if name == "remove_document":
        document = _stored(graph, given.get("doc_id"))
        if document is None or not ScopeReader(access.scopes).reads(document.scopes):
            return False
        if not may_write(access, document):
            raise AccessDeniedError(
                "that document is read by scopes this key may not write: ask a key for every "
                "scope it is read by"
            )
        return True
    title, scopes = given.get("title"), given.get("scopes")
    if not isinstance(title, str) or not isinstance(scopes, list) or not scopes:
        return True  # the verb itself says what is wrong
    doc_id = given["doc_id"] = namespaced_id(resolve_doc_id(title, given.get("doc_id")), scopes)
    document = _stored(graph, doc_id)
    if document is not None and not may_write(access, document):
        # Only a key bound to every scope can have put a document of other scopes here.
        raise AccessDeniedError(
            f"the document id {doc_id!r:.80} is taken by a document this key may not change: "
            "give the document another doc_id"
        )
    return True
