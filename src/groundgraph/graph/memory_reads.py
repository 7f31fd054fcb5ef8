"""The memory's read verbs as ``DocumentGraph`` takes them: the read options flat.

ReasonGraph's users pass ``scopes``, ``isolate``, ``include_superseded`` and ``as_of`` to
each read; the memory parts take them as one :class:`~groundgraph.graph.memory_core.ReadOptions`.
:class:`MemoryReads` gathers them, once, for the facade and the searcher alike.
"""

from __future__ import annotations

from groundgraph.errors import InputError
from groundgraph.graph.memory import Memory
from groundgraph.graph.memory_core import ReadOptions, Scopes
from groundgraph.graph.memory_read import QUERY_VISITED
from groundgraph.memory.causal_graph import EFFECTS
from groundgraph.memory.synthesis import Synthesizer
from groundgraph.model.memory import (
    CausalHop,
    CausalTrace,
    Connection,
    MemoryAnswer,
    MemoryHit,
    WhatIf,
)
from groundgraph.model.why_not import WhyNot

__all__ = ["MemoryReads"]


class MemoryReads:
    """Recall and causal reads of one memory, each taking the read options flat."""

    def __init__(self, memory: Memory) -> None:
        self.recall = memory.recall
        self.causal = memory.causal

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
        """The texts of the ``top_k`` facts best for ``query``, best first (``search_mode`` and
        ``rrf_k`` as in :meth:`DocumentGraph.search`)."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        return self.recall.query(
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
        recall = self.recall
        return recall.query_detailed(
            query, top_k, hops, read, recency_weight, max_visited, search_mode, rrf_k
        )

    def why_not_fact(
        self,
        query: str,
        fact: str,
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
    ) -> WhyNot:
        """Why ``fact`` (its id or its text) is not among the ``top_k`` facts :meth:`query`
        recalls: the stage it fell out at and one option change, rerun, that brings it in."""
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        return self.recall.why_not_fact(
            query, fact, top_k, hops, read, recency_weight, max_visited, search_mode, rrf_k
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
        return self.recall.discover(
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
        use_discover: bool = True,
        max_results: int = 10,
    ) -> MemoryAnswer:
        """An answer in words from the recalled facts, each sentence with its support: from
        what :meth:`discover` finds (``use_discover``, up to ``max_results`` facts with the
        entities that link them), or else from the ``top_k`` facts of :meth:`query`."""
        if isinstance(top_k, bool):
            raise InputError(
                "top_k must be a whole number; pass use_discover by name: "
                "answer(query, use_discover=False)"
            )
        read = ReadOptions(scopes, isolate, include_superseded, as_of)
        recall = self.recall
        return recall.answer(
            query,
            top_k,
            hops,
            read,
            synthesizer,
            min_support,
            max_visited,
            search_mode,
            rrf_k,
            use_discover,
            max_results,
        )

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
        return self.causal.trace_effects(content, max_depth, read, max_visited)

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
        return self.causal.trace_causes(content, max_depth, read, max_visited)

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
        return self.causal.root_causes(content, max_depth, read, max_visited)

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
        causal = self.causal
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
        causal = self.causal
        return causal.what_if(content, origin, direction, max_depth, read, max_visited)
