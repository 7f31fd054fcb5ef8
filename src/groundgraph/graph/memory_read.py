"""Recall from memory on DocumentGraph: query, discover and answers (the causal reads are
in ``graph.memory_causal``).

Every verb takes a :class:`~groundgraph.graph.memory_core.ReadOptions`: ``scopes`` (read
as these; None reads all), ``isolate`` (stay inside them; default the graph's
``isolate_traversal``), ``include_superseded`` and ``as_of``. With isolation nothing of a
fact outside the scopes appears: not in results, explanations, paths, traces or
counterfactuals.
"""

from __future__ import annotations

import dataclasses
from dataclasses import fields
from typing import Any

from groundgraph.errors import InputError
from groundgraph.graph.grounding import Grounder
from groundgraph.graph.memory_core import MemoryContext, ReadOptions
from groundgraph.memory.causal_graph import (
    CausalReader,
)
from groundgraph.memory.fact_graph import FactGraph
from groundgraph.memory.recall import Recalled, RecallParams, RecallRun, recall, run_recall
from groundgraph.memory.synthesis import FactContext, Synthesizer
from groundgraph.memory.why_not import why_not_fact
from groundgraph.model.ids import FACT_PREFIX, fact_id
from groundgraph.model.memory import (
    AnswerSentence,
    CausePair,
    Connection,
    FactHit,
    MemoryAnswer,
    MemoryHit,
    RecallExplanation,
)
from groundgraph.model.valid_text import valid_text
from groundgraph.model.why_not import OptionValue, WhyNot
from groundgraph.search import check_query

#: The longest fact (id or text) ``why_not_fact`` takes.
MAX_FACT_CHARS = 10_000
#: Nodes a query's walk settles at most: enough for 4-hop chains, cheap on a dense memory.
QUERY_VISITED = 300


