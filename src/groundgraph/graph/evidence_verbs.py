"""Evidence verbs of DocumentGraph: bridges between entities, extractive answers, relation
facts and the relation verifier over them. A mixin over the parts of the graph it reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from groundgraph.graph.bridges import find_bridges
from groundgraph.graph.facts import FACTS_DOC_ID, build_reasoner, fact_records
from groundgraph.index.bm25 import LexicalIndex
from groundgraph.model import Answer, Bridge, Document, Edge, Hit, Node
from groundgraph.reason.answer import DEFAULT_THRESHOLD, extractive_answer
from groundgraph.store import Store
from groundgraph.text import Analyzer

if TYPE_CHECKING:
    from groundgraph.reason.relations import GroundedReasoner


class _GraphParts(Protocol):
    store: Store
    index: LexicalIndex
    analyzer: Analyzer
    _generation: int

    def _sync(self) -> None: ...

    def node(self, node_id: str) -> Node: ...

    def search(self, query: str, max_results: int = 8) -> list[Hit]: ...


class EvidenceVerbs:
    """``bridge``, ``ask``, ``add_fact`` and ``reasoner``, mixed into DocumentGraph."""

    def bridge(self: _GraphParts, a: str, b: str, max_hops: int = 3, k: int = 3) -> list[Bridge]:
        """Up to ``k`` shortest paths between two entities (by name) or nodes (by id),
        each hop with the sentence or section that supports it."""
        self._sync()
        return find_bridges(self.store, a, b, max_hops, k)

    def ask(
        self: _GraphParts,
        question: str,
        threshold: float = DEFAULT_THRESHOLD,
        max_sentences: int = 2,
        **search_kwargs: Any,
    ) -> Answer:
        """The sentences that best answer ``question``, cited, or ``insufficient_evidence``.

        Never writes text of its own: every sentence is copied from a section.
        """
        hits = self.search(question, **search_kwargs)
        spans = {
            n.node_id: n.span for n in self.store.get_nodes([h.node_id for h in hits]).values()
        }
        return extractive_answer(
            question, hits, self.analyzer, self.index.idf, spans, threshold, max_sentences
        )

    def add_fact(
        self: _GraphParts, subject: str, relation: str, obj: str, source: str | None = None
    ) -> Edge:
        """Record "obj is the relation of subject", asserted by node ``source`` if given.

        The fact goes with the source's document; without a source it belongs to the
        graph's ``facts`` document.
        """
        self._sync()
        edge, entities = fact_records(subject, relation, obj, source)
        if source is not None:
            owner = self.node(source).doc_id
        else:
            owner = FACTS_DOC_ID
            if self.store.get_document(owner) is None:
                root = Node(owner, owner, "document", "Facts", "")
                self.store.replace_document(Document(owner, "Facts"), [root], [])
        generation = self.store.add_edges(owner, [edge], entities)
        self._generation = generation if generation == self._generation + 1 else self._generation
        self._sync()
        return edge

    def reasoner(self: _GraphParts, **options: Any) -> GroundedReasoner:
        """A relation verifier over the graph's relation facts; proof hops cite sections."""
        self._sync()
        return build_reasoner(self.store, **options)
