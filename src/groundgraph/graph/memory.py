"""Agent memory on DocumentGraph, as one object composed of its parts.

A fact is a one-node document (``memory.facts``) with scopes, ``created_at`` and
``invalid_at``; its entities and causal pairs join it to the rest of the graph. Nothing is
ever silently lost: a contradicted fact is retired, not deleted, and the contradiction
goes to a ledger; only ``delete`` and forgetting remove facts, and they say what went.

- ``context`` (``graph.memory_core``): settings, clock, fact states, views of a read;
- ``writes`` (``graph.memory_write``): add, merge, contradict and supersede facts;
- ``recall`` (``graph.memory_read``): query, discover, answer;
- ``causal`` (``graph.memory_causal``): traces, root causes, chains, what-if;
- ``history`` (``graph.memory_history``): a fact's supersession history, the ledger;
- ``lifecycle`` (``graph.memory_lifecycle``): deletion and forgetting;
- ``nodes`` and ``listing`` (``graph.memory_nodes``): ReasonGraph's content-keyed graph
  calls, writes and reads.
"""

from __future__ import annotations

from groundgraph.graph.grounding import Grounder
from groundgraph.graph.indexes import DerivedIndexes
from groundgraph.graph.memory_causal import MemoryCausal
from groundgraph.graph.memory_core import MemoryContext, MemorySettings
from groundgraph.graph.memory_history import MemoryHistory
from groundgraph.graph.memory_lifecycle import MemoryLifecycle
from groundgraph.graph.memory_nodes import MemoryListing, MemoryNodes
from groundgraph.graph.memory_read import MemoryRecall
from groundgraph.graph.memory_write import MemoryWriter
from groundgraph.graph.writer import DocumentWriter
from groundgraph.store import Store


class Memory:
    """The memory parts of one graph, sharing one context."""

    def __init__(
        self,
        store: Store,
        indexes: DerivedIndexes,
        writer: DocumentWriter,
        grounder: Grounder,
        settings: MemorySettings,
    ) -> None:
        self.context = MemoryContext(store, indexes, settings)
        self.lifecycle = MemoryLifecycle(self.context, writer)
        self.writes = MemoryWriter(self.context, writer, self.lifecycle.delete)
        self.recall = MemoryRecall(self.context, grounder)
        self.causal = MemoryCausal(self.context)
        self.history = MemoryHistory(self.context)
        self.nodes = MemoryNodes(self.context, self.writes)
        self.listing = MemoryListing(self.context)
