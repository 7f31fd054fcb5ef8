"""DocumentGraph: the facade over the graph's parts, one line per verb.

It builds and holds its parts and delegates to them: the store; ``indexes``
(:class:`~groundgraph.graph.indexes.DerivedIndexes`, the one owner of what is derived from
the store); ``writer`` (documents in and out); ``reader`` (search and views); ``grounder``
(``support`` and ``ground``); and ``memory`` (agent memory: facts, recall, causal reads,
lifecycle). No verb's logic lives here. docs/architecture.md draws the parts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from groundgraph.graph.embeddings import check_embed
from groundgraph.graph.evidence import EntityExtractor, RelationExtractor
from groundgraph.graph.formats.saved import graph_to_json, saved_graph
from groundgraph.graph.formats.saved_extension import SavedExtension
from groundgraph.graph.grounding import Grounder
from groundgraph.graph.indexes import DerivedIndexes
from groundgraph.graph.memory import Memory
from groundgraph.graph.memory_core import MemorySettings, ReadOptions, Scopes, memory_settings
from groundgraph.graph.memory_read import QUERY_VISITED
from groundgraph.graph.prepare import PreparedDocument
from groundgraph.graph.reader import GraphReader
from groundgraph.graph.reindex import UnchangedFile, plan_index
from groundgraph.graph.searcher import GraphSearcher
from groundgraph.graph.settings import GraphSettings, graph_settings
from groundgraph.graph.writer import DocumentWriter
from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.index.links import LinkParams, TermLinker
from groundgraph.ingest import ParsedDocument
from groundgraph.ingest.entities import extract_entities
from groundgraph.ingest.folder import PathArg, PlannedFile, SkippedFile
from groundgraph.ingest.relations import extract_relations
from groundgraph.memory.causal_graph import EFFECTS
from groundgraph.memory.conflicts import ConflictResolver
from groundgraph.memory.dedup import Embedder
from groundgraph.memory.facts import CausalExtractorLike, EntityCallable
from groundgraph.memory.synthesis import Synthesizer
from groundgraph.model import Answer, Bridge, Document, Edge, Hit, Node
from groundgraph.model.memory import (
    CausalHop,
    CausalTrace,
    ConflictLine,
    Connection,
    Fact,
    FactHistory,
    MemoryAnswer,
    MemoryHit,
    PurgeReport,
    WhatIf,
)
from groundgraph.model.views import DocumentInfo, GraphStats, IndexPlan, NodeView
from groundgraph.reason.answer import DEFAULT_THRESHOLD
from groundgraph.reason.ground import DEFAULT_MIN_SUPPORT, Grounding, SectionText, Support, Verifier
from groundgraph.search.rerank import Reranker
from groundgraph.store import Removal, SQLiteStore, Store
from groundgraph.text import Analyzer
from groundgraph.walk.matrix import GraphMatrix

if TYPE_CHECKING:
    from groundgraph.reason.relations import GroundedReasoner

__all__ = ["DocumentGraph", "GraphSettings"]


class DocumentGraph:
    """Documents as a graph of sections, searched by BM25 seeds and a walk along edges.

    ``path`` names a SQLite file (``":memory:"``, the default, keeps it in memory);
    ``store`` takes any :class:`~groundgraph.store.Store` instead.
    """

    def __init__(
        self,
        path: str | Path = ":memory:",
        *,
        store: Store | None = None,
        language: str | None = None,
        max_chunk_chars: int = 2000,
        semantic_neighbors: int = 5,
        min_similarity: float = 0.08,
        bm25: BM25Params | None = None,
        entities: EntityExtractor | None = extract_entities,
        relations: RelationExtractor | None = extract_relations,
        conflict_resolver: ConflictResolver | bool | None = None,
        isolate_traversal: bool = False,
        forget_after: float | None = None,
        forget_every: float = 3600.0,
        causal_extractor: CausalExtractorLike | bool | None = None,
        synthesizer: Synthesizer | None = None,
        embedder: Embedder | None = None,
        dedup_threshold: float | None = 0.9,
        embed: object | None = None,
        rerank: Reranker | None = None,
        rerank_top_k: int = 20,
    ) -> None:
        self.store: Store = store if store is not None else SQLiteStore(path)
        embedding = check_embed(embed, embedder)
        self.settings = graph_settings(
            self.store, language, max_chunk_chars, semantic_neighbors, min_similarity
        )
        self.analyzer = Analyzer(self.settings.language)
        self.bm25 = bm25 or BM25Params()
        links = LinkParams(neighbours=semantic_neighbors, min_similarity=min_similarity)
        # Memory options (docs/memory.md) are checked before anything is read.
        remembered = memory_settings(
            conflict_resolver,
            isolate_traversal,
            forget_after,
            forget_every,
            causal_extractor,
            synthesizer,
            embedding,
            dedup_threshold,
        )
        self.indexes = DerivedIndexes(self.store, self.analyzer, self.bm25, links, embedding)
        self.writer = DocumentWriter(self.store, self.indexes, self.settings, entities, relations)
        self.reader = GraphReader(self.store, self.indexes, self.settings, rerank, rerank_top_k)
        self.grounder = Grounder(self.indexes, self.reader)
        self.memory = Memory(self.store, self.indexes, self.writer, self.grounder, remembered)

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

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # ----------------------------------------------------------------- saved graphs
    def to_json(self) -> dict[str, Any]:
        """The whole graph in the graph-of-thought v2 format."""
        return graph_to_json(self.store)

    @classmethod
    def from_json(cls, data: Any, path: str | Path = ":memory:", **kwargs: Any) -> DocumentGraph:
        """A graph rebuilt from :meth:`to_json` output, edges exactly as saved."""
        parsed, extension = saved_graph(data)
        graph = cls(path, **kwargs)
        graph.writer.load_json_documents(parsed, extension)
        return graph

    def load_json(self, data: Any) -> list[Document]:
        """Import a saved graph into this one; documents with the same ids are replaced."""
        return self.writer.load_json_documents(*saved_graph(data))

    # ----------------------------------------------------------------- writing documents
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
        return self.writer.add_document(
            content, title, doc_id, description, source=source, format=format
        )

    def add_parsed(self, parsed: ParsedDocument) -> Document:
        """Store a parsed document and link it into the graph, in one transaction."""
        return self.writer.add_parsed(parsed)

    def add_prepared(self, prepared: PreparedDocument) -> Document:
        """Store a prepared document (``graph.prepare``) and link it into the graph."""
        return self.writer.add_prepared(prepared)

    def add_documents(
        self, parsed: Iterable[ParsedDocument], *, workers: int | None = None
    ) -> Iterator[Document]:
        """Add many parsed documents, one transaction each; yields each as it lands."""
        return self.writer.add_documents(parsed, workers=workers)

    def index_files(
        self, files: Iterable[PlannedFile], *, workers: int | None = None, force: bool = False
    ) -> Iterator[tuple[PlannedFile, list[Document] | SkippedFile | UnchangedFile]]:
        """Read, parse and add planned files: each file's documents, why not, or unchanged."""
        return self.writer.index_files(files, workers=workers, force=force)

    def plan_index(
        self, files: Iterable[PlannedFile], *, prune: Sequence[PathArg] = (), force: bool = False
    ) -> IndexPlan:
        """What ``index_files`` would add, change and leave, and what ``prune`` would remove."""
        return plan_index(
            self.store,
            files,
            self.writer.ingest_key(),
            roots=[Path(p) for p in prune],
            max_chunk_chars=self.settings.max_chunk_chars,
            force=force,
        )

    def load_json_documents(
        self, parsed: Iterable[ParsedDocument], extension: SavedExtension | None = None
    ) -> list[Document]:
        """Add saved documents with their edges exactly as saved (no linking)."""
        return self.writer.load_json_documents(parsed, extension)

    def remove_document(self, doc_id: str) -> Removal | None:
        """Remove a document and everything that touches it; None if it was not there."""
        return self.writer.remove_document(doc_id)

    def add_fact(self, subject: str, relation: str, obj: str, source: str | None = None) -> Edge:
        """Record "obj is the relation of subject", asserted by node ``source`` if given."""
        return self.writer.add_fact(subject, relation, obj, source)

    # ----------------------------------------------------------------- reading documents
    def search(
        self,
        query: str,
        max_results: int = 8,
        max_seeds: int = 5,
        max_hops: int = 2,
        damping: float = 0.85,
        min_score: float = 0.1,
        max_activated: int = 200,
        doc_ids: Iterable[str] | None = None,
        walker: str = "bounded",
        fusion: str = "noisy-or",
        graph_weight: float = 0.3,
        scopes: str | Iterable[str] | None = None,
        search_mode: str = "keyword",
        rrf_k: int = 60,
    ) -> list[Hit]:
        """Hits for a query, best first, each saying how it was reached.

        ``walker="ppr"`` runs personalized PageRank from the seeds instead of the bounded
        walk; ``fusion="linear"`` scores ``(1 − graph_weight)·lexical + graph_weight·graph``
        instead of noisy-OR. ``scopes`` confines the search to documents (and facts) those
        scopes may read (a scope reads its ancestors; a document without scopes is read
        only by an unscoped search): nothing else is seeded, walked through or returned.
        ``search_mode="embedding"`` seeds from the nearest nodes by cosine and ``"hybrid"``
        from both rankings fused by reciprocal rank (``rrf_k``); both need an embedder.
        """
        return self.reader.search(
            query,
            max_results,
            max_seeds,
            max_hops,
            damping,
            min_score,
            max_activated,
            doc_ids,
            walker,
            fusion,
            graph_weight,
            scopes,
            search_mode,
            rrf_k,
        )

    def retrieve(self, query: str, **search_kwargs: Any) -> str:
        """Hits as ``### {title} [{nodeId}]`` blocks, ready to hand to a language model."""
        return self.reader.retrieve(query, **search_kwargs)

    def graph_matrix(self) -> GraphMatrix:
        """The whole graph as a sparse matrix (built on first use, rebuilt after writes)."""
        return self.reader.graph_matrix()

    def node(self, node_id: str) -> Node:
        """One node by id; NotFoundError names how to find ids."""
        return self.reader.node(node_id)

    def outline(self, doc_id: str, max_depth: int = 6) -> str:
        """A document's table of contents, one ``- [nodeId] title`` line per node."""
        return self.reader.outline(doc_id, max_depth)

    def show(self, node_id: str) -> NodeView:
        """A node with its parent, children and other links."""
        return self.reader.show(node_id)

    def documents(self) -> list[DocumentInfo]:
        """Every document: id, title, description, source and node count."""
        return self.reader.documents()

    def stats(self) -> GraphStats:
        """Counts of documents, nodes, edges (by type) and terms; language; generation."""
        return self.reader.stats()

    def bridge(self, a: str, b: str, max_hops: int = 3, k: int = 3) -> list[Bridge]:
        """Up to ``k`` shortest paths between two entities or nodes, each hop cited."""
        return self.reader.bridge(a, b, max_hops, k)

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
    def node_texts(self, node_ids: Sequence[str]) -> dict[str, str]:
        """``title + "\\n" + content`` of each node the graph holds (others left out)."""
        return self.grounder.node_texts(node_ids)

    def sections(self, node_ids: Sequence[str]) -> dict[str, SectionText]:
        """Title, content and where the content starts in the source, per node held."""
        return self.grounder.sections(node_ids)

    def idf(self, term: str) -> float:
        """The BM25 idf of an analysed term: ln(1 + (N − df + 0.5) / (df + 0.5))."""
        return self.grounder.idf(term)

    def terms(self, text: str) -> list[str]:
        """The analysed terms of ``text``, as the index sees them."""
        return self.grounder.terms(text)

    def candidate_nodes(self, text: str, limit: int) -> list[str]:
        """Ids of the top ``limit`` search hits for ``text`` (entities left out)."""
        return self.grounder.candidate_nodes(text, limit)

    def support(self, claim: str, node_ids: Sequence[str], max_nodes: int = 2) -> Support:
        """How much of ``claim``'s rare-word weight up to ``max_nodes`` of the nodes cover."""
        return self.grounder.support(claim, node_ids, max_nodes)

    def ground(
        self,
        answer: str,
        node_ids: Sequence[str] | None = None,
        query: str | None = None,
        min_support: float = DEFAULT_MIN_SUPPORT,
        verify: Verifier | None = None,
        max_nodes: int = 2,
        *,
        check_numbers: bool = True,
        check_names: bool = True,
        check_links: bool = True,
        check_code: bool = True,
        max_candidates: int = 8,
    ) -> Grounding:
        """Each sentence of ``answer`` with its support and the sentences that back it."""
        return self.grounder.ground(
            answer,
            node_ids,
            query,
            min_support,
            verify,
            max_nodes,
            check_numbers=check_numbers,
            check_names=check_names,
            check_links=check_links,
            check_code=check_code,
            max_candidates=max_candidates,
        )

    # ----------------------------------------------------------------- memory: writing
    def add_text(
        self,
        text: str,
        scopes: Scopes = None,
        extractor: EntityCallable | None = None,
        causal: bool | CausalExtractorLike | None = None,
        dedup_threshold: float | None = None,
        resolve_conflicts: bool | None = None,
        *,
        source: str = "",
    ) -> Fact:
        """Remember one fact; returns it as stored (``Fact.status`` says what happened)."""
        return self.memory.writes.add_text(
            text, scopes, extractor, causal, dedup_threshold, resolve_conflicts, source=source
        )

    def add_texts(
        self,
        texts: Iterable[str],
        scopes: Scopes = None,
        extractor: EntityCallable | None = None,
        causal: bool | CausalExtractorLike | None = None,
        dedup_threshold: float | None = None,
        resolve_conflicts: bool | None = None,
        *,
        source: str = "",
    ) -> list[Fact]:
        """Remember facts in order, each as :meth:`add_text` would (one transaction each)."""
        return self.memory.writes.add_texts(
            texts, scopes, extractor, causal, dedup_threshold, resolve_conflicts, source=source
        )

    def load_dataset(self, name: str, scopes: Scopes = None) -> list[Fact]:
        """Add a built-in dataset's facts (``groundgraph.memory.dataset_names()``)."""
        return self.memory.writes.load_dataset(name, scopes)

    def supersede(
        self,
        old: str,
        new_text: str,
        scopes: Scopes = None,
        *,
        source: str = "",
        rule: str = "supersede",
    ) -> Fact:
        """Replace a fact by a new one; the old one is retired, its history kept."""
        return self.memory.writes.supersede(old, new_text, scopes, source=source, rule=rule)

    def fact(self, content: str) -> Fact:
        """The fact named by its id or its text, as the memory holds it now."""
        return self.memory.context.fact(content)

    # ----------------------------------------------------------------- memory: recall
    def query(
        self,
        query: str,
        top_k: int = 5,
        hops: int = 4,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        recency_weight: float = 0.0,
        max_visited: int = QUERY_VISITED,
        search_mode: str = "keyword",
        rrf_k: int = 60,
    ) -> list[str]:
        """The texts of the ``top_k`` facts best for ``query``, best first."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        return self.memory.recall.query(
            query, top_k, hops, read, recency_weight, max_visited, search_mode, rrf_k
        )

    def query_detailed(
        self,
        query: str,
        top_k: int = 5,
        hops: int = 4,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        recency_weight: float = 0.0,
        max_visited: int = QUERY_VISITED,
        search_mode: str = "keyword",
        rrf_k: int = 60,
    ) -> list[MemoryHit]:
        """Like :meth:`query`, each fact with its score, time, scopes and explanation."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        recall = self.memory.recall
        return recall.query_detailed(
            query, top_k, hops, read, recency_weight, max_visited, search_mode, rrf_k
        )

    def discover(
        self,
        query: str,
        top_k: int = 5,
        hops: int = 4,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        max_results: int = 10,
        max_visited: int = 1000,
        search_mode: str = "keyword",
        rrf_k: int = 60,
    ) -> list[Connection]:
        """Facts with the paths that connect them to a seed, and their cause → effect pairs."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        return self.memory.recall.discover(
            query, top_k, hops, read, max_results, max_visited, search_mode, rrf_k
        )

    def answer(
        self,
        query: str,
        top_k: int = 5,
        hops: int = 4,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        synthesizer: Synthesizer | None = None,
        min_support: float = 0.5,
        max_visited: int = QUERY_VISITED,
        search_mode: str = "keyword",
        rrf_k: int = 60,
    ) -> MemoryAnswer:
        """An answer in words from the recalled facts, each sentence with its support."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        recall = self.memory.recall
        return recall.answer(
            query, top_k, hops, read, synthesizer, min_support, max_visited, search_mode, rrf_k
        )

    # ----------------------------------------------------------------- memory: causes
    def trace_effects(
        self,
        content: str,
        max_depth: int = 6,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        max_visited: int = 1000,
    ) -> CausalTrace:
        """What follows from a fact (or a cause phrase), each hop cited to its fact."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        return self.memory.causal.trace_effects(content, max_depth, read, max_visited)

    def trace_causes(
        self,
        content: str,
        max_depth: int = 6,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        max_visited: int = 1000,
    ) -> CausalTrace:
        """What led to a fact (or an effect phrase), walking ``causes`` edges backwards."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        return self.memory.causal.trace_causes(content, max_depth, read, max_visited)

    def root_causes(
        self,
        content: str,
        max_depth: int = 6,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        max_visited: int = 1000,
    ) -> list[str]:
        """The causes nothing visible explains further: the terminals of trace_causes."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        return self.memory.causal.root_causes(content, max_depth, read, max_visited)

    def causal_chain(
        self,
        from_content: str,
        to_content: str,
        max_depth: int = 6,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        max_visited: int = 1000,
    ) -> list[CausalHop] | None:
        """The shortest cited run of cause → effect hops between two facts, or None."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        causal = self.memory.causal
        return causal.causal_chain(from_content, to_content, max_depth, read, max_visited)

    def what_if(
        self,
        content: str,
        origin: str | None = None,
        direction: str = EFFECTS,
        max_depth: int = 6,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        max_visited: int = 1000,
    ) -> WhatIf:
        """If a fact were false: which effects collapse and which another path keeps."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        causal = self.memory.causal
        return causal.what_if(content, origin, direction, max_depth, read, max_visited)

    # ----------------------------------------------------------------- memory: lifecycle
    def supersession_history(self, fact: str, scopes: Scopes = None) -> FactHistory:
        """What a fact replaced and what replaced it, and every change in its life."""
        return self.memory.history.supersession_history(fact, scopes)

    def conflicts(self, scopes: Scopes = None) -> list[ConflictLine]:
        """The contradiction ledger, oldest first: both facts as they were, the rule, when."""
        return self.memory.history.conflicts(scopes)

    def delete(self, fact_or_doc: str, purge_orphans: bool = False) -> PurgeReport:
        """Remove a fact or a document and report every node, edge and entity that went."""
        return self.memory.lifecycle.delete(fact_or_doc, purge_orphans)

    def delete_stale(self, now: object = None) -> list[PurgeReport]:
        """Delete every fact not read for ``forget_after`` days; the reports."""
        return self.memory.lifecycle.delete_stale(now)

    def maybe_forget(self) -> list[PurgeReport]:
        """:meth:`delete_stale`, at most once per ``forget_every`` seconds."""
        return self.memory.lifecycle.maybe_forget()
