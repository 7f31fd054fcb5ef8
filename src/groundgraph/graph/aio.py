"""Async twins of DocumentGraph's verbs, for agents written with asyncio.

``AsyncDocumentGraph(graph)`` answers ``await agraph.add_texts(...)``,
``await agraph.query(...)``, ``await agraph.trace_effects(...)`` and every other public
verb of the graph it wraps (a verb that yields, such as ``add_documents``, gives a list).
Each call runs in one worker thread owned by the wrapper, one at a time and in the order
awaited: the graph's in-memory indexes are not made for concurrent writers, and SQLite
serialises writes anyway, so the event loop stays free while the graph does its work,
without a second copy of any logic.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from groundgraph.graph.document_graph import DocumentGraph


class AsyncDocumentGraph:
    """A DocumentGraph whose public methods are awaited (see the module docstring).

    ``AsyncDocumentGraph("memory.db")`` opens one; ``AsyncDocumentGraph(graph=g)`` wraps
    an open one. Attributes that are not methods (``store``, ``settings``) are read as
    they are. ``await agraph.close()`` closes the graph and stops the worker thread.
    """

    def __init__(
        self, path: str | Path = ":memory:", *, graph: DocumentGraph | None = None, **options: Any
    ) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="groundgraph")
        if graph is None:
            from groundgraph.graph.document_graph import DocumentGraph

            # Opened in the worker thread, like every later call on it.
            graph = self._executor.submit(
                functools.partial(DocumentGraph, path, **options)
            ).result()
        self.graph: DocumentGraph = graph

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        attribute = getattr(self.graph, name)
        if not callable(attribute):
            return attribute
        return self._twin(attribute)

    def _twin(self, method: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(method)
        async def twin(*args: Any, **kwargs: Any) -> Any:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self._executor, functools.partial(_run, method, args, kwargs)
            )

        return twin

    async def close(self) -> None:
        """Close the graph (saving its index snapshot) and stop the worker thread."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self.graph.close)
        self._executor.shutdown(wait=True)

    async def __aenter__(self) -> AsyncDocumentGraph:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()


def _run(method: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Call ``method``; a verb that yields as it goes (``add_documents``, ``index_files``)
    runs to the end here, in the worker thread, and its items come back as a list."""
    result = method(*args, **kwargs)
    return list(result) if isinstance(result, Generator) else result
