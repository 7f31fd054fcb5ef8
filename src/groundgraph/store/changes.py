"""The ChangeLog protocol: the generation counter and the log of what each write touched.

Every write of :class:`~groundgraph.store.writes.DocumentWrites` and
:meth:`~groundgraph.store.ledger.FactLedger.update_facts` bumps one store-wide
generation (per document touched) and logs the document id. A process compares the
generation with the one its derived indexes were built at and replays only the logged
documents; a store may trim the log, and then says so instead of answering short.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

__all__ = ["ChangeLog"]


@runtime_checkable
class ChangeLog(Protocol):
    """The generation and the documents changed since one."""

    def generation(self) -> int:
        """Counter bumped by every write; 0 for a new store; equal values mean nothing
        changed. Shared by every process that opens the same store."""
        ...

    def changed_documents(self, since: int) -> list[str]:
        """Ids of documents written or removed after generation ``since``, each once, in
        order of their first change after it. Raises
        :class:`~groundgraph.errors.StoreError` when the log was trimmed past ``since``
        (the caller rebuilds from the store)."""
        ...
