"""The read half of a graph as a type: a searcher holds the read parts and nothing that writes.

As whoosh separates its searcher from its writer, ``DocumentGraph.searcher()`` gives a
:class:`GraphSearcher` over the same store and derived indexes, with the graph's read parts:

- ``documents`` (``graph.reader.GraphReader``): search, retrieve, node, outline, show,
  documents, stats, bridge, ask, reasoner;
- ``grounding`` (``graph.grounding.Grounder``): support, ground;
- ``recall`` (``graph.memory_read.MemoryRecall``): query, query_detailed, discover, answer;
- ``causal`` (``graph.memory_causal.MemoryCausal``): traces, root causes, chains, what-if;
- ``memory_reads`` (``graph.memory_reads.MemoryReads``): those two with the read options
  flat, as ``DocumentGraph`` takes them;
- ``history`` (``graph.memory_history.MemoryHistory``): a fact's history, the ledger;
- ``listing`` (``graph.memory_nodes.MemoryListing``): the memory as nodes and edges;

and ``fact`` and ``to_json``. ``DocumentGraph.open_searcher(path)`` opens an existing
store read-only and gives its searcher: the file is never written. Handing a searcher
instead of the graph (to a read-only
service key, to agent tools that must not write) leaves no write verb to call.
:meth:`GraphSearcher.verb` finds a read verb of the verb table by name and takes the
arguments ``DocumentGraph``'s verb of that name takes, so an interface built as a loop over
the table can serve a searcher as it serves a graph. Memory reads still note when facts
were read (the bookkeeping forgetting goes by).
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import Any

from groundgraph.errors import InputError
from groundgraph.graph.formats.saved import graph_to_json
from groundgraph.graph.grounding import Grounder
from groundgraph.graph.memory import Memory
from groundgraph.graph.memory_reads import MemoryReads
from groundgraph.graph.reader import GraphReader
from groundgraph.model.memory import Fact
from groundgraph.store import Store


class GraphSearcher:
    """Every read of one graph, and no write (see the module docstring)."""

    def __init__(
        self, store: Store, reader: GraphReader, grounder: Grounder, memory: Memory
    ) -> None:
        self.documents = reader
        self.grounding = grounder
        self.recall = memory.recall
        self.causal = memory.causal
        self.memory_reads = MemoryReads(memory)
        self.history = memory.history
        self.listing = memory.listing
        self._context = memory.context
        self._store = store

    def close(self) -> None:
        """Close the store (a searcher saves nothing)."""
        self._store.close()

    def __enter__(self) -> GraphSearcher:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def fact(self, content: str) -> Fact:
        """The fact named by its id or its text, as the memory holds it now."""
        return self._context.fact(content)

    def to_json(self) -> dict[str, Any]:
        """The whole graph in the graph-of-thought v2 format."""
        self.documents.indexes.sync()  # the semantic edges as the documents are now
        return graph_to_json(self._store)

    def verb(self, name: str) -> Callable[..., Any]:
        """The read verb ``name`` of the verb table, taking ``DocumentGraph``'s arguments
        for it; a write verb, or a name the table does not hold, is an InputError."""
        from groundgraph.graph.verbs import VERBS

        entry = VERBS.get(name)
        if entry is None:
            raise InputError(f"no verb {name!r}: the verb table lists {', '.join(sorted(VERBS))}")
        if entry.writes:
            raise InputError(f"{name!r} writes: a searcher only reads; use the DocumentGraph")
        parts = (self, self.documents, self.grounding, self.memory_reads, self.history)
        for part in (*parts, self.listing):
            found = getattr(part, name, None)
            if callable(found):
                return found  # type: ignore[no-any-return]
        raise InputError(f"the verb {name!r} has no read part to run it")
