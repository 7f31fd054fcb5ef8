"""The reading verbs of memory on DocumentGraph: recall, discover, causal traces, what-if,
answers.

Every verb takes the same read options: ``scopes`` (read as these; None reads all),
``isolate`` (stay inside them; default the graph's ``isolate_traversal``),
``include_superseded`` and ``as_of``. With isolation nothing of a fact outside the
scopes appears: not in results, explanations, paths, traces or counterfactuals.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, cast

from groundgraph.errors import InputError
from groundgraph.graph.memory_core import MAX_CONTENT_CHARS, MemoryCore, not_found
from groundgraph.ingest.normalise import normalise_entity
from groundgraph.memory.causal_graph import (
    CAUSES,
    DIRECTIONS,
    EFFECTS,
    CausalReader,
    chain,
    trace,
)
from groundgraph.memory.fact_graph import FactGraph
from groundgraph.memory.facts import ENTITY_PREFIX
from groundgraph.memory.recall import MAX_HOPS, MAX_VISITED, Recalled, RecallParams, recall
from groundgraph.memory.synthesis import FactContext, Synthesizer
from groundgraph.memory.view import MemoryView
from groundgraph.memory.what_if import counterfactual
from groundgraph.records import Edge

Scopes = str | Iterable[str] | None
#: Nodes a query's walk settles at most: enough for 4-hop chains, cheap on a dense memory.
QUERY_VISITED = 300


class _Grounder(Protocol):
    """The part of ``GroundingVerbs`` that ``answer`` uses."""

    def ground(
        self,
        answer: str,
        node_ids: list[str] | None = None,
        query: str | None = None,
        min_support: float = 0.5,
    ) -> Any: ...


def _depth(value: object, name: str = "max_depth") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_HOPS * 4:
        raise InputError(f"{name} must be a whole number between 1 and {MAX_HOPS * 4}")
    return value


def _visited(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_VISITED:
        raise InputError(f"max_visited must be a whole number between 1 and {MAX_VISITED}")
    return value


class MemoryReads(MemoryCore):
    """``query``, ``query_detailed``, ``discover``, the causal verbs, ``what_if``, ``answer``."""

    # ----------------------------------------------------------------- recall
    def _recall(
        self,
        query: str,
        params: RecallParams,
        scopes: Scopes,
        isolate: bool | None,
        include_superseded: bool,
        as_of: object,
    ) -> tuple[list[Recalled], FactGraph]:
        view = self._view(scopes, isolate, include_superseded, as_of)
        graph = self._fact_graph(view)
        found = recall(query, self._memory(), graph, view, params)
        if view.options.as_of is None:
            self._touch([r.fact_id for r in found])
        return found, graph

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
    ) -> list[str]:
        """The texts of the ``top_k`` facts best for ``query``, best first."""
        params = RecallParams(top_k, top_k, hops, recency_weight, max_visited)
        found, _ = self._recall(query, params, scopes, isolate, include_superseded, as_of)
        return [r.text for r in found]

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
    ) -> list[dict[str, Any]]:
        """Like :meth:`query`, each fact with its score, time, scopes and explanation."""
        params = RecallParams(top_k, top_k, hops, recency_weight, max_visited)
        found, graph = self._recall(query, params, scopes, isolate, include_superseded, as_of)
        return [_detailed(r, graph) for r in found]

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
    ) -> list[dict[str, Any]]:
        """Facts with the paths that connect them to a seed (through entities or causal
        spans), the scopes those cross, and each fact's cause → effect pairs."""
        params = RecallParams(top_k, max_results, hops, 0.0, max_visited)
        found, graph = self._recall(query, params, scopes, isolate, include_superseded, as_of)
        reader = CausalReader(graph)
        out = []
        for item in found:
            row = _detailed(item, graph)
            explanation = row.pop("explanation")
            row["seed"] = explanation["seed"]
            row["path"] = explanation["path"]
            row["edgeTypes"] = explanation["edgeTypes"]
            row["causes"] = [{"cause": c, "effect": e} for c, e in _pairs_of(reader, item.fact_id)]
            out.append(row)
        return out

    # ----------------------------------------------------------------- causal
    def _causal_start(
        self, content: object, view: MemoryView, reader: CausalReader, direction: str
    ) -> tuple[str, str, list[Edge]]:
        """(shown text, id, depth-0 pairs) of a fact or a span the read may start from.

        A span qualifies when a fact in the read's own scopes asserts a pair with it."""
        fact = self._find(content, view)
        if fact is not None and fact in view.seedable:
            return reader.graph.texts[fact], fact, reader.fact_edges(fact)
        if isinstance(content, str) and content.strip():
            span = ENTITY_PREFIX + normalise_entity(content[:MAX_CONTENT_CHARS])
            if span != ENTITY_PREFIX and span in reader.graph.spans:
                touching = reader.leaving(span, EFFECTS) + reader.leaving(span, CAUSES)
                if any(e.sources[0] in view.seedable for e in touching):
                    return reader.graph.name(span), span, reader.leaving(span, direction)
        raise not_found(content, "fact or causal span")

    def _reader(
        self, scopes: Scopes, isolate: bool | None, include_superseded: bool, as_of: object
    ) -> CausalReader:
        view = self._view(scopes, isolate, include_superseded, as_of)
        return CausalReader(self._fact_graph(view))

    def _trace(
        self,
        content: object,
        direction: str,
        max_depth: int,
        scopes: Scopes,
        isolate: bool | None,
        include_superseded: bool,
        as_of: object,
        max_visited: int,
    ) -> dict[str, Any]:
        reader = self._reader(scopes, isolate, include_superseded, as_of)
        shown, origin, start = self._causal_start(content, reader.view, reader, direction)
        found = trace(reader, start, direction, _depth(max_depth), _visited(max_visited))
        if reader.view.options.as_of is None:
            self._touch([h.fact_id for h in found.hops])
        return {
            "origin": shown,
            "originId": origin,
            "direction": direction,
            "chain": [h.to_dict() for h in found.hops],
            "terminals": list(found.terminals),
            "truncated": found.truncated,
        }

    def trace_effects(
        self,
        content: str,
        max_depth: int = 6,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        max_visited: int = 1000,
    ) -> dict[str, Any]:
        """What follows from a fact (or a cause phrase): ``{origin, chain, terminals}``,
        each hop of the chain cited to the fact that asserts it."""
        return self._trace(
            content, EFFECTS, max_depth, scopes, isolate, include_superseded, as_of, max_visited
        )

    def trace_causes(
        self,
        content: str,
        max_depth: int = 6,
        scopes: Scopes = None,
        isolate: bool | None = None,
        include_superseded: bool = False,
        as_of: object = None,
        max_visited: int = 1000,
    ) -> dict[str, Any]:
        """What led to a fact (or an effect phrase), walking ``causes`` edges backwards."""
        return self._trace(
            content, CAUSES, max_depth, scopes, isolate, include_superseded, as_of, max_visited
        )

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
        found = self.trace_causes(
            content, max_depth, scopes, isolate, include_superseded, as_of, max_visited
        )
        return cast(list[str], found["terminals"])

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
    ) -> list[dict[str, Any]] | None:
        """The shortest run of cause → effect hops from one fact to another, each cited
        to its fact; None when no visible chain links them."""
        reader = self._reader(scopes, isolate, include_superseded, as_of)
        _, source, start = self._causal_start(from_content, reader.view, reader, EFFECTS)
        _, target, _ = self._causal_start(to_content, reader.view, reader, EFFECTS)
        if target.startswith(ENTITY_PREFIX):
            same = set(reader.equivalents(target))

            def arrived(edge: Edge) -> bool:
                return edge.target in same
        else:

            def arrived(edge: Edge) -> bool:
                return target in edge.sources

        if source == target:
            start = [e for e in start if arrived(e)]
        found = chain(reader, start, arrived, _depth(max_depth), _visited(max_visited))
        if found is None:
            return None
        if reader.view.options.as_of is None:
            self._touch([h.fact_id for h in found])
        return [h.to_dict() for h in found]

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
    ) -> dict[str, Any]:
        """If the fact ``content`` were false: which spans downstream of ``origin`` (the
        fact itself by default) collapse, and which another path keeps. Changes nothing."""
        if direction not in DIRECTIONS:
            raise InputError(f"direction must be one of {', '.join(DIRECTIONS)}, not {direction!r}")
        reader = self._reader(scopes, isolate, include_superseded, as_of)
        pruned = self._find(content, reader.view)
        if pruned is None or pruned not in reader.view.seedable:
            raise not_found(content)
        shown, start, edges = self._causal_start(
            pruned if origin is None else origin, reader.view, reader, direction
        )
        result = counterfactual(
            reader, pruned, edges, direction, _depth(max_depth), _visited(max_visited)
        )
        return {
            "pruned": reader.graph.texts[pruned],
            "prunedId": pruned,
            "origin": shown,
            "originId": start,
            "direction": direction,
            "prunedEdges": list(result.pruned_edges),
            "collapsed": [r.to_dict() for r in result.collapsed],
            "survived": [r.to_dict() for r in result.survived],
            "truncated": result.truncated,
        }

    # ----------------------------------------------------------------- answers
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
    ) -> dict[str, Any]:
        """An answer in words from the recalled facts, each sentence with its support."""
        params = RecallParams(top_k, top_k, hops, 0.0, max_visited)
        found, graph = self._recall(query, params, scopes, isolate, include_superseded, as_of)
        reader = CausalReader(graph)
        contexts = [
            FactContext(
                r.fact_id,
                r.text,
                r.scopes,
                r.cross_scope,
                _pairs_of(reader, r.fact_id),
                r.retired,
            )
            for r in found
        ]
        synth = synthesizer if synthesizer is not None else self.memory_settings.synthesizer
        if not callable(synth):
            raise InputError("synthesizer must be a callable (question, facts) -> str")
        text = synth(query, contexts) if contexts else ""
        if not isinstance(text, str):
            raise InputError(f"the synthesizer returned {type(text).__name__}, not text")
        ids = [r.fact_id for r in found]
        sentences: list[dict[str, Any]] = []
        grounding: dict[str, Any] | None = None
        if text and ids:
            checked = cast(_Grounder, self).ground(
                text, node_ids=ids, query=query, min_support=min_support
            )
            grounding = checked.to_dict()
            sentences = [
                {
                    "text": c.text,
                    "start": c.start,
                    "end": c.end,
                    "supported": c.supported,
                    "share": c.share,
                    "factIds": list(c.node_ids),
                }
                for c in checked.claims
            ]
        return {
            "question": query,
            "answer": text,
            "status": "answered" if text else "no_facts",
            "synthesizer": type(synth).__name__,
            "facts": [_detailed(r, graph) for r in found],
            "sentences": sentences,
            "grounding": grounding,
        }


def _pairs_of(reader: CausalReader, fact: str) -> tuple[tuple[str, str], ...]:
    hops = [reader.hop(e, 0) for e in reader.fact_edges(fact)]
    return tuple((h.cause, h.effect) for h in hops)


def _detailed(item: Recalled, graph: FactGraph) -> dict[str, Any]:
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
    return {
        "content": item.text,
        "factId": item.fact_id,
        "score": item.score,
        "createdAt": item.created_at,
        "scopes": list(item.scopes),
        "crossScope": item.cross_scope,
        "retired": item.retired,
        "explanation": {
            "seed": item.seed,
            "lexicalScore": item.lexical_score,
            "graphScore": item.graph_score,
            "hops": item.hops,
            "path": path,
            "edgeTypes": list(item.edge_types),
            "terms": [
                {"term": t.term, "tf": t.tf, "idf": t.idf, "score": t.score} for t in item.terms
            ],
        },
    }
