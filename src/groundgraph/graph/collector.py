"""The cyclic garbage collector's pace while many records are made and kept.

Indexing makes millions of small objects (nodes, edges, tuples, the lexical index's
entries), and most of them live until their batch is written. Python's collector runs its
youngest generation every 700 new container objects (its default threshold) and each run
walks every object still young, so a bulk run spent about a tenth of its time walking
objects that are not garbage. With the thresholds below in the writing process
(``index_files``, ``add_documents``) and its workers, ``groundgraph index`` of the
cpp-docs corpus (100k sections) went from 59.0-65.7 s to 53.7-56.9 s at the same memory
(docs/benchmarks.md; ``benchmarks/collector_cost.py`` times the unpickling alone). Adding
facts and importing a saved graph were measured too and gained nothing: they keep
Python's pace.

``collecting_less`` (a block) and ``collects_less`` (a function or generator) raise the
thresholds for the duration and put the caller's back after; blocks nest and may run in
several threads (the first to enter raises them, the last to leave restores them). A
threshold the caller set higher, or a collector switched off (a first threshold of 0, or
``gc.disable``), is left as it is. Garbage cycles wait at most ``BULK_THRESHOLDS[0]``
allocations for a collection instead of 700; ``gc.collect`` works as ever.
"""

from __future__ import annotations

import functools
import gc
import inspect
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

#: The youngest generation is collected every 50,000 new container objects, the middle
#: one every 20 of those, the oldest after 100 of the middle one (and, as always, only
#: when it grew by a quarter since its last collection).
BULK_THRESHOLDS = (50_000, 20, 100)

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, int, int] | None = None


def bulk_thresholds(current: tuple[int, int, int]) -> tuple[int, int, int]:
    """The thresholds a bulk block runs with, given the caller's ``current`` ones."""
    if current[0] == 0:  # the caller switched automatic collection off
        return current
    first, second, third = current
    return (
        max(first, BULK_THRESHOLDS[0]),
        max(second, BULK_THRESHOLDS[1]),
        max(third, BULK_THRESHOLDS[2]),
    )


def collect_less() -> None:
    """Raise the thresholds for the rest of this process's life (a worker process)."""
    gc.set_threshold(*bulk_thresholds(gc.get_threshold()))


@contextmanager
def collecting_less() -> Iterator[None]:
    """Collect garbage less often inside the block (see the module's docstring)."""
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(*bulk_thresholds(_saved))
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                _saved = None


def collects_less(function: F) -> F:
    """``function`` (a plain one or a generator) run inside :func:`collecting_less`; a
    generator's block lasts until it is exhausted or closed."""
    if inspect.isgeneratorfunction(function):

        @functools.wraps(function)
        def generator(*args: Any, **kwargs: Any) -> Any:
            with collecting_less():
                return (yield from function(*args, **kwargs))

        return cast(F, generator)

    @functools.wraps(function)
    def plain(*args: Any, **kwargs: Any) -> Any:
        with collecting_less():
            return function(*args, **kwargs)

    return cast(F, plain)
