"""Writing a saved graph to a file a batch at a time, in bounded memory.

``graph_to_json`` builds the whole graph as one dictionary, and ``json.dumps`` of it one
string: at 100k sections that is gigabytes. :func:`write_saved_graph` walks the same
members (``saved.saved_parts``, the store read a batch at a time) and writes each list a
batch of items at a time. The text is the very text ``json.dumps(graph_to_json(store),
ensure_ascii=False)`` gives (a test holds it to that), so files read the same either way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from itertools import islice
from pathlib import Path
from typing import Any, Protocol, TextIO, runtime_checkable

from groundgraph.graph.formats.saved import saved_parts
from groundgraph.store.base import Store

__all__ = ["LowMemoryStore", "low_memory", "save_graph_file", "write_saved_graph"]

BATCH = 1000
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


@runtime_checkable
class LowMemoryStore(Protocol):
    """A store that can hold its caches down while a pass goes over all of it
    (``SQLiteStore``: no memory map, a small page cache)."""

    def low_memory(self) -> AbstractContextManager[None]: ...


def low_memory(store: Store) -> AbstractContextManager[None]:
    """``store.low_memory()`` where the store has it."""
    return store.low_memory() if isinstance(store, LowMemoryStore) else nullcontext()


def write_saved_graph(store: Store, out: TextIO) -> dict[str, int]:
    """Write the whole graph of ``store`` to ``out``; how many items each list had, by
    its name (``"documents"``, ``"nodes"``, ``"edges"``, ``"groundgraph.edges"``...)."""
    counts: dict[str, int] = {}
    with low_memory(store):
        _write_object(out, saved_parts(store), "", counts)
    return counts


def save_graph_file(store: Store, path: str | Path) -> dict[str, int]:
    """Write the whole graph of ``store`` to the file ``path`` (UTF-8), whole or not at
    all: it is written beside as ``path.part`` and renamed over ``path`` when complete."""
    out = Path(path)
    part = out.with_name(out.name + ".part")
    try:
        with part.open("w", encoding="utf-8") as stream:
            counts = write_saved_graph(store, stream)
        part.replace(out)
    finally:
        part.unlink(missing_ok=True)
    return counts


def _write_object(
    out: TextIO, members: Iterable[tuple[str, Any]], path: str, counts: dict[str, int]
) -> None:
    out.write("{")
    for k, (key, value) in enumerate(members):
        out.write(f"{', ' if k else ''}{_ENCODE(key)}: ")
        _write_value(out, value, f"{path}{key}", counts)
    out.write("}")


def _write_value(out: TextIO, value: Any, path: str, counts: dict[str, int]) -> None:
    if isinstance(value, Iterator):
        counts[path] = _write_list(out, value)
    elif isinstance(value, dict) and any(isinstance(v, Iterator) for v in value.values()):
        _write_object(out, value.items(), f"{path}.", counts)
    else:
        out.write(_ENCODE(value))


def _write_list(out: TextIO, items: Iterator[Any]) -> int:
    out.write("[")
    count = 0
    while batch := list(islice(items, BATCH)):
        # One call of the C encoder for a batch; its brackets dropped, the items joined.
        out.write(f"{', ' if count else ''}{_ENCODE(batch)[1:-1]}")
        count += len(batch)
    out.write("]")
    return count
