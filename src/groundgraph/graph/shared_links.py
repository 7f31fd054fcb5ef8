"""Semantic links scored by two processes: the rows of ``index.semantic`` shared with a
worker process (``graph.pool``).

Deriving every semantic edge scores each linkable node against the others, the one step
of indexing left once the documents are written. A relink starts a worker on it first
(:meth:`SharedTermSimilarity.start`) and settles the title links meanwhile; then this
process scores chunks of rows from the last while the worker takes them from the first,
until they meet. A row's nearest rows do not depend on who scored it, so the links are
the ones one process makes (``index.semantic.term_similarity``).
"""

from __future__ import annotations

import numpy as np

from groundgraph.graph.pool import Worker, default_workers
from groundgraph.index.bm25 import LexicalIndex
from groundgraph.index.link_params import LinkParams
from groundgraph.index.semantic import (
    LinkableNodes,
    Nearest,
    TermRows,
    joined,
    linkable_nodes,
    term_rows,
    term_similarity,
)

#: Fewer linkable nodes than this are scored here alone (a worker takes a while to start).
MIN_SHARED_ROWS = 20_000
#: Chunks of rows the two processes take one at a time.
CHUNKS = 16
_NONE = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0))


class SharedTermSimilarity:
    """``term_similarity`` of one index's linkable nodes, its rows shared with a worker."""

    def __init__(self, nodes: LinkableNodes, rows: TermRows, worker: Worker) -> None:
        self.nodes = nodes
        self.rows = rows
        step = -(-rows.size // CHUNKS)
        self.chunks = [(a, min(a + step, rows.size)) for a in range(0, rows.size, step)]
        self._worker: Worker | None = worker
        worker.submit([rows])
        for chunk in self.chunks:
            worker.submit([chunk])

    @classmethod
    def start(cls, index: LexicalIndex, params: LinkParams) -> SharedTermSimilarity | None:
        """A worker scoring the rows of ``index`` as it is now; None when there are too few
        rows for one to be worth starting, or no worker may be used."""
        nodes = linkable_nodes(index)
        if len(nodes.positions) < MIN_SHARED_ROWS or default_workers() < 1:
            return None
        worker = Worker("links", None, None, in_flight=CHUNKS + 2)
        return cls(nodes, term_rows(index, nodes, params), worker)

    def __call__(self, index: LexicalIndex, nodes: LinkableNodes, params: LinkParams) -> Nearest:
        """The nearest rows (a ``Similarity``); other nodes or settings than the ones it was
        started with are scored here."""
        worker = self._worker
        if worker is None or nodes.node_ids != self.nodes.node_ids or params != self.rows.params:
            self.close()
            return term_similarity(index, nodes, params)
        parts: list[Nearest] = [Nearest(*_NONE)] * len(self.chunks)
        first, last, started = 0, len(self.chunks), False
        live: Worker | None = worker
        try:
            while first < last:
                if live is not None and live.ready():
                    try:
                        answer = live.answer()[0]
                    except Exception:  # the worker failed: this process scores the rest
                        live = None
                        continue
                    if started:
                        parts[first] = answer
                        first += 1
                    started = True  # the first answer says it holds the rows
                    continue
                last -= 1
                parts[last] = self.rows.nearest(*self.chunks[last])
        finally:
            self.close()
        return joined(parts)

    def close(self) -> None:
        """Stop the worker (at once, if it is still scoring)."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None
