"""Copying one store into another (``groundgraph copy SRC DST``): SQLite to PostgreSQL
and back, or any store to any, through the store protocols.

The copy streams: documents are read and written ``batch`` at a time (one transaction
per batch of savepoints, as bulk indexing writes), edges page through one snapshot of the
source. It is resumable: run again with the same source and target, a document already
in the target as the source has it is not written again, and how far the edges and the
ledger got is kept in the target's settings in the same transaction as what it counts,
so a copy stopped anywhere (Ctrl-C, a dropped connection, a killed process) goes on from
there when run again.

What is copied: every document with its nodes (in order) and pending links, the
entities, every edge with the document that owns it (in the order added, so the copy
walks and ranks as the source does), settings (not the generation), fact events, the
conflict ledger, access times and node vectors. Derived blobs (the index snapshot) are
not: the target derives its own at its own generation (``groundgraph copy`` does so when
the rows are in). The target must be new and
empty, or a copy of the same source begun earlier (``copy:from`` in its settings); a
source changed between two runs of one copy is best copied again into a new store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby, islice
from typing import Protocol, runtime_checkable

from groundgraph.errors import InputError
from groundgraph.model import Edge
from groundgraph.model.store_records import FactEvent, FactUpdate, PendingLink
from groundgraph.store.base import Store

__all__ = ["CopyReport", "copy_store"]

_MARK = "copy:"
_FROM = "copy:from"
_EDGES = "copy:edges"
_LEDGER = "copy:ledger"
#: Settings that belong to a store itself, never copied.
_OWN_SETTINGS = frozenset({"generation"})


@runtime_checkable
class CopyableReads(Protocol):
    """What a copy reads beyond ``GraphReads``: edges with their owners, every pending link."""

    def iter_owned_edges(self) -> Iterator[tuple[str, Edge]]: ...

    def pending_links(self) -> list[PendingLink]: ...


@runtime_checkable
class ListedSettings(Protocol):
    def setting_items(self) -> list[tuple[str, str]]: ...


@dataclass(frozen=True)
class CopyReport:
    """What a copy wrote; ``skipped`` documents were in the target already."""

    documents: int
    skipped: int
    edges: int
    facts: int
    conflicts: int
    vectors: int

    def summary(self) -> str:
        return (
            f"copied {self.documents} documents ({self.skipped} already there), "
            f"{self.edges} edges, {self.facts} fact histories, {self.conflicts} ledger "
            f"lines, {self.vectors} vectors"
        )


def copy_store(
    source: Store,
    target: Store,
    *,
    batch: int = 200,
    progress: Callable[[str, int], None] | None = None,
) -> CopyReport:
    """Copy ``source`` into ``target`` (see the module); ``progress(stage, count)`` is
    called after each batch. Returns what was written by this run."""
    reads, settings = source.reads, source.settings
    if not isinstance(reads, CopyableReads) or not isinstance(settings, ListedSettings):
        raise InputError(f"{type(source).__name__} cannot be copied from: it lists no edges")
    if batch < 1:
        raise InputError("the batch size must be at least 1")
    step = progress or (lambda stage, count: None)
    origin = str(getattr(source, "path", ""))
    began = target.settings.get_setting(_FROM)
    if began != origin:
        if began is not None or target.reads.counts().documents:
            raise InputError(
                f"the target already holds documents (not a copy of {origin} begun earlier): "
                "copy into a new, empty store"
            )
        target.settings.set_setting(_FROM, origin)
    written, skipped = _documents(source, target, reads, batch, step)
    edges = _edges(source, target, reads, batch, step)
    facts, conflicts = _ledger(source, target)
    vectors = _vectors(source, target, batch)
    for key, value in settings.setting_items():
        if key not in _OWN_SETTINGS and not key.startswith(_MARK):
            target.settings.set_setting(key, value)
    return CopyReport(written, skipped, edges, facts, conflicts, vectors)


def _documents(
    source: Store,
    target: Store,
    reads: CopyableReads,
    batch: int,
    step: Callable[[str, int], None],
) -> tuple[int, int]:
    pending: dict[str, list[PendingLink]] = {}
    for link in reads.pending_links():
        pending.setdefault(link.doc_id, []).append(link)
    documents = source.reads.documents()
    entities = source.reads.entity_nodes()
    written = skipped = 0
    for start in range(0, len(documents), batch):
        with target.writes.batch():
            for document in documents[start : start + batch]:
                if target.reads.get_document(document.doc_id) == document:
                    skipped += 1
                    continue
                nodes = source.reads.document_nodes(document.doc_id)
                target.writes.replace_document(
                    document, nodes, (), pending.get(document.doc_id, ())
                )
                written += 1
        step("documents", min(start + batch, len(documents)))
    if entities and documents:
        target.writes.add_edges(documents[0].doc_id, (), entities)
    return written, skipped


def _edges(
    source: Store,
    target: Store,
    reads: CopyableReads,
    batch: int,
    step: Callable[[str, int], None],
) -> int:
    done = int(target.settings.get_setting(_EDGES) or 0)
    owned = islice(reads.iter_owned_edges(), done, None)
    copied = 0
    while True:
        chunk = list(islice(owned, batch * 10))
        if not chunk:
            break
        with target.writes.batch():
            for owner, run in groupby(chunk, key=lambda pair: pair[0]):
                target.writes.add_edges(owner, [edge for _, edge in run])
            copied += len(chunk)
            target.settings.set_setting(_EDGES, str(done + copied))
        step("edges", done + copied)
    return copied


def _ledger(source: Store, target: Store) -> tuple[int, int]:
    if target.settings.get_setting(_LEDGER) == "done":
        return 0, 0
    events = source.ledger.fact_events()
    conflicts = source.ledger.conflict_records()
    by_fact: dict[str, list[FactEvent]] = {}
    for event in events:
        by_fact.setdefault(event.fact_id, []).append(event)
    updates = []
    for doc_id in by_fact:
        document = source.reads.get_document(doc_id)
        nodes = source.reads.document_nodes(doc_id)
        if document is None or not nodes:
            continue  # events of a fact since removed: nothing to hang them on
        history = tuple(by_fact[doc_id])
        updates.append(FactUpdate(doc_id, document.scopes, nodes[0].invalid_at, history))
    with target.writes.batch():
        target.ledger.update_facts(updates, (), conflicts)
        target.settings.set_setting(_LEDGER, "done")
    times = source.ledger.access_times()
    for at, group in groupby(sorted(times.items(), key=lambda kv: kv[1]), key=lambda kv: kv[1]):
        target.ledger.touch([node for node, _ in group], at)
    return len(updates), len(conflicts)


def _vectors(source: Store, target: Store, batch: int) -> int:
    ids, _, matrix = source.vectors.load_vectors()
    for start in range(0, len(ids), batch * 10):
        chunk: Sequence[str] = ids[start : start + batch * 10]
        with target.writes.batch():
            target.vectors.save_vectors(chunk, matrix[start : start + len(chunk)])
    return len(ids)
