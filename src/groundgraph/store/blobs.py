"""The Settings and Blobs protocols: small named values kept beside the graph.

Settings are short strings (the language a graph was built with, ...). Blobs are derived
data (index snapshots), each tagged with the generation it was made at, so a reader can
tell a stale blob from a current one and rebuild instead of trusting it. Neither is a
graph change: saving one bumps no generation and logs nothing.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

__all__ = ["Blobs", "Settings"]


@runtime_checkable
class Settings(Protocol):
    """String settings by key; the last write of a key wins."""

    def get_setting(self, key: str) -> str | None:
        """The value last set for ``key``, or None."""
        ...

    def set_setting(self, key: str, value: str) -> None:
        """Set ``key`` to ``value`` in one transaction."""
        ...


@runtime_checkable
class Blobs(Protocol):
    """Named derived blobs tagged with a generation; the last write of a name wins."""

    def load_blob(self, name: str) -> tuple[int, bytes] | None:
        """A derived blob and the generation it was made at, or None."""
        ...

    def save_blob(self, name: str, generation: int, data: bytes) -> None:
        """Keep ``data`` under ``name``, made at ``generation``, in one transaction,
        replacing what was there."""
        ...
