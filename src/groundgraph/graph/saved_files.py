"""Saved graphs in and out of the store: ``load_json_documents``, ``save`` and ``load``.

A saved graph (``graph.formats``: the graph-of-thought v2 JSON and groundgraph's
extension) comes back with its edges exactly as saved, through the writer's one commit
path; ``save`` writes the whole store to one file, ``load`` streams such a file back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from groundgraph.graph.evidence import evidence_for
from groundgraph.graph.formats.saved_export import low_memory, save_graph_file
from groundgraph.graph.formats.saved_extension import SavedExtension, fact_updates
from groundgraph.graph.formats.saved_import import SavedGraphFile
from groundgraph.graph.writer import DocumentWriter
from groundgraph.index.bm25 import TermBatch
from groundgraph.ingest import ParsedDocument
from groundgraph.model import Document
from groundgraph.model.ids import check_doc_id

__all__ = ["SavedGraphs"]

#: Documents loaded between two ``LexicalIndex.forget_node_terms`` of an import.
_FORGET_EVERY = 500


class SavedGraphs:
    """Import and export of saved graphs, over one graph's writer."""

    def __init__(self, writer: DocumentWriter) -> None:
        self.writer = writer

    def load_json_documents(
        self, parsed: Iterable[ParsedDocument], extension: SavedExtension | None = None
    ) -> list[Document]:
        """Add saved documents with their edges exactly as saved (no linking), in one
        transaction."""
        self.writer.indexes.catch_up()
        with self.writer.store.writes.batch():
            return self._load(list(parsed), extension)

    def _load(
        self, parsed: list[ParsedDocument], extension: SavedExtension | None
    ) -> list[Document]:
        added = []
        for item in parsed:
            counts = TermBatch.of(
                [self.writer.indexes.index.counter.counts(n.title, n.content) for n in item.nodes]
            )
            check_doc_id(item.document.doc_id)
            if extension is None:
                entities, evidence = evidence_for(
                    item.nodes, self.writer.entities(), self.writer.relation_extractor
                )
            else:
                evidence = extension.edges.get(item.document.doc_id, [])
                entities = extension.entities_for(evidence)
            edges = [*item.edges, *evidence]
            added.append(self.writer.commit(item.document, item.nodes, edges, [], counts, entities))
        if extension is not None:
            updates = fact_updates(extension, parsed)
            if updates or extension.conflicts:
                self.writer.store.ledger.update_facts(updates, (), extension.conflicts)
                self.writer.indexes.catch_up()
        return added

    def save(self, path: str | Path) -> dict[str, int]:
        """Write the whole graph to one JSON file (the saved-graph format of ``to_json``,
        read back by ``load``); how many items each list had (``"documents"``, ...). A
        write verb, though it writes a file rather than the store: a read-only searcher
        does not offer it."""
        self.writer.indexes.sync()  # semantic links due are derived first, as to_json does
        return save_graph_file(self.writer.store, path)

    def load(self, path: str | Path) -> int:
        """Import a saved graph file (``save``'s, or ``to_json`` output written as JSON):
        read in pieces and checked whole before anything is written; documents with the
        same ids are replaced. How many documents were loaded."""
        with SavedGraphFile.read(path) as saved:
            return self.load_saved(saved)

    def load_saved(self, saved: SavedGraphFile) -> int:
        """Import an opened saved graph file in one transaction (``Store.batch``): a crash
        part way leaves the store as it was. How many documents were loaded."""
        loaded = 0

        def load(
            parsed: Sequence[ParsedDocument], extension: SavedExtension | None
        ) -> list[Document]:
            nonlocal loaded
            loaded += len(parsed)
            if loaded % _FORGET_EVERY == 0:  # the index keeps its postings only
                self.writer.indexes.index.forget_node_terms()
            return self.load_json_documents(parsed, extension)

        try:
            store = self.writer.store
            with low_memory(store):
                with self.writer.filling(), store.writes.batch():  # lookups built at the end
                    count = saved.load_into(load)
                # The index snapshot now, with the caches still held down (not at close).
                self.writer.indexes.index.forget_node_terms()
                self.writer.indexes.save()
                return count
        except BaseException:
            self.writer.indexes.rebuild()  # the commit may have failed: read the store again
            raise
