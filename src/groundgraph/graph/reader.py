"""The read half of DocumentGraph over documents: search, views, bridges, extractive answers.

:class:`GraphReader` never writes. It reads the store and the derived indexes, bringing
them up to the store's generation first, so a graph open in one process sees what
another wrote.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from groundgraph.errors import InputError, NotFoundError, StoreError
from groundgraph.graph.document_scope import DocumentScope, document_scope
from groundgraph.graph.entity_spellings import scoped_titles
from groundgraph.graph.indexes import DerivedIndexes
from groundgraph.graph.settings import GraphSettings
from groundgraph.memory.scopes import readable_documents
from groundgraph.model import PARENT_CHILD, Answer, Bridge, Document, Hit, Node
from groundgraph.model.valid_text import has_surrogates, valid_text
from groundgraph.reason.answer import DEFAULT_THRESHOLD, extractive_answer
from groundgraph.search import SearchParams, check_query
from groundgraph.search.documents import SearchRun, run_search
from groundgraph.search.rerank import Reranker
from groundgraph.search.seeds import SEARCH_MODES
from groundgraph.search.walk_source import WalkSource
from groundgraph.store import Store

if TYPE_CHECKING:  # why_not, the views and the walk matrix load on first use
    from groundgraph.model.views import DocumentInfo, GraphStats, NodeView
    from groundgraph.model.why_not import WhyNot
    from groundgraph.reason.relations import GroundedReasoner
    from groundgraph.walk.matrix import GraphMatrix

#: Hits a search returns unless told (``max_results``, or ``top_k``).
DEFAULT_MAX_RESULTS = 8
#: The longest target id ``why_not`` takes.
MAX_TARGET_CHARS = 1000


class GraphReader:
    """``search``, ``retrieve``, ``node``, ``outline``, ``show``, ``documents``, ``stats``,
    ``bridge``, ``ask`` and ``reasoner``."""

    def __init__(
        self,
        store: Store,
        indexes: DerivedIndexes,
        settings: GraphSettings,
        rerank: Reranker | None = None,
        rerank_top_k: int = 20,
    ) -> None:
        self.store = store
        self.indexes = indexes
        self.settings = settings
        if rerank is not None and not callable(rerank):
            raise InputError("rerank must be a callable (query, texts) -> scores, or None")
        self.rerank = rerank
        self.rerank_top_k = rerank_top_k
        #: Every document as of an index generation: what scoped reads filter (a write,
        #: here or in another process, moves the generation on and so drops it).
        self._held: tuple[int, dict[str, Document]] = (-1, {})
        #: Where the walk reads its arcs: the store, then memory once this process has
        #: walked often enough to pay for it (``search.walk_source``).
        self.walks = WalkSource(store)

    # ----------------------------------------------------------------- search
    def search(
        self,
        query: str,
        max_results: int = DEFAULT_MAX_RESULTS,
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
        top_k: int | None = None,
    ) -> list[Hit]:
        """Hits for a query, best first, each saying how it was reached.

        ``walker="ppr"`` runs personalized PageRank from the seeds instead of the bounded
        walk; ``fusion="linear"`` scores ``(1 − graph_weight)·lexical + graph_weight·graph``
        instead of noisy-OR. ``scopes`` confines the search to documents (and facts) those
        scopes may read (a scope reads its ancestors; a document without scopes is read
        only by an unscoped search): nothing else is seeded, walked through or returned.
        ``search_mode="embedding"`` seeds from the nearest nodes by cosine and ``"hybrid"``
        from both rankings fused by reciprocal rank (``rrf_k``); both need an embedder.
        ``top_k`` is another name for ``max_results`` (GraphRack's).
        """
        params, walkable = self._search_params(
            max_results, top_k, max_seeds, max_hops, damping, min_score, max_activated,
            doc_ids, walker, fusion, graph_weight, scopes, search_mode, rrf_k,
        )  # fmt: skip
        return self._run(query, params, walkable).hits

    def why_not(
        self,
        query: str,
        target: str,
        max_results: int = DEFAULT_MAX_RESULTS,
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
        top_k: int | None = None,
    ) -> WhyNot:
        """Why ``target`` (a node id, or a document id: any of its nodes) is not among the
        hits ``search`` gives ``query`` with these options: the stage where it fell out,
        what that stage recorded, and a change of one option, rerun, that brings it in."""
        from groundgraph.search.why_not import why_not

        check_query(query)
        if not isinstance(target, str) or not target or len(target) > MAX_TARGET_CHARS:
            raise InputError(
                f"target must be a node id or document id of 1 to {MAX_TARGET_CHARS} characters"
            )
        params, walkable = self._search_params(
            max_results, top_k, max_seeds, max_hops, damping, min_score, max_activated,
            doc_ids, walker, fusion, graph_weight, scopes, search_mode, rrf_k,
        )  # fmt: skip
        modes = SEARCH_MODES if self.indexes.embeddings.active else ("keyword",)
        # why_not may ask about every id of the index: the documents are read once.
        scope = None if scopes is None else DocumentScope(self.store, scopes, self._documents_now())
        return why_not(
            query,
            target,
            self.indexes.index,
            self.store,
            params,
            lambda p: self._run(query, p, walkable),
            self.settings.language,
            sees=None if scope is None else scope.node,
            modes=modes,
        )

    def _search_params(
        self,
        max_results: int,
        top_k: int | None,
        max_seeds: int,
        max_hops: int,
        damping: float,
        min_score: float,
        max_activated: int,
        doc_ids: Iterable[str] | None,
        walker: str,
        fusion: str,
        graph_weight: float,
        scopes: str | Iterable[str] | None,
        search_mode: str,
        rrf_k: int,
    ) -> tuple[SearchParams, Callable[[str], bool] | None]:
        """The search's options checked, and what a scoped search may walk through."""
        if top_k is not None:
            if max_results not in (top_k, DEFAULT_MAX_RESULTS):
                raise InputError(
                    f"top_k={top_k} and max_results={max_results} disagree: pass one of them"
                )
            max_results = top_k
        self.indexes.sync()
        walkable = None
        if scopes is not None:
            doc_ids, walkable = readable_documents(self._documents_now(), scopes, doc_ids)
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
            search_mode=search_mode,
            rrf_k=rrf_k,
            rerank_top_k=self.rerank_top_k,
        )
        return params, walkable

    def _documents_now(self) -> list[Document]:
        """Every document (in no promised order), as of the generation the indexes were
        just brought to: after writes only the documents they changed are read again."""
        generation, documents = self._held
        now = self.indexes.generation
        if generation == now and generation >= 0:
            return list(documents.values())
        changed = None
        if generation >= 0:
            try:
                changed = self.store.changes.changed_documents(generation)
            except StoreError:  # the log no longer reaches back: read them all
                changed = None
        if changed is None or len(changed) > len(documents):
            documents = {d.doc_id: d for d in self.store.reads.documents()}
        else:
            for doc_id in changed:
                held = self.store.reads.get_document(doc_id) if doc_id else None
                if held is not None:
                    documents[doc_id] = held
                else:
                    documents.pop(doc_id, None)
        self._held = (now, documents)
        return list(documents.values())

    def _run(
        self, query: str, params: SearchParams, walkable: Callable[[str], bool] | None
    ) -> SearchRun:
        arcs = None
        if walkable is None and params.walker == "bounded" and params.max_hops > 0:
            arcs = self.walks.arcs(self.indexes.generation, len(self.indexes.index))
        return run_search(
            query,
            self.indexes.index,
            self.store,
            params,
            self.graph_matrix,
            walkable,
            self.indexes.embeddings,
            self.rerank,
            arcs,
        )

    def graph_matrix(self) -> GraphMatrix:
        """The whole graph as a sparse matrix (built on first use, rebuilt after writes)."""
        return self.indexes.matrix()

    def retrieve(self, query: str, **search_kwargs: Any) -> str:
        """Hits as ``### {title} [{nodeId}]`` blocks, ready to hand to a language model."""
        hits = self.search(query, **search_kwargs)
        return "\n\n".join(f"### {h.title} [{h.node_id}]\n{h.content}" for h in hits)

    # ----------------------------------------------------------------- views
    def node(self, node_id: str, scopes: str | Iterable[str] | None = None) -> Node:
        """One node by id; NotFoundError names how to find ids. With ``scopes``, a node
        those scopes may not read is unknown (``graph.document_scope``)."""
        return self._node(node_id, document_scope(self.store, scopes))

    def _node(self, node_id: str, scope: DocumentScope | None) -> Node:
        # No store holds an id that is not valid Unicode (``model.ids.check_doc_id``).
        held = not has_surrogates(node_id) and (scope is None or scope.node(node_id))
        found = self.store.reads.get_nodes([node_id]).get(node_id) if held else None
        if found is None:
            raise NotFoundError(f"unknown node {node_id!r}: use search or outline to find node ids")
        if scope is None:
            return found
        title = scoped_titles(scope, {node_id: found})[node_id]
        return replace(found, scopes=scope.shown(found.scopes), title=title)

    def outline(
        self, doc_id: str, max_depth: int = 6, scopes: str | Iterable[str] | None = None
    ) -> str:
        """A document's table of contents, one ``- [nodeId] title`` line per node; with
        ``scopes``, a document those scopes may not read is unknown."""
        scope = document_scope(self.store, scopes)
        hidden = has_surrogates(doc_id) or (scope is not None and not scope.document(doc_id))
        nodes = [] if hidden else self.store.reads.document_nodes(doc_id)
        if not nodes:
            raise NotFoundError(f"unknown document {doc_id!r}: list documents with stats")
        depth: dict[str, int] = {}
        lines = []
        for node in nodes:
            d = 0 if node.parent_id is None else depth.get(node.parent_id, 0) + 1
            depth[node.node_id] = d
            if d <= max_depth:
                lines.append(f"{'  ' * d}- [{node.node_id}] {node.title}")
        return "\n".join(lines)

    def show(self, node_id: str, scopes: str | Iterable[str] | None = None) -> NodeView:
        """A node with its parent, children and other links; with ``scopes``, only what
        those scopes may read (another node is unknown, another's links left out)."""
        from groundgraph.model.views import NodeLink, NodeRef, NodeView

        self.indexes.sync()
        scope = document_scope(self.store, scopes)
        node = self._node(node_id, scope)
        edges = self.store.reads.edges_touching([node_id])
        if scope is not None:
            edges = [e for e in edges if scope.edge(e)]
        others = {e.target if e.source == node_id else e.source for e in edges}
        titles = scoped_titles(scope, self.store.reads.get_nodes(sorted(others)))
        children = [e.target for e in edges if e.type == PARENT_CHILD and e.source == node_id]
        links = []
        for e in edges:
            if e.type != PARENT_CHILD:
                other = e.target if e.source == node_id else e.source
                direction = "out" if e.source == node_id else "in"
                links.append(NodeLink(other, titles.get(other, ""), e.type, direction, e.weight))
        return NodeView(
            node.node_id,
            node.doc_id,
            node.title,
            node.kind,
            node.level,
            node.content,
            node.span,
            node.parent_id,
            titles.get(node.parent_id or ""),
            tuple(NodeRef(c, titles.get(c, "")) for c in children),
            tuple(links),
        )

    def documents(self, scopes: str | Iterable[str] | None = None) -> list[DocumentInfo]:
        """Every document: id, title, description, source and node count; with
        ``scopes``, every document those scopes may read."""
        from groundgraph.memory.first_reads import later_reads, shown_at
        from groundgraph.model.views import DocumentInfo

        counts = self.store.reads.node_counts()
        held = self.store.reads.documents()
        if scopes is not None:
            scope = DocumentScope(self.store, scopes, held)
            held = [d for d in held if scope.document(d.doc_id)]
            # A fact another tenant pushed first shows the time these scopes got it.
            held = shown_at(held, later_reads(self.store.ledger, scope.reader.reads, held))
        return [
            DocumentInfo(
                d.doc_id, d.title, d.description, d.source, d.added_at, counts.get(d.doc_id, 0)
            )
            for d in held
        ]

    def stats(self) -> GraphStats:
        """Counts of documents, nodes, edges (by type) and terms; language; generation."""
        from groundgraph.model.views import GraphStats

        counts = self.store.reads.counts()
        self.indexes.sync()
        index = self.indexes.index
        return GraphStats(
            counts.documents,
            counts.nodes,
            counts.edges,
            dict(counts.edge_types),
            sum(1 for t in index.terms if index.df(t) > 0),
            self.settings.language,
            self.indexes.generation,
        )

    # ----------------------------------------------------------------- evidence
    def bridge(
        self,
        a: str,
        b: str,
        max_hops: int = 3,
        k: int = 3,
        scopes: str | Iterable[str] | None = None,
    ) -> list[Bridge]:
        """Up to ``k`` shortest paths between two entities, nodes or plain words, each hop
        cited; with ``scopes``, only through what those scopes may read."""
        self.indexes.sync()
        # a word end may be held by many sections: the documents are read once
        scope = None if scopes is None else DocumentScope(self.store, scopes, self._documents_now())
        from groundgraph.graph.bridges import find_bridges  # loaded by the verb that needs it

        return find_bridges(self.store, a, b, max_hops, k, self.indexes.index, scope)

    def ask(
        self,
        question: str,
        threshold: float = DEFAULT_THRESHOLD,
        max_sentences: int = 2,
        **search_kwargs: Any,
    ) -> Answer:
        """The sentences that best answer ``question``, cited, or ``insufficient_evidence``."""
        question = valid_text(question).text  # echoed in the answer, which must encode
        hits = self.search(question, **search_kwargs)
        spans = {
            n.node_id: n.span
            for n in self.store.reads.get_nodes([h.node_id for h in hits]).values()
        }
        idf = self.scoped_idf(search_kwargs.get("scopes"))
        return extractive_answer(
            question, hits, self.indexes.analyzer, idf, spans, threshold, max_sentences
        )

    def scoped_idf(self, scopes: str | Iterable[str] | None) -> Callable[[str], float]:
        """The BM25 idf of a term for a read as ``scopes``: over the nodes of the documents
        those scopes read alone (None: every node), so no other tenant's count moves it."""
        index = self.indexes.index
        if scopes is None:
            return index.idf
        doc_ids, _ = readable_documents(self._documents_now(), scopes, None)
        return index.idf_within([p for d in doc_ids for p in index.doc_positions.get(d, [])])

    def reasoner(self, **options: Any) -> GroundedReasoner:
        """A relation verifier over the graph's relation facts; proof hops cite sections."""
        self.indexes.sync()
        from groundgraph.graph.facts import build_reasoner  # loaded by the verb that needs it

        return build_reasoner(self.store, **options)
