"""The FactLedger protocol: what agent memory keeps beside the graph.

Each fact is a document (``fact:...``). Beside its nodes and edges a store keeps the
fact's history after it was added (events: scopes added, retired, revived), so ``as_of``
replays the past exactly; the contradiction ledger, an audit trail of which fact beat
which and by what rule; and when each node was last read, which forgetting needs.
Updating facts is a graph change (one generation bump per document touched); recording
a read is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from groundgraph.model import Edge
from groundgraph.model.store_records import ConflictRecord, FactCounts, FactEvent, FactUpdate

__all__ = ["FactLedger"]


@runtime_checkable
class FactLedger(Protocol):
    """Fact events, the conflict ledger and access times."""

    def update_facts(
        self,
        updates: Sequence[FactUpdate],
        edges: Sequence[tuple[str, Edge]] = (),
        conflicts: Sequence[ConflictRecord] = (),
    ) -> int:
        """In one transaction: give each fact document its new scopes (document and nodes)
        and validity (its nodes and the edges it owns), log the updates' events, add
        ``edges`` (each owned by the named document) and append ``conflicts`` to the
        ledger. One generation bump per distinct document touched; returns the new
        generation. An unknown document raises
        :class:`~groundgraph.errors.NotFoundError` and changes nothing."""
        ...

    def fact_events(
        self, fact_ids: Sequence[str] | None = None, kinds: Sequence[str] | None = None
    ) -> list[FactEvent]:
        """The logged events of these facts (all when None), oldest first; with ``kinds``,
        only the events of those kinds."""
        ...

    def conflict_records(self, fact_id: str | None = None) -> list[ConflictRecord]:
        """The ledger, oldest first; with ``fact_id`` only the lines that name it."""
        ...

    def forget_fact_records(self, fact_ids: Sequence[str], ledger: bool = False) -> int:
        """Drop the events and access times of these facts, and with ``ledger`` the ledger
        lines that name them, in one transaction; returns how many ledger lines went.
        Not a graph change: no generation bump."""
        ...

    def touch(self, node_ids: Sequence[str], at: str) -> None:
        """Record that these nodes were read at ``at``; an older time never replaces a
        newer one (not a graph change: no new generation)."""
        ...

    def access_times(self, node_ids: Sequence[str] | None = None) -> dict[str, str]:
        """When each node (of these, or all) was last read, for those ever touched."""
        ...

    def fact_counts(self) -> FactCounts:
        """The whole memory's counts, by the store: every fact document; the entities
        (``entity:`` nodes) that ``mentions`` edges with an end at a fact point to; of
        the edges with an end at a fact or at one of those entities, the distinct
        (source, target, type) whose sources are all facts (and that have sources); the
        distinct scope names of facts."""
        ...
