"""Incremental re-indexing: which planned files changed since their documents were stored.

A file is *unchanged* when the store holds a document with the file's id, made from the
same bytes (its ``content_hash`` is the SHA-256 of the file) under the same ingest key (the
parser version and the settings that shape a document's rows, :func:`ingest_key`): its
rows would come out the same, so ``index`` need not read it again. A file whose id is new
is *added*; one whose id is stored with another hash or key is *changed* (its document is
replaced whole). A JSON Lines file gives many documents with ids of their own; each is
compared the same way once the file is parsed.

One run (an ``index_files`` or ``add_documents`` call) writes an id once: a second
document with an id met before in the run is reported (:func:`repeat_reason`,
:func:`each_id_once`), never written over the first.

A document is *gone* when its source file no longer exists and lay under one of the folders
being indexed (or was one of the files named): ``index --prune`` removes those. Sources
stored relative to another working folder do not resolve under the folders named, so a
run from elsewhere prunes nothing rather than everything.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from groundgraph.errors import InputError
from groundgraph.graph.prepare import PreparedDocument, PrepareSettings
from groundgraph.ingest.folder import PlannedFile, SkippedFile, read_file
from groundgraph.ingest.parsed import INGEST_VERSION
from groundgraph.model import Document
from groundgraph.model.views import IndexPlan, PlannedChange
from groundgraph.store import Store


@dataclass(frozen=True, slots=True)
class UnchangedFile:
    """A planned file left alone: its document is stored from the same bytes, same way."""

    path: str
    doc_id: str


def ingest_key(settings: PrepareSettings, entities: object, relations: object) -> str:
    """How a graph with these settings and extractors makes a document's rows, as text.

    A custom extractor is named by its module and qualified name: changing what it does
    without renaming it is not seen (re-index with ``--force`` then).
    """
    return " ".join(
        (
            f"groundgraph-ingest/{INGEST_VERSION}",
            f"language={settings.language}",
            f"chunk={settings.max_chunk_chars}",
            f"title-boost={settings.title_boost}",
            f"entities={_extractor_name(entities, settings.entities)}",
            f"relations={_extractor_name(relations, settings.relations)}",
        )
    )


def _extractor_name(extractor: object, default: bool) -> str:
    if extractor is None:
        return "off"
    if default:
        return "default"
    module = getattr(extractor, "__module__", "") or ""
    name = getattr(extractor, "__qualname__", type(extractor).__qualname__)
    return f"{module}.{name}"


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (what a parsed file's ``content_hash`` holds)."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def same_document(stored: Document | None, content_hash: str, key: str) -> bool:
    """Whether ``stored`` was made from content with this hash under this ingest key."""
    return (
        stored is not None
        and bool(stored.content_hash)
        and stored.content_hash == content_hash
        and stored.ingest == key
    )


def unchanged_file(
    store: Store, planned: PlannedFile, key: str, scopes: tuple[str, ...] = ()
) -> bool:
    """Whether a markdown or text file's document is stored from these bytes under ``key``,
    read by ``scopes`` (JSON Lines files are compared per document, after parsing)."""
    if planned.kind == "jsonl":
        return False
    stored = store.reads.get_document(planned.doc_id)
    if stored is None or stored.ingest != key or stored.scopes != scopes:
        return False
    try:
        return same_document(stored, file_digest(planned.path), key)
    except OSError:
        return False  # reading it again will say why


def taken_reason(planned: PlannedFile, old: Document | None, content_hash: str) -> str | None:
    """Why a file may not replace ``old``, the stored document that has its id: it came
    from another file, which still exists with other content (two folders indexed in
    separate runs that both hold a README.md). JSON Lines ids are the user's own and
    replace as ids do."""
    if planned.kind == "jsonl":
        return None
    if old is None or not old.source or old.content_hash == content_hash:
        return None
    try:
        other = Path(old.source)
        if not other.is_file() or other.samefile(planned.path):
            return None
    except OSError:
        return None
    return (
        f"its document id {planned.doc_id!r} is taken by {old.source}: index both from a "
        f"common parent folder (ids then include the folder), or remove {planned.doc_id!r} "
        "first"
    )


def repeat_reason(doc_id: str, first: str) -> str:
    """Why ``index`` left out a document whose id was met first in ``first`` this run."""
    return (
        f"the id {doc_id!r} was already met in this run (in {first}); ids must be"
        " unique, so this one was left out: give it another id"
    )


def each_id_once(prepared: Iterable[PreparedDocument]) -> Iterator[PreparedDocument]:
    """``prepared`` in order, ending with InputError at the first id met a second time
    (``add_documents``: what came before it is added; the repeat is not)."""
    seen: dict[str, int] = {}
    source = iter(prepared)
    try:
        for number, item in enumerate(source, start=1):
            doc_id = item.parsed.document.doc_id
            first = seen.setdefault(doc_id, number)
            if first != number:
                raise InputError(
                    f"document {number} has the id {doc_id!r} of document {first}: ids must "
                    "be unique in one add_documents call, so the run stopped before it (the "
                    "documents before it were added); give it another id, or add it in a "
                    "call of its own to replace the first"
                )
            yield item
    finally:
        close = getattr(source, "close", None)
        if close is not None:
            close()  # a pool preparing ahead stops now, not when collected


def gone_documents(documents: Iterable[Document], roots: Sequence[Path]) -> list[str]:
    """Ids of the documents whose source file is gone and lay under one of ``roots``."""
    resolved = [root.resolve() for root in roots]
    gone = []
    for document in documents:
        if not document.source:
            continue
        source = Path(document.source).resolve()
        if not any(source == root or source.is_relative_to(root) for root in resolved):
            continue
        if not source.exists():
            gone.append(document.doc_id)
    return gone


def plan_index(
    store: Store,
    files: Iterable[PlannedFile],
    key: str,
    *,
    roots: Sequence[Path] = (),
    max_chunk_chars: int,
    force: bool = False,
) -> IndexPlan:
    """What indexing ``files`` would do, without writing: each document added, changed or
    unchanged, each file skipped and why, and (with ``roots``) the documents gone."""
    changes: list[PlannedChange] = []
    skipped: list[SkippedFile] = []
    for planned in files:
        found, bad = _documents_of(planned, max_chunk_chars)
        skipped.extend(bad)
        for doc_id, digest in found:
            stored = store.reads.get_document(doc_id)
            reason = taken_reason(planned, stored, digest)
            if reason is not None:
                skipped.append(SkippedFile(str(planned.path), reason))
            elif stored is None:
                changes.append(PlannedChange(doc_id, str(planned.path), "added"))
            elif not force and same_document(stored, digest, key):
                changes.append(PlannedChange(doc_id, str(planned.path), "unchanged"))
            else:
                changes.append(PlannedChange(doc_id, str(planned.path), "changed"))
    removed = tuple(gone_documents(store.reads.documents(), roots)) if roots else ()
    return IndexPlan(tuple(changes), tuple(skipped), removed)


def _documents_of(
    planned: PlannedFile, max_chunk_chars: int
) -> tuple[list[tuple[str, str]], list[SkippedFile]]:
    """(doc id, content hash) of each document a planned file gives, and what of it is
    skipped (the file, or bad lines of a JSON Lines file)."""
    if planned.kind != "jsonl":
        try:
            return [(planned.doc_id, file_digest(planned.path))], []
        except OSError as exc:
            return [], [SkippedFile(str(planned.path), f"cannot read it: {exc.strerror or exc}")]
    contents = read_file(planned, max_chunk_chars=max_chunk_chars)
    found = [(p.document.doc_id, p.document.content_hash) for p in contents.documents]
    return found, contents.skipped
