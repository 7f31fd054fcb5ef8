"""Writing many documents in batches: the store writes of several share one transaction.

A transaction per document costs a commit each; one for a whole folder keeps other
writers waiting for minutes. :func:`write_in_batches` takes the middle way: up to
``BATCH_DOCUMENTS`` items, or ``BATCH_SECONDS``, per transaction (``Store.batch``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from groundgraph.graph.indexes import DerivedIndexes
from groundgraph.store import Store

In = TypeVar("In")
Out = TypeVar("Out")

#: Documents (or files) whose store writes share one transaction while indexing many, and
#: the longest a batch stays open (other writers wait for it).
BATCH_DOCUMENTS = 32
BATCH_SECONDS = 0.25


def write_in_batches(
    store: Store, indexes: DerivedIndexes, items: Iterable[In], add: Callable[[In], Out]
) -> Iterator[Out]:
    """``add(item)`` for each item, the store writes of up to ``BATCH_DOCUMENTS`` items
    (or ``BATCH_SECONDS``) in one transaction; each result is yielded once its batch is
    committed, and no transaction stays open across a yield. When an item fails, the
    items before it stay written."""
    source = iter(items)
    while True:
        done: list[Out] = []
        failure: BaseException | None = None
        deadline = time.monotonic() + BATCH_SECONDS
        try:
            with store.writes.batch():
                try:
                    for item in source:
                        done.append(add(item))
                        if len(done) >= BATCH_DOCUMENTS or time.monotonic() >= deadline:
                            break
                except BaseException as exc:  # the batch commits what came before
                    failure = exc
        except BaseException:
            if done:  # the commit failed: the indexes hold what the store does not
                indexes.rebuild()
            raise
        yield from done
        if failure is not None:
            raise failure
        if not done:
            return
