"""The causal reading verbs of memory on DocumentGraph: traces of effects and causes, root
causes, the chain between two facts, and what-if.

They take a read's options (``graph.memory_core.ReadOptions``: ``scopes``, ``isolate``,
``include_superseded``, ``as_of``); with isolation nothing of a fact outside the scopes
appears in a trace or a counterfactual. None of them writes.
"""

from __future__ import annotations

from groundgraph.errors import InputError
from groundgraph.graph.memory_core import MAX_CONTENT_CHARS, MemoryContext, ReadOptions, not_found
from groundgraph.ingest.entities.normalise import normalise_entity
from groundgraph.memory.causal_graph import (
    CAUSES,
    DIRECTIONS,
    EFFECTS,
    CausalReader,
    chain,
    trace,
)
from groundgraph.memory.recall import MAX_HOPS, MAX_VISITED
from groundgraph.memory.view import MemoryView
from groundgraph.memory.what_if import counterfactual
from groundgraph.model import Edge
from groundgraph.model.ids import ENTITY_PREFIX
from groundgraph.model.memory import CausalHop, CausalTrace, WhatIf


def _depth(value: object, name: str = "max_depth") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_HOPS * 4:
        raise InputError(f"{name} must be a whole number between 1 and {MAX_HOPS * 4}")
    return value


def _visited(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_VISITED:
        raise InputError(f"max_visited must be a whole number between 1 and {MAX_VISITED}")
    return value


class MemoryCausal:
    """``trace_effects``, ``trace_causes``, ``root_causes``, ``causal_chain`` and ``what_if``."""

    def __init__(self, context: MemoryContext) -> None:
        self.context = context

    def _causal_start(
        self, content: object, view: MemoryView, reader: CausalReader, direction: str
    ) -> tuple[str, str, list[Edge]]:
        """(shown text, id, depth-0 pairs) of a fact or a span the read may start from.

        A span qualifies when a fact in the read's own scopes asserts a pair with it."""
        fact = self.context.find(content, view)
        if fact is not None and fact in view.seedable:
            return reader.graph.texts[fact], fact, reader.fact_edges(fact)
        if isinstance(content, str) and content.strip():
            span = ENTITY_PREFIX + normalise_entity(content[:MAX_CONTENT_CHARS])
            if span != ENTITY_PREFIX and span in reader.graph.spans:
                touching = reader.leaving(span, EFFECTS) + reader.leaving(span, CAUSES)
                if any(e.sources[0] in view.seedable for e in touching):
                    return reader.graph.name(span), span, reader.leaving(span, direction)
        raise not_found(content, "fact or causal span")

    def _reader(self, read: ReadOptions) -> CausalReader:
        view = self.context.view(read)
        return CausalReader(self.context.fact_graph(view))

    def _trace(
        self,
        content: object,
        direction: str,
        max_depth: int,
        read: ReadOptions,
        max_visited: int,
    ) -> CausalTrace:
        reader = self._reader(read)
        shown, origin, start = self._causal_start(content, reader.view, reader, direction)
        found = trace(reader, start, direction, _depth(max_depth), _visited(max_visited))
        if reader.view.options.as_of is None:
            self.context.touch([h.fact_id for h in found.hops])
        return CausalTrace(shown, origin, direction, found.hops, found.terminals, found.truncated)

    def trace_effects(
        self,
        content: str,
        max_depth: int = 6,
        read: ReadOptions = ReadOptions(),  # noqa: B008 (immutable)
        max_visited: int = 1000,
    ) -> CausalTrace:
        """What follows from a fact (or a cause phrase): ``{origin, chain, terminals}``,
        each hop of the chain cited to the fact that asserts it."""
        return self._trace(content, EFFECTS, max_depth, read, max_visited)

    def trace_causes(
        self,
        content: str,
        max_depth: int = 6,
        read: ReadOptions = ReadOptions(),  # noqa: B008 (immutable)
        max_visited: int = 1000,
    ) -> CausalTrace:
        """What led to a fact (or an effect phrase), walking ``causes`` edges backwards."""
        return self._trace(content, CAUSES, max_depth, read, max_visited)

    def root_causes(
        self,
        content: str,
        max_depth: int = 6,
        read: ReadOptions = ReadOptions(),  # noqa: B008 (immutable)
        max_visited: int = 1000,
    ) -> list[str]:
        """The causes nothing visible explains further: the terminals of trace_causes."""
        found = self.trace_causes(content, max_depth, read, max_visited)
        return list(found.terminals)

    def causal_chain(
        self,
        from_content: str,
        to_content: str,
        max_depth: int = 6,
        read: ReadOptions = ReadOptions(),  # noqa: B008 (immutable)
        max_visited: int = 1000,
    ) -> list[CausalHop] | None:
        """The shortest run of cause → effect hops from one fact to another, each cited
        to its fact; None when no visible chain links them."""
        reader = self._reader(read)
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
            self.context.touch([h.fact_id for h in found])
        return list(found)

    def what_if(
        self,
        content: str,
        origin: str | None = None,
        direction: str = EFFECTS,
        max_depth: int = 6,
        read: ReadOptions = ReadOptions(),  # noqa: B008 (immutable)
        max_visited: int = 1000,
    ) -> WhatIf:
        """If the fact ``content`` were false: which spans downstream of ``origin`` (the
        fact itself by default) collapse, and which another path keeps. Changes nothing."""
        if direction not in DIRECTIONS:
            raise InputError(f"direction must be one of {', '.join(DIRECTIONS)}, not {direction!r}")
        reader = self._reader(read)
        pruned = self.context.find(content, reader.view)
        if pruned is None or pruned not in reader.view.seedable:
            raise not_found(content)
        shown, start, edges = self._causal_start(
            pruned if origin is None else origin, reader.view, reader, direction
        )
        result = counterfactual(
            reader, pruned, edges, direction, _depth(max_depth), _visited(max_visited)
        )
        return WhatIf(
            reader.graph.texts[pruned],
            pruned,
            shown,
            start,
            direction,
            result.pruned_edges,
            result.collapsed,
            result.survived,
            result.truncated,
        )
