"""DocumentGraph: the facade over the graph's parts, one line per verb.

It builds and holds its parts and delegates to them: the store; ``indexes``
(:class:`~groundgraph.graph.indexes.DerivedIndexes`, the one owner of what is derived from
the store); ``writer`` (documents in and out); ``reader`` (search and views); ``grounder``
(``support`` and ``ground``); ``memory`` (agent memory: facts, recall, causal reads,
lifecycle); and ``memory_reads`` (the memory's reads with the read options flat). Most
verbs are one :class:`~groundgraph.graph.part_verb.PartVerb` line naming the part's method,
whose signature and docstring are the verb's. No verb's logic lives here.
docs/architecture.md draws the parts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from groundgraph.graph.deferred import Deferred, resolve
from groundgraph.graph.embeddings import check_embed, embeds
from groundgraph.graph.indexes import DerivedIndexes
from groundgraph.graph.memory_settings import MemorySettings, check_memory_options
from groundgraph.graph.part_verb import PartVerb
from groundgraph.graph.reader import GraphReader
from groundgraph.graph.seed_names import missing_attribute
from groundgraph.graph.settings import GraphSettings, graph_settings, link_params
from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.model import Answer, Document
from groundgraph.reason.answer import DEFAULT_THRESHOLD
from groundgraph.store import SQLiteStore, Store, open_postgres
from groundgraph.text import Analyzer

# The parts a read does not need are imported when first used (issue 12, cold start): the
# type checker sees the real names, the interpreter a Deferred of each (graph.deferred).
if TYPE_CHECKING:
    from groundgraph.graph.evidence import EntityExtractor, RelationExtractor
    from groundgraph.graph.grounding import Grounder
    from groundgraph.graph.memory import Memory
    from groundgraph.graph.memory_core import MemoryContext
    from groundgraph.graph.memory_history import MemoryHistory
    from groundgraph.graph.memory_lifecycle import MemoryLifecycle
    from groundgraph.graph.memory_nodes import MemoryListing, MemoryNodes
    from groundgraph.graph.memory_reads import MemoryReads
    from groundgraph.graph.memory_write import MemoryWriter
    from groundgraph.graph.saved_files import SavedGraphs
    from groundgraph.graph.searcher import GraphSearcher
    from groundgraph.graph.writer import DocumentWriter
    from groundgraph.index.links import TermLinker
    from groundgraph.ingest.entities import extract_entities
    from groundgraph.ingest.folder import PathArg, PlannedFile
    from groundgraph.ingest.relations import extract_relations
    from groundgraph.memory.conflicts import ConflictResolver
    from groundgraph.memory.dedup import Embedder
    from groundgraph.memory.facts import CausalExtractorLike
    from groundgraph.memory.synthesis import Synthesizer
    from groundgraph.model.views import IndexPlan
    from groundgraph.reason.relations import GroundedReasoner
    from groundgraph.search.rerank import Reranker
else:
    Grounder = Deferred("groundgraph.graph.grounding", "Grounder")
    Memory = Deferred("groundgraph.graph.memory", "Memory")
    MemoryContext = Deferred("groundgraph.graph.memory_core", "MemoryContext")
    MemoryHistory = Deferred("groundgraph.graph.memory_history", "MemoryHistory")
    MemoryLifecycle = Deferred("groundgraph.graph.memory_lifecycle", "MemoryLifecycle")
    MemoryListing = Deferred("groundgraph.graph.memory_nodes", "MemoryListing")
    MemoryNodes = Deferred("groundgraph.graph.memory_nodes", "MemoryNodes")
    MemoryReads = Deferred("groundgraph.graph.memory_reads", "MemoryReads")
    MemoryWriter = Deferred("groundgraph.graph.memory_write", "MemoryWriter")
    SavedGraphs = Deferred("groundgraph.graph.saved_files", "SavedGraphs")
    GraphSearcher = Deferred("groundgraph.graph.searcher", "GraphSearcher")
    DocumentWriter = Deferred("groundgraph.graph.writer", "DocumentWriter")
    extract_entities = Deferred("groundgraph.ingest.entities", "extract_entities")
    extract_relations = Deferred("groundgraph.ingest.relations", "extract_relations")

__all__ = ["DocumentGraph", "GraphSettings"]


class DocumentGraph:
    """Documents as a graph of sections, searched by BM25 seeds and a walk along edges.

    ``path`` names a SQLite file (``":memory:"``, the default, keeps it in memory) or a
    PostgreSQL store (``"postgresql://..."``, docs/postgres.md); ``store`` takes any
    :class:`~groundgraph.store.Store` instead.
    """

    def __init__(
        self,
        path: str | Path = ":memory:",
        *,
        store: Store | None = None,
        language: str | None = None,
        max_chunk_chars: int = 2000,
        semantic_neighbors: int = 5,
        min_similarity: float | None = None,
        bm25: BM25Params | None = None,
        entities: EntityExtractor | None = extract_entities,
        relations: RelationExtractor | None = extract_relations,
        conflict_resolver: ConflictResolver | bool | None = None,
        isolate_traversal: bool = False,
        forget_after: float | None = None,
        forget_every: float | None = 3600.0,
        causal_extractor: CausalExtractorLike | bool | None = None,
        synthesizer: Synthesizer | None = None,
        embedder: Embedder | None = None,
        dedup_threshold: float | None = 0.9,
        embed: object | None = None,
        rerank: Reranker | None = None,
        rerank_top_k: int = 20,
    ) -> None:
        self.store: Store = store if store is not None else _store_at(path)
        embedding = check_embed(embed, embedder)
        # With an embedder, min_similarity is the cosine floor (term links keep 0.08).
        links = link_params(semantic_neighbors, min_similarity, embeds(self.store, embedding))
        self.settings = graph_settings(
            self.store, language, max_chunk_chars, semantic_neighbors, links.min_similarity
        )
        self.analyzer = Analyzer(self.settings.language)
        self.bm25 = bm25 or BM25Params()
        # Memory options (docs/memory.md) are checked before anything is read.
        # Memory options (docs/memory.md) are checked before anything is read; their
        # defaults are built with the memory, on its first use.
        self._memory_options = check_memory_options(
            conflict_resolver,
            isolate_traversal,
            forget_after,
            forget_every,
            causal_extractor,
            synthesizer,
            embedding,
            dedup_threshold,
        )
        self._extractors = (entities, relations)
        self.indexes = DerivedIndexes(self.store, self.analyzer, self.bm25, links, embedding)
        # A relink refreshes the title mentions, which is the writer's work: made on demand.
        self.indexes.on_relink = self._refresh_title_mentions
        self.reader = GraphReader(self.store, self.indexes, self.settings, rerank, rerank_top_k)

    # ----------------------------------------------------------------- parts made on first use
    @cached_property
    def writer(self) -> DocumentWriter:
        """Documents in and out (made on first use, as are the parts below)."""
        entities, relations = self._extractors
        return DocumentWriter(
            self.store, self.indexes, self.settings, resolve(entities), resolve(relations)
        )

    @cached_property
    def saved(self) -> SavedGraphs:
        return SavedGraphs(self.writer)

    @cached_property
    def grounder(self) -> Grounder:
        return Grounder(self.indexes, self.reader)

    @cached_property
    def memory(self) -> Memory:
        settings = self._memory_options.settings()
        return Memory(self.store, self.indexes, self.writer, self.grounder, settings)

    @cached_property
    def memory_reads(self) -> MemoryReads:
        return MemoryReads(self.memory)

    def _refresh_title_mentions(self, foreign: bool) -> None:
        # The writer, once made, puts its own refresh in place of this one.
        self.writer.refresh_title_mentions(foreign)

    @property
    def index(self) -> LexicalIndex:
        """The lexical (BM25) index, as of the last read or write."""
        return self.indexes.index

    @property
    def memory_settings(self) -> MemorySettings:
        """The memory options the graph was made with, checked."""
        return self.memory.context.settings

    @property
    def linker(self) -> TermLinker:
        return self.indexes.linker

    @property
    def entity_extractor(self) -> EntityExtractor | None:
        return self.writer.entity_extractor

    @property
    def relation_extractor(self) -> RelationExtractor | None:
        return self.writer.relation_extractor

    def searcher(self) -> GraphSearcher:
        """The read half of this graph as a type: every read verb, no write."""
        return GraphSearcher(self.store, self.reader, self.grounder, self.memory)

    @classmethod
    def open_searcher(cls, path: str | Path, **options: Any) -> GraphSearcher:
        """An existing SQLite store opened read-only, as its read half (no write verb; the
        file is never written; a missing file or another schema version is a StoreError)."""
        return cls(store=_store_at(path, read_only=True), **options).searcher()

    # ----------------------------------------------------------------- life
    def save_index(self) -> None:
        """Keep a snapshot of the lexical index in the store for a fast cold start."""
        self.indexes.save()

    def close(self) -> None:
        """Save the index snapshot if it changed, then close the store."""
        try:
            if self.indexes.dirty and getattr(self.store, "path", ":memory:") != ":memory:":
                self.indexes.save()
        finally:
            self.store.close()

    def __enter__(self) -> DocumentGraph:
        return self

    if not TYPE_CHECKING:  # hidden from mypy, which would accept any attribute otherwise

        def __getattr__(self, name: str) -> Any:
            """Only for names not found: ReasonGraph's ``query_sync`` says ``query``."""
            raise AttributeError(missing_attribute(type(self), name), name=name, obj=self)

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # ----------------------------------------------------------------- saved graphs
    def to_json(self) -> dict[str, Any]:
        """The whole graph in the graph-of-thought v2 format."""
        from groundgraph.graph.formats.saved import graph_to_json

        self.indexes.sync()  # the semantic edges as the documents are now
        return graph_to_json(self.store)

    @classmethod
    def from_json(cls, data: Any, path: str | Path = ":memory:", **kwargs: Any) -> DocumentGraph:
        """A graph rebuilt from :meth:`to_json` output, edges exactly as saved."""
        from groundgraph.graph.formats.saved import saved_graph

        parsed, extension = saved_graph(data)
        graph = cls(path, **kwargs)
        graph.saved.load_json_documents(parsed, extension)
        return graph

    def load_json(self, data: Any) -> list[Document]:
        """Import a saved graph into this one; documents with the same ids are replaced."""
        from groundgraph.graph.formats.saved import saved_graph

        return self.saved.load_json_documents(*saved_graph(data))

    # ----------------------------------------------------------------- writing documents
    add_document = PartVerb("writer", DocumentWriter.add_document)
    add_parsed = PartVerb("writer", DocumentWriter.add_parsed)

    def add_record(self, doc_id: str, text: str) -> DocumentGraph:
        """Add ``text`` as the plain-text document ``doc_id``, as a JSON Lines record
        ``{"id", "text"}`` is (titled by its id), and return this graph, so that adds chain
        as GraphRack's ``add_document(id, text)`` calls do; the same id replaces."""
        self.writer.add_document(text, doc_id, doc_id=doc_id, format="text")
        return self

    add_prepared = PartVerb("writer", DocumentWriter.add_prepared)
    add_documents = PartVerb("writer", DocumentWriter.add_documents)
    index_files = PartVerb("writer", DocumentWriter.index_files)

    def plan_index(
        self, files: Iterable[PlannedFile], *, prune: Sequence[PathArg] = (), force: bool = False
    ) -> IndexPlan:
        """What ``index_files`` would add, change and leave, and what ``prune`` would remove."""
        from groundgraph.graph.reindex import plan_index

        return plan_index(
            self.store,
            files,
            self.writer.ingest_key(),
            roots=[Path(p) for p in prune],
            max_chunk_chars=self.settings.max_chunk_chars,
            force=force,
        )

    load_json_documents = PartVerb("saved", SavedGraphs.load_json_documents)
    save = PartVerb("saved", SavedGraphs.save)
    load = PartVerb("saved", SavedGraphs.load)
    remove_document = PartVerb("writer", DocumentWriter.remove_document)
    add_fact = PartVerb("writer", DocumentWriter.add_fact)

    # ----------------------------------------------------------------- reading documents
    search = PartVerb("reader", GraphReader.search)
    why_not = PartVerb("reader", GraphReader.why_not)

    def retrieve(self, query: str, **search_kwargs: Any) -> str:
        """Hits as ``### {title} [{nodeId}]`` blocks, ready to hand to a language model."""
        return self.reader.retrieve(query, **search_kwargs)

    graph_matrix = PartVerb("reader", GraphReader.graph_matrix)
    node = PartVerb("reader", GraphReader.node)
    outline = PartVerb("reader", GraphReader.outline)
    show = PartVerb("reader", GraphReader.show)
    documents = PartVerb("reader", GraphReader.documents)
    stats = PartVerb("reader", GraphReader.stats)
    bridge = PartVerb("reader", GraphReader.bridge)

    def ask(
        self,
        question: str,
        threshold: float = DEFAULT_THRESHOLD,
        max_sentences: int = 2,
        **search_kwargs: Any,
    ) -> Answer:
        """The sentences that best answer ``question``, cited, or ``insufficient_evidence``."""
        return self.reader.ask(question, threshold, max_sentences, **search_kwargs)

    def reasoner(self, **options: Any) -> GroundedReasoner:
        """A relation verifier over the graph's relation facts; proof hops cite sections."""
        return self.reader.reasoner(**options)

    # ----------------------------------------------------------------- grounding
    node_texts = PartVerb("grounder", Grounder.node_texts)
    sections = PartVerb("grounder", Grounder.sections)
    idf = PartVerb("grounder", Grounder.idf)
    terms = PartVerb("grounder", Grounder.terms)
    candidate_nodes = PartVerb("grounder", Grounder.candidate_nodes)
    support = PartVerb("grounder", Grounder.support)
    ground = PartVerb("grounder", Grounder.ground)
    why_unsupported = PartVerb("grounder", Grounder.why_unsupported)

    # ----------------------------------------------------------------- memory: writing
    add_text = PartVerb("memory.writes", MemoryWriter.add_text)
    add_texts = PartVerb("memory.writes", MemoryWriter.add_texts)
    load_dataset = PartVerb("memory.writes", MemoryWriter.load_dataset)
    supersede = PartVerb("memory.writes", MemoryWriter.supersede)
    fact = PartVerb("memory.context", MemoryContext.fact)
    add_nodes = PartVerb("memory.nodes", MemoryNodes.add_nodes)
    add_edges = PartVerb("memory.nodes", MemoryNodes.add_edges)
    get_all_nodes = PartVerb("memory.listing", MemoryListing.get_all_nodes)
    get_all_edges = PartVerb("memory.listing", MemoryListing.get_all_edges)

    # ----------------------------------------------------------------- memory: recall, causes
    query = PartVerb("memory_reads", MemoryReads.query)
    query_detailed = PartVerb("memory_reads", MemoryReads.query_detailed)
    why_not_fact = PartVerb("memory_reads", MemoryReads.why_not_fact)
    discover = PartVerb("memory_reads", MemoryReads.discover)
    answer = PartVerb("memory_reads", MemoryReads.answer)
    trace_effects = PartVerb("memory_reads", MemoryReads.trace_effects)
    trace_causes = PartVerb("memory_reads", MemoryReads.trace_causes)
    root_causes = PartVerb("memory_reads", MemoryReads.root_causes)
    causal_chain = PartVerb("memory_reads", MemoryReads.causal_chain)
    what_if = PartVerb("memory_reads", MemoryReads.what_if)

    # ----------------------------------------------------------------- memory: lifecycle
    supersession_history = PartVerb("memory.history", MemoryHistory.supersession_history)
    conflicts = PartVerb("memory.history", MemoryHistory.conflicts)
    delete = PartVerb("memory.lifecycle", MemoryLifecycle.delete)
    delete_stale = PartVerb("memory.lifecycle", MemoryLifecycle.delete_stale)
    maybe_forget = PartVerb("memory.lifecycle", MemoryLifecycle.maybe_forget)


def _store_at(path: str | Path, *, read_only: bool = False) -> Store:
    """A SQLite file or ``:memory:``, or a PostgreSQL store for a ``postgresql://`` URL."""
    if isinstance(path, str) and path.startswith(("postgresql://", "postgres://")):
        return open_postgres(path, read_only=read_only)
    return SQLiteStore(path, read_only=read_only)
