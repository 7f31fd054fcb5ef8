"""Text as PostgreSQL can hold it: a NUL character, which a PostgreSQL ``text`` value
cannot contain (SQLite's can), is written escaped and read back as it was.

Every ``str`` sent through a store connection goes through :class:`NulSafeStrDumper` and
every ``text`` column read through :class:`NulSafeTextLoader`, so the parts never see the
escape: ``\\x01`` doubles itself and ``\\x00`` is written ``\\x01\\x02``. Strings with
neither (all real text) pass unchanged, so ordering and comparisons in SQL are those of
the text itself.
"""

from __future__ import annotations

from typing import Any

from psycopg.adapt import AdaptersMap
from psycopg.types.string import StrDumperUnknown, TextLoader

__all__ = ["escape_nul", "register_nul_safe_text", "unescape_nul"]


def escape_nul(text: str) -> str:
    """``text`` with every ``\\x01`` doubled and every NUL as ``\\x01\\x02``."""
    if "\x00" not in text and "\x01" not in text:
        return text
    return text.replace("\x01", "\x01\x01").replace("\x00", "\x01\x02")


def unescape_nul(text: str) -> str:
    """The inverse of :func:`escape_nul`."""
    if "\x01" not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\x01" and i + 1 < len(text):
            out.append("\x00" if text[i + 1] == "\x02" else "\x01")
            i += 2
            continue
        out.append(char)
        i += 1
    return "".join(out)


class NulSafeStrDumper(StrDumperUnknown):
    """Sends a ``str`` with its NULs escaped (:func:`escape_nul`)."""

    def dump(self, obj: str) -> Any:
        return super().dump(escape_nul(obj))


class NulSafeTextLoader(TextLoader):
    """Reads a ``text`` value with its NULs restored (:func:`unescape_nul`)."""

    def load(self, data: Any) -> Any:
        value = super().load(data)
        return unescape_nul(value) if isinstance(value, str) else value


def register_nul_safe_text(adapters: AdaptersMap) -> None:
    """Make ``adapters`` (a connection's) escape and restore NULs in text."""
    adapters.register_dumper(str, NulSafeStrDumper)
    adapters.register_loader("text", NulSafeTextLoader)