class MemoryRecall:
    """``query``, ``query_detailed``, ``discover`` and ``answer``."""

    def __init__(self, context: MemoryContext, grounder: Grounder) -> None:
        self.context = context
        self.grounder = grounder

    # ----------------------------------------------------------------- recall
    def _recall(
        self,
        query: str,
        params: RecallParams,
        read: ReadOptions,
    ) -> tuple[list[Recalled], FactGraph]:
        view = self.context.view(read)
        graph = self.context.fact_graph(view)
        index, embeddings = self.context.indexes.index, self.context.indexes.embeddings
        found = recall(query, index, self.context.memory(), graph, view, params, embeddings)
        if view.options.as_of is None:
            self.context.touch([r.fact_id for r in found])
        return found, graph

    def query(
        self,
        query: str,
        top_k: int = 5,
        hops: int = 4,
        read: ReadOptions = ReadOptions(),  # noqa: B008 (immutable)
        recency_weight: float = 0.0,
        max_visited: int = QUERY_VISITED,
        search_mode: str = "keyword",
        rrf_k: int = 60,
    ) -> list[str]:
        """The texts of the ``top_k`` facts best for ``query``, best first."""
        params = RecallParams(
            top_k, top_k, hops, recency_weight, max_visited, search_mode, rrf_k, fill=True
        )
        found, _ = self._recall(query, params, read)
        return [r.text for r in found]

    def query_detailed(
        self,
        query: str,
        top_k: int = 5,
        hops: int = 4,
        read: ReadOptions = ReadOptions(),  # noqa: B008 (immutable)
        recency_weight: float = 0.0,
        max_visited: int = QUERY_VISITED,
        search_mode: str = "keyword",
        rrf_k: int = 60,
    ) -> list[MemoryHit]:
        """Like :meth:`query`, each fact with its score, time, scopes and explanation."""
        params = RecallParams(
            top_k, top_k, hops, recency_weight, max_visited, search_mode, rrf_k, fill=True
        )
        found, graph = self._recall(query, params, read)
        return [_detailed(r, graph) for r in found]

    def discover(
        self,
        query: str,
        top_k: int = 5,
        hops: int = 4,
        read: ReadOptions = ReadOptions(),  # noqa: B008 (immutable)
        max_results: int = 10,
        max_visited: int = 1000,
        search_mode: str = "keyword",
        rrf_k: int = 60,
    ) -> list[Connection]:
        """Facts with the paths that connect them to a seed (through entities or causal
        spans), the scopes those cross, and each fact's cause → effect pairs."""
        params = RecallParams(top_k, max_results, hops, 0.0, max_visited, search_mode, rrf_k)
        found, graph = self._recall(query, params, read)
        reader = CausalReader(graph)
        out = []
        for item in found:
            hit = _detailed(item, graph)
            pairs = tuple(CausePair(c, e) for c, e in _pairs_of(reader, item.fact_id))
            out.append(
                Connection(
                    **_fact_fields(hit),
                    seed=item.seed,
                    path=hit.explanation.path,
                    edge_types=hit.edge_types,
                    causes=pairs,
                )
            )
        return out

    def why_not_fact(
        self,
        query: str,
        fact: str,
        top_k: int = 5,
        hops: int = 4,
        read: ReadOptions = ReadOptions(),  # noqa: B008 (immutable)
        recency_weight: float = 0.0,
        max_visited: int = QUERY_VISITED,
        search_mode: str = "keyword",
        rrf_k: int = 60,
    ) -> WhyNot:
        """Why ``fact`` (its id or its text) is not among the facts :meth:`query` recalls:
        the stage it fell out at and one option change, rerun, that brings it in."""
        check_query(query)
        if not isinstance(fact, str) or not fact or len(fact) > MAX_FACT_CHARS:
            raise InputError(
                f"fact must be a fact id or a fact's text of 1 to {MAX_FACT_CHARS} characters"
            )
        params = RecallParams(top_k, top_k, hops, recency_weight, max_visited, search_mode, rrf_k)
        target = fact if fact.startswith(FACT_PREFIX) else fact_id(fact)
        index, embeddings = self.context.indexes.index, self.context.indexes.embeddings

        def replay(p: RecallParams, options: ReadOptions) -> tuple[RecallRun, Any, Any]:
            view = self.context.view(options)
            graph = self.context.fact_graph(view)
            memory = self.context.memory()
            return run_recall(query, index, memory, graph, view, p, embeddings), view, graph

        def rerun(name: str, value: OptionValue) -> int | None:
            p, options = params, read
            if name == "include_superseded":
                options = dataclasses.replace(read, include_superseded=bool(value))
            elif name == "top_k":
                p = dataclasses.replace(params, seeds=int(value), limit=int(value))
            else:
                p = dataclasses.replace(params, hops=int(value))
            ids = [r.fact_id for r in replay(p, options)[0].recalled]
            return ids.index(target) + 1 if target in ids else None

        # the first run fills as query does; the counterfactuals rerun the pipeline alone
        run, view, graph = replay(dataclasses.replace(params, fill=True), read)
        language = index.analyzer.language
        return why_not_fact(
            query,
            target,
            run,
            index,
            self.context.memory(),
            graph,
            view,
            params,
            rerun,
            language,
            given=fact,
        )

    # ----------------------------------------------------------------- answers
    def answer(
        self,
        query: str,
        top_k: int = 5,
        hops: int = 4,
        read: ReadOptions = ReadOptions(),  # noqa: B008 (immutable)
        synthesizer: Synthesizer | None = None,
        min_support: float = 0.5,
        max_visited: int = QUERY_VISITED,
        search_mode: str = "keyword",
        rrf_k: int = 60,
        use_discover: bool = True,
        max_results: int = 10,
    ) -> MemoryAnswer:
        """An answer in words from the recalled facts, each sentence with its support.

        With ``use_discover`` (ReasonGraph's default) the synthesizer is given what
        :meth:`discover` finds (up to ``max_results`` facts from ``top_k`` seeds, each with
        the entities that link it to its seed); without, the ``top_k`` facts of :meth:`query`.
        """
        query = valid_text(query).text  # echoed in the answer, which must encode
        if not isinstance(use_discover, bool):
            raise InputError(f"use_discover must be True or False, not {use_discover!r}")
        limit = max_results if use_discover else top_k
        params = RecallParams(top_k, limit, hops, 0.0, max_visited, search_mode, rrf_k)
        found, graph = self._recall(query, params, read)
        reader = CausalReader(graph)
        contexts = [
            FactContext(
                r.fact_id,
                r.text,
                r.scopes,
                r.cross_scope,
                _pairs_of(reader, r.fact_id),
                r.retired,
                _bridges(r, graph) if use_discover else (),
            )
            for r in found
        ]
        synth = synthesizer if synthesizer is not None else self.context.settings.synthesizer
        if not callable(synth):
            raise InputError("synthesizer must be a callable (question, facts) -> str")
        text = synth(query, contexts) if contexts else ""
        if not isinstance(text, str):
            raise InputError(f"the synthesizer returned {type(text).__name__}, not text")
        ids = [r.fact_id for r in found]
        sentences: list[AnswerSentence] = []
        grounding: dict[str, Any] | None = None
        if text and ids:
            checked = self.grounder.ground(text, node_ids=ids, query=query, min_support=min_support)
            grounding = checked.to_dict()
            sentences = [
                AnswerSentence(c.text, c.start, c.end, c.supported, c.share, tuple(c.node_ids))
                for c in checked.claims
            ]
        return MemoryAnswer(
            query,
            text,
            "answered" if text else "no_facts",
            type(synth).__name__,
            tuple(_detailed(r, graph) for r in found),
            tuple(sentences),
            grounding,
        )


