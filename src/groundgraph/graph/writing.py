"""Adding and removing documents: DocumentGraph's write verbs, as a mixin.

Each document lands in one store transaction. Its text-only half (``graph.prepare``) may
run in worker processes (``add_documents``, ``index_files``); the half that needs the
graph runs here, one document after the other in input order, so a batch builds the
graph that adding its documents one at a time would.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from groundgraph.errors import InputError
from groundgraph.graph.evidence import (
    EntityExtractor,
    RelationExtractor,
    evidence_for,
    has_prose,
)
from groundgraph.graph.linking import KeyIndex, TitleIndex, link_edges, semantic_edges, title_edges
from groundgraph.graph.pool import check_workers, default_workers, prepared_in_order
from groundgraph.graph.prepare import PreparedDocument, Preparer, PrepareSettings
from groundgraph.graph.saved_extension import SavedExtension, fact_updates
from groundgraph.index.bm25 import BM25Params, LexicalIndex, TermBatch
from groundgraph.index.links import TermLinker, TopTerms
from groundgraph.ingest import ParsedDocument, parse_markdown, parse_plaintext
from groundgraph.ingest.edges import EdgeSet
from groundgraph.ingest.entities import Mention, TitleMatcher, extract_entities, with_titles
from groundgraph.ingest.folder import PlannedFile, SkippedFile
from groundgraph.ingest.relations import extract_relations
from groundgraph.model import Document, Edge, Node
from groundgraph.model.ids import INDEXED_KINDS, check_doc_id
from groundgraph.store import PendingLink, Removal, Store
from groundgraph.text import Analyzer


class WriteVerbs:
    """``add_document``, ``add_parsed``, ``add_documents``, ``index_files``,
    ``load_json`` and ``remove_document``, mixed into DocumentGraph."""

    store: Store
    index: LexicalIndex
    linker: TermLinker
    analyzer: Analyzer
    bm25: BM25Params
    settings: Any
    entity_extractor: EntityExtractor | None
    relation_extractor: RelationExtractor | None
    _generation: int
    _dirty: bool
    _title_matcher: TitleMatcher | None
    _titles: TitleIndex | None
    _keys: KeyIndex | None
    _local_preparer: Preparer | None

    if TYPE_CHECKING:

        def _sync(self) -> None: ...

        def _unindex(self, doc_id: str) -> None: ...

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
        self._sync()
        parsed = prepared.parsed
        document = parsed.document
        check_doc_id(document.doc_id)
        titles, keys = self._lookups()
        old_positions = set(self.index.doc_positions.get(document.doc_id, []))
        nodes = parsed.nodes
        counts = prepared.counts
        tops = self.linker.top_terms_many(counts)
        references = title_edges(
            document, nodes, titles, self.index, self.store, [w.split() for w in prepared.words]
        )
        links, pending = link_edges(document, nodes, parsed.links, keys.resolve, self.store)
        semantic = semantic_edges(nodes, tops, self.linker, old_positions)
        # At most one edge per pair of nodes, by the same rule the parser applies.
        merged = EdgeSet()
        for edge in (*parsed.edges, *references, *links, *semantic):
            merged.link(edge.source, edge.target, edge.type, edge.weight)
        edges = merged.to_list()
        entities, evidence = evidence_for(
            nodes,
            self._entities(),
            self.relation_extractor,
            mentions=self._titled(prepared),
            stated=prepared.relations,
            sentences=prepared.sentences,
        )
        return self._commit(document, nodes, edges + evidence, pending, counts, tops, entities)

    def _titled(self, prepared: PreparedDocument) -> list[list[Mention]] | None:
        """The prepared mentions of each node with the titles known now added."""
        if prepared.mentions is None:
            return None
        matcher = self._matcher()
        return [
            with_titles(node.content, found, masked, matcher) if has_prose(node) else []
            for node, (found, masked) in zip(prepared.parsed.nodes, prepared.mentions, strict=True)
        ]

    def _matcher(self) -> TitleMatcher:
        if self._title_matcher is None:
            self._title_matcher = TitleMatcher(d.title for d in self.store.documents())
        return self._title_matcher

    def _entities(self) -> EntityExtractor | None:
        """The entity extractor; the default one also looks for the documents' titles."""
        if self.entity_extractor is not extract_entities:
            return self.entity_extractor
        matcher = self._matcher()
        return lambda text: extract_entities(text, titles=matcher)

    def _prepare_settings(self) -> PrepareSettings:
        return PrepareSettings(
            self.settings.language,
            self.bm25.title_boost,
            self.settings.max_chunk_chars,
            self.entity_extractor is extract_entities,
            self.relation_extractor is extract_relations,
        )

    def _preparer(self) -> Preparer:
        settings = self._prepare_settings()
        if self._local_preparer is None or self._local_preparer.settings != settings:
            self._local_preparer = Preparer(settings)
        return self._local_preparer

    def _commit(
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
        titles, keys = self._lookups()
        generation, _ = self.store.replace_document(document, nodes, edges, pending, entities or [])
        self._unindex(document.doc_id)
        batch = counts if isinstance(counts, TermBatch) else TermBatch.of(counts)
        rows = [i for i, n in enumerate(nodes) if n.kind in INDEXED_KINDS and n.invalid_at is None]
        positions = self.index.add_many(
            [nodes[i].node_id for i in rows],
            [nodes[i].doc_id for i in rows],
            batch if len(rows) == len(nodes) else batch.take(rows),
            [not nodes[i].content.strip() for i in rows],
        )
        self.linker.register_many(positions, [tops[i] for i in rows])
        titles.add(document)
        keys.add(document)
        if self._title_matcher is not None:
            self._title_matcher.add(document.title)
        self._dirty = True
        if generation == self._generation + 1:
            self._generation = generation
        else:
            self._sync()
        return document

    def _lookups(self) -> tuple[TitleIndex, KeyIndex]:
        if self._titles is None or self._keys is None:
            documents = self.store.documents()
            self._titles = TitleIndex.build(documents)
            self._keys = KeyIndex.build(documents)
        return self._titles, self._keys

    # ----------------------------------------------------------------- many documents
    def add_documents(
        self, parsed: Iterable[ParsedDocument], *, workers: int | None = None
    ) -> Iterator[Document]:
        """Add many parsed documents, one transaction each; yields each as it lands.

        Past the first few documents, their text-only half runs in ``workers`` processes
        (default: ``GROUNDGRAPH_WORKERS``, else one per core but one; 0: none); the
        graph is the one adding them one at a time in this order gives.
        """
        count = default_workers() if workers is None else check_workers(workers)
        settings = self._prepare_settings()
        local = self._preparer().prepare
        for prepared in prepared_in_order(parsed, local, "parsed", settings, count):
            yield self.add_prepared(prepared)

    def index_files(
        self, files: Iterable[PlannedFile], *, workers: int | None = None
    ) -> Iterator[tuple[PlannedFile, list[Document] | SkippedFile]]:
        """Read, parse and add planned files (``ingest.plan_folder``) in order: for each
        file, the documents it gave or why it was skipped. ``workers`` as in
        ``add_documents``; files are read and parsed in the workers too."""
        count = default_workers() if workers is None else check_workers(workers)
        settings = self._prepare_settings()
        local = self._preparer().prepare_file
        for planned, result in prepared_in_order(files, local, "files", settings, count):
            if isinstance(result, SkippedFile):
                yield planned, result
            else:
                yield planned, [self.add_prepared(item) for item in result]

    def load_json_documents(
        self, parsed: Iterable[ParsedDocument], extension: SavedExtension | None = None
    ) -> list[Document]:
        """Add saved documents with their edges exactly as saved (no linking).

        With ``extension`` (``graph.saved_extension``), the evidence and memory edges and
        the facts' history come from it; without, the evidence layer is rebuilt from text.
        """
        self._sync()
        parsed = list(parsed)
        added = []
        for item in parsed:
            counts = TermBatch.of([self.index.term_counts(n.title, n.content) for n in item.nodes])
            tops = self.linker.top_terms_many(counts)
            check_doc_id(item.document.doc_id)
            if extension is None:
                entities, evidence = evidence_for(
                    item.nodes, self._entities(), self.relation_extractor
                )
            else:
                evidence = extension.edges.get(item.document.doc_id, [])
                entities = extension.entities_for(evidence)
            edges = [*item.edges, *evidence]
            added.append(self._commit(item.document, item.nodes, edges, [], counts, tops, entities))
        if extension is not None:
            updates = fact_updates(extension, parsed)
            if updates or extension.conflicts:
                self.store.update_facts(updates, (), extension.conflicts)
                self._sync()
        return added

    def remove_document(self, doc_id: str) -> Removal | None:
        """Remove a document and everything that touches it; None if it was not there."""
        self._sync()
        removed = self.store.remove_document(doc_id)
        if removed is not None:
            self._unindex(doc_id)
            self._dirty = True
            self._generation = self.store.generation()
        return removed
