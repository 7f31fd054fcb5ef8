"""DocumentGraph: the facade over ingest, store, indexes, walk and search."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from groundgraph.errors import InputError, NotFoundError, StoreError
from groundgraph.graph.evidence import EntityExtractor, RelationExtractor
from groundgraph.graph.evidence_verbs import EvidenceVerbs
from groundgraph.graph.grounding import GroundingVerbs
from groundgraph.graph.linking import KeyIndex, TitleIndex
from groundgraph.graph.memory import MemoryVerbs
from groundgraph.graph.memory_core import memory_settings
from groundgraph.graph.prepare import Preparer
from groundgraph.graph.saved import graph_to_json, saved_graph
from groundgraph.graph.views import ViewVerbs
from groundgraph.graph.writing import WriteVerbs
from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.index.links import LinkParams, TermLinker
from groundgraph.ingest.entities import TitleMatcher, extract_entities
from groundgraph.ingest.relations import extract_relations
from groundgraph.memory.scopes import readable_documents
from groundgraph.model import Document, Hit, Node
from groundgraph.model.ids import INDEXED_KINDS
from groundgraph.search import SearchParams, search
from groundgraph.store import SQLiteStore, Store
from groundgraph.text import Analyzer
from groundgraph.walk.matrix import GraphMatrix

INDEX_BLOB = "bm25"
MAX_DOCUMENT_CHARS = 50_000_000


@dataclass(frozen=True)
class GraphSettings:
    """Settings fixed for the life of a store (kept in it, checked on open)."""

    language: str = "english"
    max_chunk_chars: int = 2000
    semantic_neighbors: int = 5
    min_similarity: float = 0.08


class DocumentGraph(WriteVerbs, ViewVerbs, EvidenceVerbs, GroundingVerbs, MemoryVerbs):
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
        conflict_resolver: Any = None,
        isolate_traversal: bool = False,
        forget_after: float | None = None,
        forget_every: float = 3600.0,
        causal_extractor: Any = None,
        synthesizer: Any = None,
        embedder: Any = None,
        dedup_threshold: float | None = 0.9,
    ) -> None:
        self.store: Store = store if store is not None else SQLiteStore(path)
        stored_language = self.store.get_setting("language")
        if language is None:
            language = stored_language or "english"
        elif stored_language and stored_language != language:
            raise InputError(
                f"this store was built with language {stored_language!r}, not {language!r}; "
                "open it without a language or index into a new store"
            )
        if stored_language is None:
            self.store.set_setting("language", language)
        if max_chunk_chars < 100:
            raise InputError("max_chunk_chars must be at least 100")
        self.settings = GraphSettings(language, max_chunk_chars, semantic_neighbors, min_similarity)
        self.analyzer = Analyzer(language)
        self.bm25 = bm25 or BM25Params()
        self.entity_extractor = entities
        self.relation_extractor = relations
        self._link_params = LinkParams(neighbours=semantic_neighbors, min_similarity=min_similarity)
        self._generation = -1
        self._dirty = False
        self.index = self._open_index()
        self.linker = TermLinker(self.index, self._link_params)
        self._matrix: tuple[int, GraphMatrix] | None = None
        self._title_matcher: TitleMatcher | None = None
        self._titles: TitleIndex | None = None
        self._keys: KeyIndex | None = None
        self._local_preparer: Preparer | None = None
        # Memory options (docs/memory.md): checked and defaulted in graph.memory_core.
        self._init_memory(
            memory_settings(
                conflict_resolver,
                isolate_traversal,
                forget_after,
                forget_every,
                causal_extractor,
                synthesizer,
                embedder,
                dedup_threshold,
            )
        )

    # ----------------------------------------------------------------- index upkeep
    def _open_index(self) -> LexicalIndex:
        saved = self.store.load_blob(INDEX_BLOB)
        if saved is not None:
            generation, data = saved
            index = LexicalIndex.load(data, self.analyzer, self.bm25)
            if index is not None:
                self._generation = generation
                return index
        return self._index_from_store()

    def _index_from_store(self) -> LexicalIndex:
        index = LexicalIndex(self.analyzer, self.bm25)
        self._generation = self.store.generation()
        for node in self.store.iter_nodes():
            if node.kind in INDEXED_KINDS and node.invalid_at is None:
                index.add(node.node_id, node.doc_id, node.title, node.content)
        self._dirty = len(index) > 0
        return index

    def _rebuild(self) -> None:
        """Derive every index from the store again (the change log no longer reaches back
        to what this process last saw: another process wrote that much since)."""
        self.index = self._index_from_store()
        self.linker = TermLinker(self.index, self._link_params)
        self._titles = self._keys = None
        self._title_matcher = None
        self._matrix = None
        self._memory_index = None
        self._dirty = True

    def _sync(self) -> None:
        """Bring the derived indexes up to the store's generation (another writer may have run)."""
        current = self.store.generation()
        if current == self._generation:
            return
        try:
            changed = self.store.changed_documents(self._generation)
        except StoreError:
            self._rebuild()
            return
        for doc_id in changed:
            self._unindex(doc_id)
            nodes = self.store.document_nodes(doc_id)
            self._index_nodes(nodes)
            document = self.store.get_document(doc_id)
            if document is not None and self._titles is not None and self._keys is not None:
                self._titles.add(document)
                self._keys.add(document)
        self._generation = current
        self._dirty = True

    def _unindex(self, doc_id: str) -> None:
        positions = list(self.index.doc_positions.get(doc_id, []))
        self.linker.forget(positions)
        self.index.remove_doc(doc_id)
        if self._titles is not None and self._keys is not None:
            self._titles.remove(doc_id)
            self._keys.remove(doc_id)

    def _index_nodes(self, nodes: Iterable[Node]) -> None:
        for node in nodes:
            if node.kind in INDEXED_KINDS and node.invalid_at is None:
                counts = self.index.term_counts(node.title, node.content)
                pos = self.index.add_counts(
                    node.node_id, node.doc_id, counts, not node.content.strip()
                )
                self.linker.register(pos, self.linker.top_terms(counts))

    def save_index(self) -> None:
        """Keep a snapshot of the lexical index in the store for a fast cold start."""
        self._sync()
        if self._dirty:
            self.store.save_blob(INDEX_BLOB, self._generation, self.index.dump())
            self._dirty = False

    def close(self) -> None:
        """Save the index snapshot if it changed, then close the store."""
        try:
            if self._dirty and getattr(self.store, "path", ":memory:") != ":memory:":
                self.save_index()
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
        graph.load_json_documents(parsed, extension)
        return graph

    def load_json(self, data: Any) -> list[Document]:
        """Import a saved graph into this one; documents with the same ids are replaced."""
        return self.load_json_documents(*saved_graph(data))

    def node(self, node_id: str) -> Node:
        found = self.store.get_nodes([node_id]).get(node_id)
        if found is None:
            raise NotFoundError(f"unknown node {node_id!r}: use search or outline to find node ids")
        return found

    # ----------------------------------------------------------------- reading
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
    ) -> list[Hit]:
        """Hits for a query, best first, each saying how it was reached.

        ``walker="ppr"`` runs personalized PageRank from the seeds instead of the bounded
        walk; ``fusion="linear"`` scores ``(1 − graph_weight)·lexical + graph_weight·graph``
        instead of noisy-OR. ``scopes`` confines the search to documents (and facts) those
        scopes may read (a scope reads its ancestors; a document without scopes is read
        only by an unscoped search): nothing else is seeded, walked through or returned.
        """
        self._sync()
        walkable = None
        if scopes is not None:
            doc_ids, walkable = readable_documents(self.store.documents(), scopes, doc_ids)
        params = SearchParams(
            max_results,
            max_seeds,
            max_hops,
            damping,
            min_score,
            max_activated,
            None if doc_ids is None else tuple(doc_ids),
            walker,
            fusion,
            graph_weight,
        )
        return search(query, self.index, self.store, params, self.graph_matrix, walkable)

    def graph_matrix(self) -> GraphMatrix:
        """The whole graph as a sparse matrix (built on first use, rebuilt after writes)."""
        self._sync()
        if self._matrix is None or self._matrix[0] != self._generation:
            self._matrix = (self._generation, GraphMatrix.from_edges(self.store.iter_edges()))
        return self._matrix[1]

    def retrieve(self, query: str, **search_kwargs: Any) -> str:
        """Hits as ``### {title} [{nodeId}]`` blocks, ready to hand to a language model."""
        hits = self.search(query, **search_kwargs)
        return "\n\n".join(f"### {h.title} [{h.node_id}]\n{h.content}" for h in hits)
