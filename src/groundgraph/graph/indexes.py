"""The one owner of what DocumentGraph derives from its store.

The lexical index and its term linker, the title and link-key lookups, the title matcher,
the whole-graph matrix, the node vectors' index (``graph.embeddings``) and the memory's
fact states are all rebuilt from the store and
never the only copy of anything. :class:`DerivedIndexes` keeps them at the store's
generation: ``sync`` replays the documents another writer changed, ``rebuild`` starts
again from the store when the change log no longer reaches back, ``committed`` takes a
document this process just wrote, and ``save`` keeps a snapshot of the lexical index for
a fast cold start. Nothing else changes them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from groundgraph.errors import StoreError
from groundgraph.graph.embeddings import NodeEmbeddings
from groundgraph.graph.linking import KeyIndex, TitleIndex
from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.index.links import LinkParams, TermLinker, TopTerms
from groundgraph.index.snapshot import dump_index, load_index
from groundgraph.index.term_batch import TermBatch
from groundgraph.ingest.entities import TitleMatcher
from groundgraph.memory.index import MemoryIndex
from groundgraph.model import Document, Node
from groundgraph.model.ids import INDEXED_KINDS
from groundgraph.store import Store
from groundgraph.text import Analyzer
from groundgraph.walk.matrix import GraphMatrix

INDEX_BLOB = "bm25"


def _indexed(node: Node) -> bool:
    return node.kind in INDEXED_KINDS and node.invalid_at is None


class DerivedIndexes:
    """The derived state of one graph, kept at the store's generation."""

    def __init__(
        self,
        store: Store,
        analyzer: Analyzer,
        bm25: BM25Params,
        links: LinkParams,
        embedder: object | None = None,
    ) -> None:
        self.store = store
        self.embeddings = NodeEmbeddings(store, embedder)
        self.analyzer = analyzer
        self.bm25 = bm25
        self.link_params = links
        self.generation = -1
        self.dirty = False
        self.index = self._open_index()
        self.linker = TermLinker(self.index, links)
        self._matrix: tuple[int, GraphMatrix] | None = None
        self._title_matcher: TitleMatcher | None = None
        self._titles: TitleIndex | None = None
        self._keys: KeyIndex | None = None
        self._memory: MemoryIndex | None = None

    # ----------------------------------------------------------------- building
    def _open_index(self) -> LexicalIndex:
        saved = self.store.blobs.load_blob(INDEX_BLOB)
        if saved is not None:
            generation, data = saved
            index = load_index(data, self.analyzer, self.bm25)
            if index is not None:
                self.generation = generation
                return index
        return self._index_from_store()

    def _index_from_store(self) -> LexicalIndex:
        index = LexicalIndex(self.analyzer, self.bm25)
        self.generation = self.store.changes.generation()
        for node in self.store.reads.iter_nodes():
            if _indexed(node):
                index.add(node.node_id, node.doc_id, node.title, node.content)
        self.dirty = len(index) > 0
        return index

    def rebuild(self) -> None:
        """Derive everything from the store again: the change log no longer reaches back
        to what this process last saw, or removed words must leave the vocabulary too."""
        self.index = self._index_from_store()
        self.linker = TermLinker(self.index, self.link_params)
        self._titles = self._keys = None
        self._title_matcher = None
        self._matrix = None
        self.embeddings.reset()
        if self._memory is not None:
            self._memory.rebuild(self.store)
        self.dirty = True

    # ----------------------------------------------------------------- keeping current
    def sync(self) -> None:
        """Bring every index up to the store's generation (another writer may have run)."""
        current = self.store.changes.generation()
        if current == self.generation:
            return
        try:
            changed = self.store.changes.changed_documents(self.generation)
        except StoreError:
            self.rebuild()
            return
        for doc_id in changed:
            self.unindex(doc_id)
            self._index_nodes(self.store.reads.document_nodes(doc_id))
            document = self.store.reads.get_document(doc_id)
            if document is not None and self._titles is not None and self._keys is not None:
                self._titles.add(document)
                self._keys.add(document)
        self.generation = current
        self.dirty = True

    def unindex(self, doc_id: str) -> None:
        """Take a document out of the lexical index, the linker and the lookups."""
        positions = list(self.index.doc_positions.get(doc_id, []))
        self.linker.forget(positions)
        self.index.remove_doc(doc_id)
        if self._titles is not None and self._keys is not None:
            self._titles.remove(doc_id)
            self._keys.remove(doc_id)

    def _index_nodes(self, nodes: Iterable[Node]) -> None:
        for node in nodes:
            if _indexed(node):
                counts = self.index.counter.counts(node.title, node.content)
                pos = self.index.add_counts(
                    node.node_id, node.doc_id, counts, not node.content.strip()
                )
                self.linker.register(pos, self.linker.top_terms(counts))

    def committed(
        self,
        document: Document,
        nodes: list[Node],
        counts: TermBatch,
        tops: list[TopTerms],
        generation: int,
    ) -> None:
        """Index a document this process has just written at ``generation``."""
        titles, keys = self.lookups()
        self.unindex(document.doc_id)
        rows = [i for i, n in enumerate(nodes) if _indexed(n)]
        positions = self.index.add_many(
            [nodes[i].node_id for i in rows],
            [nodes[i].doc_id for i in rows],
            counts if len(rows) == len(nodes) else counts.take(rows),
            [not nodes[i].content.strip() for i in rows],
        )
        self.linker.register_many(positions, [tops[i] for i in rows])
        titles.add(document)
        keys.add(document)
        if self._title_matcher is not None:
            self._title_matcher.add(document.title)
        self.dirty = True
        self.caught_up(generation)

    def removed(self, doc_id: str) -> None:
        """Forget a document this process has just removed."""
        self.unindex(doc_id)
        self.dirty = True
        self.generation = self.store.changes.generation()

    def caught_up(self, generation: int) -> None:
        """After this process's own write at ``generation``: skip the replay when nothing
        else was written in between, else replay what was."""
        if generation == self.generation + 1:
            self.generation = generation
        else:
            self.sync()

    # ----------------------------------------------------------------- lookups
    def lookups(self) -> tuple[TitleIndex, KeyIndex]:
        """Document titles (for reference edges) and link keys (for markdown links)."""
        if self._titles is None or self._keys is None:
            documents = self.store.reads.documents()
            self._titles = TitleIndex.build(documents)
            self._keys = KeyIndex.build(documents)
        return self._titles, self._keys

    def matcher(self) -> TitleMatcher:
        """The document titles as entity names."""
        if self._title_matcher is None:
            self._title_matcher = TitleMatcher(d.title for d in self.store.reads.documents())
        return self._title_matcher

    def matrix(self) -> GraphMatrix:
        """The whole graph as a sparse matrix (built on first use, rebuilt after writes)."""
        self.sync()
        if self._matrix is None or self._matrix[0] != self.generation:
            self._matrix = (self.generation, GraphMatrix.from_edges(self.store.reads.iter_edges()))
        return self._matrix[1]

    def memory(self) -> MemoryIndex:
        """The memory's fact states and causal spans, caught up with the store."""
        self.sync()
        if self._memory is None:
            self._memory = MemoryIndex(self._term_counts)
        self._memory.sync(self.store, self.generation)  # sync() has just read it
        return self._memory

    def _term_counts(self, title: str, content: str) -> Counter[str]:
        return self.index.counter.counts(title, content)

    # ----------------------------------------------------------------- snapshot
    def save(self) -> None:
        """Keep a snapshot of the lexical index in the store for a fast cold start."""
        self.sync()
        if self.dirty:
            self.store.blobs.save_blob(INDEX_BLOB, self.generation, dump_index(self.index))
            self.dirty = False

    def purge(self) -> None:
        """Rebuild from the store and replace a saved snapshot at once, so removed words
        leave the vocabulary on disk too."""
        self.rebuild()
        if self.store.blobs.load_blob(INDEX_BLOB) is not None:
            self.store.blobs.save_blob(INDEX_BLOB, self.generation, dump_index(self.index))
            self.dirty = False
        self.sync()