def _bridges(item: Recalled, graph: FactGraph) -> tuple[str, ...]:
    """The entities and spans on the path from the fact's seed to it, as the facts name them."""
    return tuple(dict.fromkeys(graph.name(n) for n in item.path if n not in graph.texts).keys())


def _pairs_of(reader: CausalReader, fact: str) -> tuple[tuple[str, str], ...]:
    hops = [reader.hop(e, 0) for e in reader.fact_edges(fact)]
    return tuple((h.cause, h.effect) for h in hops)


def _detailed(item: Recalled, graph: FactGraph) -> MemoryHit:
    path: list[dict[str, Any]] = []
    for node in item.path:
        if node in graph.texts:
            path.append(
                {
                    "factId": node,
                    "content": graph.texts[node],
                    "scopes": list(graph.view.scopes_at.get(node, ())),
                    "crossScope": graph.view.cross_scope(node),
                }
            )
        elif node in graph.spans:
            path.append({"span": graph.name(node)})
        else:
            path.append({"entity": graph.name(node)})
    explanation = RecallExplanation(
        item.seed,
        item.lexical_score,
        item.graph_score,
        item.hops,
        tuple(path),
        item.edge_types,
        item.terms,
        item.seeding,
    )
    reached = len(item.path) > 1
    return MemoryHit(
        content=item.text,
        fact_id=item.fact_id,
        score=item.score,
        created_at=item.created_at,
        scopes=item.scopes,
        cross_scope=item.cross_scope,
        retired=item.retired,
        node_id=item.fact_id,
        lexical_score=item.lexical_score,
        graph_score=item.graph_score,
        hops=item.hops,
        via=item.path[-2] if reached else None,
        edge_type=item.edge_types[-1] if reached and item.edge_types else None,
        terms=item.terms,
        doc_id=item.fact_id,
        title="",
        path=item.path,
        edge_types=item.edge_types,
        explanation=explanation,
    )


def _fact_fields(hit: MemoryHit) -> dict[str, Any]:
    """The fields every recalled fact has, taken from a memory hit."""
    return {f.name: getattr(hit, f.name) for f in fields(FactHit)}
