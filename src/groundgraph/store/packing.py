"""The StorePacking protocol: giving back the room that writes in random order leave.

A store that was filled by one run (``groundgraph index`` into a new file) holds its rows
in b-tree pages split in the order the writes came, which is not the order of their
keys: the pages of SQLite's indexes end up about a tenth empty. Packing rewrites the store
page by page in key order, the same rows in fewer pages (issue 12, a compact store). It
changes no row: every read gives what it gave before.

The index path packs when a run wrote most of the store (:func:`pack_after_filling`):
then the room is worth a rewrite as long as the run itself. A store that a run changed
only a little is left as it is: its free room is reused by the next writes.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

__all__ = ["PACK_MIN_BYTES", "StorePacking", "pack_after_filling"]

#: A store smaller than this is never worth packing (a few hundred KiB at most to win).
PACK_MIN_BYTES = 8 * 1024 * 1024


@runtime_checkable
class StorePacking(Protocol):
    """How much room a store takes, and rewriting it without its free room."""

    def stored_bytes(self) -> int:
        """The bytes the store takes now (0 when the backend does not measure it)."""
        ...

    def pack(self) -> bool:
        """Rewrite the store in as few pages as its rows need; whether it did (False: the
        backend does nothing of the kind, or there is not room enough to do it now).
        Raises :class:`~groundgraph.errors.StoreError` inside a batch, on a read-only or
        closed store."""
        ...


def pack_after_filling(
    packing: StorePacking, bytes_before: int, min_bytes: int | None = None
) -> bool:
    """Pack the store if a run that started when it took ``bytes_before`` wrote most of
    it (it at least doubled) and it is at least ``min_bytes`` (``PACK_MIN_BYTES``);
    whether it was packed."""
    now = packing.stored_bytes()
    if now < (PACK_MIN_BYTES if min_bytes is None else min_bytes) or now < 2 * bytes_before:
        return False
    return packing.pack()
