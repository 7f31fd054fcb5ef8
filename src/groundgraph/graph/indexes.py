"""The one owner of what DocumentGraph derives from its store.

The lexical index, the title and link-key lookups, the title matcher,
the whole-graph matrix, the node vectors' index (``graph.embeddings``) and the memory's
fact states are all rebuilt from the store and
never the only copy of anything. :class:`DerivedIndexes` keeps them at the store's
generation: ``catch_up`` replays the documents another writer changed, ``rebuild`` starts
again from the store when the change log no longer reaches back, ``committed`` takes a
document this process just wrote, and ``save`` keeps a snapshot of the lexical index for
a fast cold start. Nothing else changes them.

It also keeps the store's semantic edges derived from the documents as they are now
(``index.semantic``): a write that changes the linkable documents marks them due (in the
store, so a crash before they are redone leaves them due), and ``relink`` recomputes all
of them in bulk; ``sync``, which every read runs first, catches up and relinks when due.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from groundgraph.errors import InputError, StoreError
from groundgraph.graph.embeddings import NodeEmbeddings
from groundgraph.graph.linking import KeyIndex, TitleIndex
from groundgraph.graph.node_words import NodeWords
from groundgraph.graph.title_links import TitleLinkLog, settle_title_links
from groundgraph.graph.title_mentions import TitleLog
from groundgraph.index.bm25 import BM25Params, LexicalIndex
from groundgraph.index.snapshot import dump_index, load_index
from groundgraph.model import SEMANTIC, Document, Node
from groundgraph.model.ids import FACT_PREFIX, INDEXED_KINDS
from groundgraph.store import Store
from groundgraph.text import Analyzer

if TYPE_CHECKING:  # what a write, a relink or a memory read derives, loaded when first derived
    from groundgraph.graph.shared_links import SharedTermSimilarity
    from groundgraph.index.link_params import LinkParams
    from groundgraph.index.links import TermLinker
    from groundgraph.index.semantic import Similarity
    from groundgraph.index.term_batch import TermBatch
    from groundgraph.ingest.entities.titles import TitleMatcher
    from groundgraph.memory.index import MemoryIndex
    from groundgraph.memory.timeline import FactState
    from groundgraph.walk.matrix import GraphMatrix

#: Tries at writing the semantic edges while other processes keep removing nodes.
_RELINK_ATTEMPTS = 5

INDEX_BLOB = "bm25"
#: The setting that says the stored semantic edges are older than the documents ("due").
LINKS_SETTING = "semantic_links"
LINKS_DUE = "due"


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
        similarity: Similarity | None = None,
    ) -> None:
        self.store = store
        self.embeddings = NodeEmbeddings(store, embedder)
        self.analyzer = analyzer
        self.bm25 = bm25
        self.link_params = links
        self.similarity = similarity
        self._links_due: bool | None = None  # None: read the store's setting
        self._marked = False  # this process marked the links due
        self._foreign = False  # another process wrote documents since the last relink
        self.titles = TitleLog()
        #: The nodes whose title links this process's writes may have left uncapped.
        self.title_links = TitleLinkLog()
        #: The words of the nodes this process wrote, for finding titles in them.
        self.node_words = NodeWords()
        #: Runs first in ``relink`` (the writer's refresh of title mentions), told whether
        #: this process missed writes of others.
        self.on_relink: Callable[[bool], None] | None = None
        self.generation = -1
        #: Counts the replays of other writers' changes (and rebuilds) into the index.
        self.replays = 0
        self.dirty = False
        #: The store generation at which a damaged snapshot was found (None: none was).
        self._damage_at: int | None = None
        self.index = self._open_index()
        self._linker: tuple[int, TermLinker] | None = None
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
            stored = self.store.changes.generation()
            if index is not None and generation <= stored:
                self.generation = generation
                return index
            # Unreadable, or newer than the store it was saved from: the file is damaged.
            self._damage_at = stored
        return self._index_from_store()

    @property
    def hands_off(self) -> bool:
        """True while this process has only read a store it found damaged: it then writes
        nothing of its own accord (no snapshot, no access times), so reading never changes
        a damaged file. The first write to the store ends it (the writer accepted changing
        the file, and a sound snapshot is saved with it)."""
        return self._damage_at is not None and self.store.changes.generation() == self._damage_at

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
        self.replays += 1
        self.node_words.clear()
        self._linker = None
        self._titles = self._keys = None
        self._title_matcher = None
        self._matrix = None
        self.embeddings.reset()
        if self._memory is not None:
            self._memory.rebuild(self.store)
        self.dirty = True

    # ----------------------------------------------------------------- keeping current
    def sync(self) -> None:
        """Bring every index up to the store's generation (another writer may have run),
        and the semantic edges up to the documents when they are due."""
        self.catch_up()
        if self.links_due():
            self.relink()

    def catch_up(self) -> None:
        """Bring every index up to the store's generation (another writer may have run)."""
        current = self.store.changes.generation()
        if current == self.generation:
            return
        self._links_due = None  # another writer may have changed it
        try:
            changed = self.store.changes.changed_documents(self.generation)
        except StoreError:
            self._foreign = True
            self.rebuild()
            return
        if any(d and not d.startswith(FACT_PREFIX) for d in changed):
            self._foreign = True
        self.replays += 1
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
        """Take a document out of the lexical index and the lookups."""
        self.index.remove_doc(doc_id)
        self.node_words.forget(doc_id)
        if self._titles is not None and self._keys is not None:
            self._titles.remove(doc_id)
            self._keys.remove(doc_id)

    def _index_nodes(self, nodes: Iterable[Node]) -> None:
        for node in nodes:
            if _indexed(node):
                counts = self.index.counter.counts(node.title, node.content)
                self.index.add_counts(node.node_id, node.doc_id, counts, not node.content.strip())

    def committed(
        self,
        document: Document,
        nodes: list[Node],
        counts: TermBatch,
        generation: int,
        words: Sequence[str] | None = None,
    ) -> None:
        """Index a document this process has just written at ``generation``; ``words``,
        if given, are each node's ``text.words`` joined by spaces (kept in ``node_words``)."""
        titles, keys = self.lookups()
        self.unindex(document.doc_id)
        if words is not None:
            self.node_words.keep(document.doc_id, [n.node_id for n in nodes], words)
        rows = [i for i, n in enumerate(nodes) if _indexed(n)]
        self.index.add_many(
            [nodes[i].node_id for i in rows],
            [nodes[i].doc_id for i in rows],
            counts if len(rows) == len(nodes) else counts.take(rows),
            [not nodes[i].content.strip() for i in rows],
        )
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

    def _behind(self) -> bool:
        """Whether another process wrote since this process's indexes were read."""
        return self.store.changes.generation() != self.generation

    def caught_up(self, generation: int) -> None:
        """After this process's own write at ``generation``: skip the replay when nothing
        else was written in between, else replay what was."""
        if generation == self.generation + 1:
            self.generation = generation
        else:
            self.catch_up()

    # ----------------------------------------------------------------- semantic edges
    @property
    def linker(self) -> TermLinker:
        """Top-term postings of the indexed nodes as they are now, to find a text's
        nearest nodes (built on first use after each write; semantic edges do not use it)."""
        from groundgraph.index.links import TermLinker

        if self._linker is None or self._linker[0] != self.generation:
            self._linker = (self.generation, TermLinker(self.index, self.link_params))
        return self._linker[1]

    def links_due(self) -> bool:
        """Whether the stored semantic edges are older than the documents."""
        if self._links_due is None:
            self._links_due = self.store.settings.get_setting(LINKS_SETTING) == LINKS_DUE
            if self._links_due and not self._marked:
                self._foreign = True  # left due by a process that did not relink
        return self._links_due

    def expect_links(self, doc_id: str) -> None:
        """Before a write that adds, replaces or removes document ``doc_id``: mark the
        semantic edges due, unless it is a memory fact (facts take no part in them)."""
        if doc_id.startswith(FACT_PREFIX) or self._links_due:
            return
        self.store.settings.set_setting(LINKS_SETTING, LINKS_DUE)
        self._links_due = True
        self._marked = True

    def _similarity(self) -> Similarity | None:
        """How semantic edges compare nodes: the one given, else shared terms and the
        cosine of the nodes' vectors when the graph has an embedder, else shared terms
        alone (None)."""
        if self.similarity is not None:
            return self.similarity
        if self.embeddings.active:
            from groundgraph.index.vector_links import CosineLinks, TermAndCosineLinks

            cosine = CosineLinks(self.embeddings.index, self.link_params.min_cosine)
            return TermAndCosineLinks(cosine)
        return None

    def relink(self, workers: int | None = None) -> None:
        """Settle the title links of the nodes writes left as their order made them
        (``graph.title_links``) and recompute every semantic edge from the documents as
        they are, if due; ``workers``: how many worker processes may help (the default:
        ``graph.pool.default_workers``)."""
        self.catch_up()
        if not self.links_due():
            return
        # A worker scores the semantic links of the index as it is while the title links
        # are settled (which write edges only: the index stays as it is, unless another
        # process's writes are replayed meanwhile).
        shared = self._share_links(workers)
        replays = self.replays
        try:
            self._relink(shared, replays)
        finally:
            if shared is not None:
                shared.close()

    def _share_links(self, workers: int | None) -> SharedTermSimilarity | None:
        if self._similarity() is not None or workers == 0:
            return None
        from groundgraph.graph.shared_links import SharedTermSimilarity

        return SharedTermSimilarity.start(self.index, self.link_params)

    def _relink(self, shared: Similarity | None, replays: int) -> None:
        if self.on_relink is not None:
            self.on_relink(self._foreign)
        settle_title_links(
            self.title_links,
            self.store,
            self.index,
            self.lookups(),
            self.node_words,
            self._foreign,
            self.caught_up,
        )
        from groundgraph.index.semantic import semantic_edges

        for attempt in range(_RELINK_ATTEMPTS):
            similarity = self._similarity()
            if similarity is None and attempt == 0 and self.replays == replays:
                similarity = shared
            edges = semantic_edges(self.index, self.link_params, similarity)
            try:
                generation = self.store.writes.replace_derived_edges(SEMANTIC, edges)
                break
            except InputError:
                # Another process removed a node since this index was read (the store
                # refuses an edge to it): read what changed and link again.
                if not self._behind():
                    raise
                if attempt == _RELINK_ATTEMPTS - 1:
                    # Writers keep changing documents faster than a relink: keep the edges
                    # as they are and due, for the next read; this read goes on. (logging
                    # is imported here only: a cold search would load it for nothing.)
                    import logging

                    logging.getLogger(__name__).warning(
                        "semantic edges not relinked: other processes changed documents "
                        "during %d tries; they stay due",
                        _RELINK_ATTEMPTS,
                    )
                    self.catch_up()
                    return
                self.catch_up()
        self.store.settings.set_setting(LINKS_SETTING, "")
        self._links_due = False
        self._marked = self._foreign = False
        self.caught_up(generation)

    # ----------------------------------------------------------------- lookups
    def lookups(self) -> tuple[TitleIndex, KeyIndex]:
        """Document titles (for reference edges) and link keys (for markdown links)."""
        if self._titles is None or self._keys is None:
            documents = self.store.reads.documents()
            self._titles = TitleIndex.build(documents)
            self._keys = KeyIndex.build(documents)
        return self._titles, self._keys

    def forget_titles(self) -> None:
        """Drop the title matcher (a title has left): it is built again when next used."""
        self._title_matcher = None

    def matcher(self) -> TitleMatcher:
        """The document titles as entity names (and the titles a run expects)."""
        from groundgraph.ingest.entities.titles import TitleMatcher

        if self._title_matcher is None:
            stored = (d.title for d in self.store.reads.documents())
            self._title_matcher = TitleMatcher(itertools.chain(stored, self.titles.expected))
        return self._title_matcher

    def matrix(self) -> GraphMatrix:
        """The whole graph as a sparse matrix (built on first use, rebuilt after writes)."""
        from groundgraph.walk.matrix import GraphMatrix

        self.sync()
        if self._matrix is None or self._matrix[0] != self.generation:
            self._matrix = (self.generation, GraphMatrix.from_edges(self.store.reads.iter_edges()))
        return self._matrix[1]

    def memory(self) -> MemoryIndex:
        """The memory's fact states and causal spans, caught up with the store."""
        self.sync()
        if self._memory is None:
            from groundgraph.memory.index import MemoryIndex

            self._memory = MemoryIndex(self._term_counts)
        self._memory.sync(self.store, self.generation)  # sync() has just read it
        return self._memory

    def fact_added(self, state: FactState, span_ends: Sequence[str], generation: int) -> None:
        """A new fact this process has just written at ``generation`` (``committed`` has
        indexed its node): the memory takes it as given instead of reading it back."""
        if self._memory is not None and self.generation == generation:
            self._memory.added(self.store, state, span_ends, generation)

    def _term_counts(self, title: str, content: str) -> Counter[str]:
        return self.index.counter.counts(title, content)

    # ----------------------------------------------------------------- snapshot
    def save(self) -> None:
        """Keep a snapshot of the lexical index in the store for a fast cold start."""
        self.sync()
        if self.dirty and not self.hands_off:
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
