"""``LockedGraph``: one DocumentGraph behind one lock, the state every memory part shares.

Each call runs to its end (a write to its commit) before the next starts, so the HTTP and
MCP sides call the service from worker threads and answer a write only once it is stored.
``stepwise`` lets a long write (an ingest job) give the lock back between its steps.

    core = LockedGraph(DocumentGraph("memory.db"))
    core.run(access, lambda graph, who: graph.stats())
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

from groundgraph.graph import DocumentGraph
from groundgraph.service.access import Access

T = TypeVar("T")
#: The caller of a program using the service in-process: every scope, read-write.
EVERYTHING = Access.everything()
_DONE: Any = object()


class LockedGraph:
    """The graph, whether this object opened it (and so closes it), and its lock."""

    def __init__(self, graph: DocumentGraph | None = None, **graph_options: Any) -> None:
        self.owns_graph = graph is None
        self.graph = graph if graph is not None else DocumentGraph(**graph_options)
        self._lock = threading.Lock()

    @contextmanager
    def _locked(self) -> Iterator[DocumentGraph]:
        with self._lock:
            yield self.graph

    def locked(self) -> AbstractContextManager[DocumentGraph]:
        """The graph, held by the lock until the block ends."""
        return self._locked()

    def stepwise(self, steps: Iterator[T]) -> Iterator[T]:
        """Each item of ``steps``, each taken under the lock (a long write, such as an
        ingest job, lets other calls run between its steps)."""
        while True:
            with self._lock:
                item = next(steps, _DONE)
            if item is _DONE:
                return
            yield item

    def run(self, access: Access | None, work: Callable[[DocumentGraph, Access], T]) -> T:
        """``work(graph, caller)`` under the lock; no ``access`` means everything."""
        who = access or EVERYTHING
        with self._locked() as graph:
            return work(graph, who)

    def close(self) -> None:
        """Close the graph if this object opened it (a graph passed in is the caller's)."""
        if self.owns_graph:
            with self._lock:
                self.graph.close()
