"""Adding and removing documents: the write half of DocumentGraph.

Each document lands whole, in one store transaction or (adding many) in one savepoint of
a batch's transaction. Its text-only half (``graph.prepare``) may run in worker
processes (``add_documents``, ``index_files``); the half that needs the graph runs here,
one document after the other in input order, so a batch builds the graph that adding its
documents one at a time would.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import TypeVar

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph.evidence import (
    EntityExtractor,
    RelationExtractor,
    evidence_for,
    has_prose,
)
from groundgraph.graph.facts import FACTS_DOC_ID, fact_records
from groundgraph.graph.formats.saved_extension import SavedExtension, fact_updates
from groundgraph.graph.indexes import DerivedIndexes
from groundgraph.graph.linking import link_edges, semantic_edges, title_edges
from groundgraph.graph.pool import check_workers, default_workers, prepared_in_order
from groundgraph.graph.prepare import PreparedDocument, PreparedFile, Preparer, PrepareSettings
from groundgraph.graph.reindex import (
    UnchangedFile,
    ingest_key,
    same_document,
    taken_reason,
    unchanged_file,
)
from groundgraph.graph.settings import GraphSettings
from groundgraph.index.bm25 import TermBatch
from groundgraph.index.links import TopTerms
from groundgraph.ingest import ParsedDocument, parse_markdown, parse_plaintext
from groundgraph.ingest.edges import EdgeSet
from groundgraph.ingest.entities import Mention, extract_entities, with_titles
from groundgraph.ingest.folder import PlannedFile, SkippedFile
from groundgraph.ingest.relations import extract_relations
from groundgraph.model import Document, Edge, Node
from groundgraph.model.ids import check_doc_id, held_ids
from groundgraph.model.valid_text import has_surrogates
from groundgraph.model.views import ReplacedText
from groundgraph.store import PendingLink, Removal, Store

In = TypeVar("In")
Out = TypeVar("Out")
#: What ``index_files`` yields for a file: its documents, why it was skipped, that it is
#: unchanged, or a note that follows one of those (a bad line, text made valid).
IndexedFile = list[Document] | SkippedFile | UnchangedFile | ReplacedText

#: Documents (or files) whose store writes share one transaction while indexing many, and
#: the longest a batch stays open (other writers wait for it).
BATCH_DOCUMENTS = 32
BATCH_SECONDS = 0.25


class DocumentWriter:
    """``add_document``, ``add_parsed``, ``add_prepared``, ``add_documents``,
    ``index_files``, ``load_json_documents``, ``remove_document`` and ``add_fact``: every
    write of documents, over the store and the graph's derived indexes."""

    def __init__(
        self,
        store: Store,
        indexes: DerivedIndexes,
        settings: GraphSettings,
        entities: EntityExtractor | None,
        relations: RelationExtractor | None,
    ) -> None:
        self.store = store
        self.indexes = indexes
        self.settings = settings
        self.entity_extractor = entities
        self.relation_extractor = relations
        self._local_preparer: Preparer | None = None

    # ----------------------------------------------------------------- one document
    def add_document(
        self,
        content: str,
        title: str,
        doc_id: str | None = None,
        description: str = "",
        *,
        source: str = "",
        format: str = "markdown",
    ) -> Document:
        """Add a markdown (or ``format="text"``) document; the same id replaces it."""
        if not isinstance(content, str) or not isinstance(title, str):
            raise InputError("content and title must be text")
        if not title.strip():
            raise InputError("a document needs a non-empty title")
        if format not in ("markdown", "text"):
            raise InputError(f"format must be 'markdown' or 'text', not {format!r}")
        parse = parse_markdown if format == "markdown" else parse_plaintext
        parsed = parse(
            content,
            title,
            doc_id=doc_id,
            description=description,
            source=source,
            max_chunk_chars=self.settings.max_chunk_chars,
        )
        return self.add_parsed(parsed)

    def add_parsed(self, parsed: ParsedDocument) -> Document:
        """Store a parsed document and link it into the graph, in one transaction."""
        return self.add_prepared(self._preparer().prepare(parsed))

    def add_prepared(self, prepared: PreparedDocument) -> Document:
        """Store a prepared document (``graph.prepare``) and link it into the graph."""
        self.indexes.sync()
        parsed = prepared.parsed
        document = parsed.document
        check_doc_id(document.doc_id)
        titles, keys = self.indexes.lookups()
        old_positions = set(self.indexes.index.doc_positions.get(document.doc_id, []))
        nodes = parsed.nodes
        counts = prepared.counts
        tops = self.indexes.linker.top_terms_many(counts)
        references = title_edges(
            document,
            nodes,
            titles,
            self.indexes.index,
            self.store,
            [w.split() for w in prepared.words],
        )
        links, pending = link_edges(document, nodes, parsed.links, keys.resolve, self.store)
        semantic = semantic_edges(nodes, tops, self.indexes.linker, old_positions)
        # At most one edge per pair of nodes, by the same rule the parser applies.
        merged = EdgeSet()
        for edge in (*parsed.edges, *references, *links, *semantic):
            merged.link(edge.source, edge.target, edge.type, edge.weight)
        edges = merged.to_list()
        entities, evidence = evidence_for(
            nodes,
            self.entities(),
            self.relation_extractor,
            mentions=self._titled(prepared),
            stated=prepared.relations,
            sentences=prepared.sentences,
        )
        document = replace(document, ingest=self.ingest_key())
        return self.commit(document, nodes, edges + evidence, pending, counts, tops, entities)

    def _titled(self, prepared: PreparedDocument) -> list[list[Mention]] | None:
        """The prepared mentions of each node with the titles known now added."""
        if prepared.mentions is None:
            return None
        matcher = self.indexes.matcher()
        return [
            with_titles(node.content, found, masked, matcher) if has_prose(node) else []
            for node, (found, masked) in zip(prepared.parsed.nodes, prepared.mentions, strict=True)
        ]

    def entities(self) -> EntityExtractor | None:
        """The entity extractor; the default one also looks for the documents' titles."""
        if self.entity_extractor is not extract_entities:
            return self.entity_extractor
        matcher = self.indexes.matcher()
        return lambda text: extract_entities(text, titles=matcher)

    def _prepare_settings(self) -> PrepareSettings:
        return PrepareSettings(
            self.settings.language,
            self.indexes.bm25.title_boost,
            self.settings.max_chunk_chars,
            self.entity_extractor is extract_entities,
            self.relation_extractor is extract_relations,
        )

    def _preparer(self) -> Preparer:
        settings = self._prepare_settings()
        if self._local_preparer is None or self._local_preparer.settings != settings:
            self._local_preparer = Preparer(settings)
        return self._local_preparer

    def commit(
        self,
        document: Document,
        nodes: list[Node],
        edges: list[Edge],
        pending: list[PendingLink],
        counts: list[Counter[str]] | TermBatch,
        tops: list[TopTerms],
        entities: list[Node] | None = None,
    ) -> Document:
        # The store first: if it fails, the in-memory indexes still match it.
        generation, _ = self.store.writes.replace_document(
            document, nodes, edges, pending, entities or []
        )
        batch = counts if isinstance(counts, TermBatch) else TermBatch.of(counts)
        self.indexes.committed(document, nodes, batch, tops, generation)
        return document

    # ----------------------------------------------------------------- many documents
    def add_documents(
        self, parsed: Iterable[ParsedDocument], *, workers: int | None = None
    ) -> Iterator[Document]:
        """Add many parsed documents, one transaction each; yields each as it lands."""
        count = default_workers() if workers is None else check_workers(workers)
        settings = self._prepare_settings()
        local = self._preparer().prepare
        prepared = prepared_in_order(parsed, local, "parsed", settings, count)
        yield from self._in_batches(prepared, self.add_prepared)

    def index_files(
        self,
        files: Iterable[PlannedFile],
        *,
        workers: int | None = None,
        force: bool = False,
    ) -> Iterator[tuple[PlannedFile, IndexedFile]]:
        """Read, parse and add planned files: each file's documents, why not, or unchanged.

        Notes on a file follow its result: each bad line of a JSON Lines file (a
        ``SkippedFile`` with its ``line``) and each document stored with text made valid
        (``ReplacedText``)."""
        count = default_workers() if workers is None else check_workers(workers)
        settings = self._prepare_settings()
        key = self.ingest_key()
        todo: list[PlannedFile] = []
        for planned in files:
            if not force and unchanged_file(self.store, planned, key):
                yield planned, UnchangedFile(str(planned.path), planned.doc_id)
            else:
                todo.append(planned)
        local = self._preparer().prepare_file
        prepared = prepared_in_order(todo, local, "files", settings, count)
        for results in self._in_batches(prepared, lambda item: self._add_file(item, key, force)):
            yield from results

    def _add_file(
        self, item: tuple[PlannedFile, PreparedFile | SkippedFile], key: str, force: bool
    ) -> list[tuple[PlannedFile, IndexedFile]]:
        """Add one read file's documents, unless its id is taken by another file; a JSON
        Lines document stored from the same text the same way is left out."""
        planned, result = item
        if isinstance(result, SkippedFile):
            return [(planned, result)]
        notes: list[tuple[PlannedFile, IndexedFile]]
        notes = [(planned, skipped) for skipped in result.skipped]
        documents = result.documents
        taken = None
        if planned.kind != "jsonl" and len(documents) == 1:
            old = self.store.reads.get_document(planned.doc_id)
            taken = taken_reason(planned, old, documents[0].parsed.document.content_hash)
        if taken is not None:
            return [(planned, SkippedFile(str(planned.path), taken))]
        added = []
        for prepared in documents:
            document = prepared.parsed.document
            jsonl = planned.kind == "jsonl"
            stored = self.store.reads.get_document(document.doc_id) if jsonl else None
            if force or not same_document(stored, document.content_hash, key):
                added.append(self.add_prepared(prepared))
                if prepared.parsed.replaced:
                    replaced = ReplacedText(
                        str(planned.path), document.doc_id, prepared.parsed.replaced
                    )
                    notes.append((planned, replaced))
        return [(planned, added), *notes]

    def _in_batches(self, items: Iterable[In], add: Callable[[In], Out]) -> Iterator[Out]:
        """``add(item)`` for each item, the store writes of up to ``BATCH_DOCUMENTS`` items
        (or ``BATCH_SECONDS``) in one transaction (``Store.batch``); each result is
        yielded once its batch is committed, and no transaction stays open across a
        yield. When an item fails, the items before it stay written."""
        source = iter(items)
        while True:
            done: list[Out] = []
            failure: BaseException | None = None
            deadline = time.monotonic() + BATCH_SECONDS
            try:
                with self.store.writes.batch():
                    try:
                        for item in source:
                            done.append(add(item))
                            if len(done) >= BATCH_DOCUMENTS or time.monotonic() >= deadline:
                                break
                    except BaseException as exc:  # the batch commits what came before
                        failure = exc
            except BaseException:
                if done:  # the commit failed: the indexes hold what the store does not
                    self.indexes.rebuild()
                raise
            yield from done
            if failure is not None:
                raise failure
            if not done:
                return

    def ingest_key(self) -> str:
        """How this graph makes a document's rows (``graph.reindex.ingest_key``)."""
        return ingest_key(self._prepare_settings(), self.entity_extractor, self.relation_extractor)

    def load_json_documents(
        self, parsed: Iterable[ParsedDocument], extension: SavedExtension | None = None
    ) -> list[Document]:
        """Add saved documents with their edges exactly as saved (no linking)."""
        self.indexes.sync()
        parsed = list(parsed)
        added = []
        for item in parsed:
            counts = TermBatch.of(
                [self.indexes.index.counter.counts(n.title, n.content) for n in item.nodes]
            )
            tops = self.indexes.linker.top_terms_many(counts)
            check_doc_id(item.document.doc_id)
            if extension is None:
                entities, evidence = evidence_for(
                    item.nodes, self.entities(), self.relation_extractor
                )
            else:
                evidence = extension.edges.get(item.document.doc_id, [])
                entities = extension.entities_for(evidence)
            edges = [*item.edges, *evidence]
            added.append(self.commit(item.document, item.nodes, edges, [], counts, tops, entities))
        if extension is not None:
            updates = fact_updates(extension, parsed)
            if updates or extension.conflicts:
                self.store.ledger.update_facts(updates, (), extension.conflicts)
                self.indexes.sync()
        return added

    def remove_document(self, doc_id: str) -> Removal | None:
        """Remove a document and everything that touches it; None if it was not there."""
        self.indexes.sync()
        if has_surrogates(doc_id):  # no store holds such an id (check_doc_id)
            return None
        removed = self.store.writes.remove_document(doc_id)
        if removed is not None:
            self.indexes.removed(doc_id)
        return removed

    # ----------------------------------------------------------------- relation facts
    def add_fact(self, subject: str, relation: str, obj: str, source: str | None = None) -> Edge:
        """Record "obj is the relation of subject", asserted by node ``source`` if given."""
        self.indexes.sync()
        edge, entities = fact_records(subject, relation, obj, source)
        if source is not None:
            found = self.store.reads.get_nodes(held_ids([source])).get(source)
            if found is None:
                raise NotFoundError(
                    f"unknown node {source!r}: use search or outline to find node ids"
                )
            owner = found.doc_id
        else:
            owner = FACTS_DOC_ID
            if self.store.reads.get_document(owner) is None:
                root = Node(owner, owner, "document", "Facts", "")
                self.store.writes.replace_document(Document(owner, "Facts"), [root], [])
        generation = self.store.writes.add_edges(owner, [edge], entities)
        if generation == self.indexes.generation + 1:
            self.indexes.generation = generation
        self.indexes.sync()
        return edge
