"""Adding and removing documents: the write half of DocumentGraph.

Each document lands whole, in one store transaction or (adding many) in one savepoint of
a batch's transaction. Its text-only half (``graph.prepare``) may run in worker
processes (``add_documents``, ``index_files``); the half that needs the graph runs here,
one document after the other in input order, so a batch builds the graph that adding its
documents one at a time would. Semantic edges are not made here: a write marks them due and
``DerivedIndexes.relink`` derives them from the whole graph (at the end of a run of many
documents, else at the next read). A run of many documents that wrote most of the store
packs it at the end (``store.packing.pack_after_filling``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from functools import partial

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph import title_mentions
from groundgraph.graph.batches import write_in_batches
from groundgraph.graph.collector import collects_less
from groundgraph.graph.document_scope import with_scopes
from groundgraph.graph.evidence import EntityExtractor, RelationExtractor, evidence_for
from groundgraph.graph.facts import FACTS_DOC_ID, fact_records
from groundgraph.graph.indexes import DerivedIndexes
from groundgraph.graph.linking import link_edges, title_edges
from groundgraph.graph.pool import check_workers, default_workers, prepared_in_order
from groundgraph.graph.prepare import (
    PreparedDocument,
    PreparedFile,
    Preparer,
    PrepareSettings,
    TitleSnapshot,
)
from groundgraph.graph.reindex import (
    UnchangedFile,
    each_id_once,
    ingest_key,
    repeat_reason,
    same_document,
    taken_reason,
    unchanged_file,
)
from groundgraph.graph.settings import GraphSettings
from groundgraph.index.bm25 import TermBatch
from groundgraph.ingest import ParsedDocument, parse_markdown, parse_plaintext
from groundgraph.ingest.edges import EdgeSet
from groundgraph.ingest.entities import Mention, extract_entities
from groundgraph.ingest.folder import PlannedFile, SkippedFile, expected_title
from groundgraph.ingest.relations import extract_relations
from groundgraph.memory.scopes import check_scopes
from groundgraph.model import Document, Edge, Node
from groundgraph.model.ids import check_doc_id, held_ids
from groundgraph.model.valid_text import has_surrogates
from groundgraph.model.views import ReplacedText
from groundgraph.store import PendingLink, Removal, Store
from groundgraph.store.packing import pack_after_filling

#: What ``index_files`` yields for a file: its documents, why it was skipped, that it is
#: unchanged, or a note that follows one of those (a bad line, text made valid).
IndexedFile = list[Document] | SkippedFile | UnchangedFile | ReplacedText


class DocumentWriter:
    """``add_document``, ``add_parsed``, ``add_prepared``, ``add_documents``,
    ``index_files``, ``load_json_documents``, ``save``, ``load``, ``remove_document`` and
    ``add_fact``: every write of documents, over the store and the graph's derived
    indexes."""

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
        indexes.on_relink = self.refresh_title_mentions
        #: Whether a first ``index_files`` (or import) into an edgeless store builds the
        #: store's edge lookups at its end (``DocumentWrites.filling``); a process that
        #: serves searches between its steps (the service's ingest jobs) keeps them.
        self.edge_lookups_last = True

    def filling(self) -> AbstractContextManager[None]:
        """The block of a bulk write: ``DocumentWrites.filling`` if ``edge_lookups_last``."""
        return self.store.writes.filling() if self.edge_lookups_last else nullcontext()

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
        scopes: str | Iterable[str] | None = None,
    ) -> Document:
        """Add a markdown (or ``format="text"``) document read by ``scopes``; the same id
        replaces it."""
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
        return self.add_parsed(with_scopes(parsed, scopes))

    def add_parsed(self, parsed: ParsedDocument) -> Document:
        """Store a parsed document and link it into the graph, in one transaction."""
        return self.add_prepared(self._preparer().prepare(parsed))

    def add_prepared(self, prepared: PreparedDocument) -> Document:
        """Store a prepared document (``graph.prepare``) and link it into the graph."""
        self.indexes.catch_up()
        parsed = prepared.parsed
        document = parsed.document
        check_doc_id(document.doc_id)
        titles, keys = self.indexes.lookups()
        nodes = parsed.nodes
        counts = prepared.counts
        references = title_edges(
            document,
            nodes,
            titles,
            self.indexes.index,
            self.store,
            [w.split() for w in prepared.words],
            self.indexes.node_words,
            self.indexes.title_links.written,
            self.indexes.title_links.gained,
        )
        links, pending = link_edges(document, nodes, parsed.links, keys.resolve, self.store)
        old = self.store.reads.get_document(document.doc_id)
        if old is not None:
            self.indexes.title_links.losing(self.store, document.doc_id)
        self.indexes.titles.extracting(prepared, None if old is None else old.title)
        self.indexes.matcher().add(document.title)  # its own title is named as the others
        # At most one edge per pair of nodes, by the same rule the parser applies; the
        # semantic edges are derived from the whole graph later (``DerivedIndexes.relink``).
        merged = EdgeSet()
        for edge in (*parsed.edges, *references, *links):
            merged.link(edge.source, edge.target, edge.type, edge.weight)
        edges = merged.to_list()
        made = prepared.evidence
        if made is not None and made.state == self.indexes.matcher().state():
            entities, evidence = made.entities, made.edges  # made with today's titles
        else:
            entities, evidence = evidence_for(
                nodes,
                self.entities(),
                self.relation_extractor,
                mentions=self._titled(prepared),
                stated=prepared.relations,
                sentences=prepared.sentences,
            )
        document = replace(document, ingest=self.ingest_key())
        self.indexes.expect_links(document.doc_id)
        return self.commit(
            document, nodes, edges + evidence, pending, counts, entities, prepared.words
        )

    def _titled(self, prepared: PreparedDocument) -> list[list[Mention]] | None:
        """The prepared mentions of each node with the titles known now added."""
        if prepared.mentions is None:
            return None
        return title_mentions.with_known_titles(prepared, self.indexes.matcher())

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
        entities: list[Node] | None = None,
        words: list[str] | None = None,
    ) -> Document:
        # The store first: if it fails, the in-memory indexes still match it.
        embeddings = self.indexes.embeddings
        if not embeddings.active:
            generation, _ = self.store.writes.replace_document(
                document, nodes, edges, pending, entities or []
            )
        else:
            # Embedded before the transaction opens; written in it with the document.
            ids, vectors = embeddings.vectors_for(nodes)
            with self.store.writes.batch():
                generation, _ = self.store.writes.replace_document(
                    document, nodes, edges, pending, entities or []
                )
                if ids:
                    embeddings.record()
                    self.store.vectors.save_vectors(ids, vectors)
        batch = counts if isinstance(counts, TermBatch) else TermBatch.of(counts)
        self.indexes.committed(document, nodes, batch, generation, words)
        return document

    # ----------------------------------------------------------------- many documents
    @collects_less
    def add_documents(
        self, parsed: Iterable[ParsedDocument], *, workers: int | None = None
    ) -> Iterator[Document]:
        """Add many parsed documents, one transaction each; yields each as it lands. An id
        met twice in one call is an InputError at the second (the first stays)."""
        count = default_workers() if workers is None else check_workers(workers)
        settings = self._prepare_settings()
        before = self.store.packing.stored_bytes()
        local = self._preparer().prepare
        prepared = prepared_in_order(parsed, local, "parsed", settings, count)
        unique = each_id_once(prepared)
        yield from write_in_batches(self.store, self.indexes, unique, self.add_prepared)
        self.indexes.relink(workers=count)
        pack_after_filling(self.store.packing, before)

    @collects_less
    def index_files(
        self,
        files: Iterable[PlannedFile],
        *,
        workers: int | None = None,
        force: bool = False,
        scopes: str | Iterable[str] | None = None,
        may_replace: Callable[[Document], bool] | None = None,
    ) -> Iterator[tuple[PlannedFile, IndexedFile]]:
        """Read, parse and add planned files: each file's documents, why not, or unchanged.

        ``scopes`` read the documents added (as ``add_document``'s); a file stored for
        other scopes is read again. A stored document ``may_replace`` refuses is kept:
        the file (or JSON Lines record) that would replace it is a ``SkippedFile``.

        Notes on a file follow its result: each bad line of a JSON Lines file (a
        ``SkippedFile`` with its ``line``), each document stored with text made valid
        (``ReplacedText``), each JSON Lines record left as it is stored (``UnchangedFile``
        with its id), and each document id met a second time in one run (two JSON Lines
        records, or a record and a file), which is not written again: the first stays, and
        the repeat is a ``SkippedFile`` that names the id and where it was first met. A
        file's result and its notes come one after the other."""
        count = default_workers() if workers is None else check_workers(workers)
        settings = self._prepare_settings()
        before = self.store.packing.stored_bytes()
        key = self.ingest_key()
        run = _FileRun(key, force, {}, check_scopes(scopes), may_replace)
        todo: list[PlannedFile] = []
        for planned in files:
            if not force and unchanged_file(self.store, planned, key, run.scopes):
                if planned.doc_id:
                    run.seen.setdefault(planned.doc_id, str(planned.path))
                yield planned, UnchangedFile(str(planned.path), planned.doc_id)
            else:
                todo.append(planned)
        titles = None
        if self.entity_extractor is extract_entities:
            log, matcher = self.indexes.titles, self.indexes.matcher()
            title_mentions.expect_titles(log, self.store, matcher, map(expected_title, todo))
            # Every title of the run is known now: workers find them too.
            titles = TitleSnapshot(matcher.state(), tuple(matcher.titles))
        local = self._preparer().prepare_file
        prepared = prepared_in_order(todo, local, "files", settings, count, titles=titles)
        add = partial(self._add_file, run=run)
        with self.filling():  # a first index builds its edge lookups at the end
            for outcomes in write_in_batches(self.store, self.indexes, prepared, add):
                yield from outcomes
        self.indexes.relink(workers=count)
        pack_after_filling(self.store.packing, before)

    def _add_file(
        self,
        item: tuple[PlannedFile, PreparedFile | SkippedFile],
        run: _FileRun,
    ) -> list[tuple[PlannedFile, IndexedFile]]:
        """Add one read file's documents, unless its id is taken by another file or was met
        before in this run; a JSON Lines document stored from the same text the same way
        is left out. The file's documents first, then its notes and repeated ids."""
        planned, result = item
        if isinstance(result, SkippedFile):
            return [(planned, result)]
        notes: list[tuple[PlannedFile, IndexedFile]]
        notes = [(planned, skipped) for skipped in result.skipped]
        documents = result.documents
        taken = None
        if planned.kind != "jsonl" and len(documents) == 1:
            old = self.store.reads.get_document(planned.doc_id)
            if old is not None and run.may_replace and not run.may_replace(old):
                return [(planned, SkippedFile(str(planned.path), _held(old.doc_id)))]
            taken = taken_reason(planned, old, documents[0].parsed.document.content_hash)
        if taken is not None:
            return [(planned, SkippedFile(str(planned.path), taken))]
        added: list[Document] = []
        repeats: list[tuple[PlannedFile, IndexedFile]] = []
        path, here = str(planned.path), set[str]()
        for prepared in documents:
            document = prepared.parsed.document
            first = run.seen.setdefault(document.doc_id, path)
            if first != path or document.doc_id in here:
                repeats.append((planned, SkippedFile(path, repeat_reason(document.doc_id, first))))
                continue
            here.add(document.doc_id)
            jsonl = planned.kind == "jsonl"
            looked = jsonl or run.may_replace is not None
            stored = self.store.reads.get_document(document.doc_id) if looked else None
            if stored is not None and run.may_replace and not run.may_replace(stored):
                repeats.append((planned, SkippedFile(path, _held(document.doc_id))))
                continue
            same = jsonl and same_document(stored, document.content_hash, run.key)
            if run.force or not (same and stored is not None and stored.scopes == run.scopes):
                scoped = replace(prepared, parsed=with_scopes(prepared.parsed, run.scopes))
                added.append(self.add_prepared(scoped))
                if prepared.parsed.replaced:
                    replaced = ReplacedText(
                        str(planned.path), document.doc_id, prepared.parsed.replaced
                    )
                    notes.append((planned, replaced))
            elif jsonl:  # a record stored from the same text the same way, as plan_index says
                notes.append((planned, UnchangedFile(str(planned.path), document.doc_id)))
        if repeats and not added and not notes and planned.kind != "jsonl":
            return repeats
        return [(planned, added), *notes, *repeats]

    def ingest_key(self) -> str:
        """How this graph makes a document's rows (``graph.reindex.ingest_key``)."""
        return ingest_key(self._prepare_settings(), self.entity_extractor, self.relation_extractor)

    def remove_document(self, doc_id: str) -> Removal | None:
        """Remove a document and everything that touches it; None if it was not there."""
        self.indexes.catch_up()
        if has_surrogates(doc_id):  # no store holds such an id (check_doc_id)
            return None
        old = self.store.reads.get_document(doc_id)
        if old is not None:
            self.indexes.expect_links(doc_id)
            self.indexes.titles.removing(old.title)
            self.indexes.title_links.losing(self.store, doc_id)
        removed = self.store.writes.remove_document(doc_id)
        if removed is not None:
            self.indexes.removed(doc_id)
        return removed

    def refresh_title_mentions(self, everything: bool) -> None:
        """Extract again the mentions and co-occurrences of each document that names a
        title it was extracted without, or one that has left (``graph.title_mentions``);
        ``everything``: this process missed writes, so check every title."""
        log = self.indexes.titles
        if self.entity_extractor is not extract_entities:
            log.clear()
            return
        title_mentions.settle_expected(log, self.store, everything)
        if everything or log.left:
            self.indexes.forget_titles()
        extract = self.entities()
        assert extract is not None
        title_mentions.refresh_stale_mentions(
            log, self.store, self.indexes, self.indexes.matcher(), extract, everything
        )

    # ----------------------------------------------------------------- relation facts
    def add_fact(self, subject: str, relation: str, obj: str, source: str | None = None) -> Edge:
        """Record "obj is the relation of subject", asserted by node ``source`` if given."""
        self.indexes.catch_up()
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
        self.indexes.catch_up()
        return edge


@dataclass(frozen=True)
class _FileRun:
    """The options of one ``index_files`` run, and the ids it met (``seen``)."""

    key: str
    force: bool
    seen: dict[str, str]
    scopes: tuple[str, ...]
    may_replace: Callable[[Document], bool] | None


def _held(doc_id: str) -> str:
    return f"its document id {doc_id[:80]!r} is held by a document this write may not replace"
