"""Request limits: body size (HTTP 413) and the length of each text and list (HTTP 422,
naming the field and its limit). Checked before any work, so an oversized request costs
nothing but its reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from groundgraph.errors import InputTooLargeError

#: Fields that hold a query or a name of a fact rather than a fact or a document.
QUERY_FIELDS = frozenset(
    {"query", "question", "content", "from_content", "to_content", "origin", "a", "b"}
)


class FieldTooLargeError(InputTooLargeError):
    """A field of a request is longer than its limit (HTTP 422 names the field)."""

    def __init__(self, field: str, size: int, limit: int, unit: str) -> None:
        self.field = field
        self.unit = unit
        super().__init__(
            f"field {field!r}", size, limit, f"send at most {limit:,} {unit} in {field!r}"
        )


@dataclass(frozen=True)
class Limits:
    """What one request may send (the defaults suit an agent's memory)."""

    max_body_bytes: int = 4 * 1024 * 1024
    max_text_chars: int = 100_000
    max_query_chars: int = 2_000
    max_list_items: int = 1_000
    #: Most seconds a request may work; over it the answer is 504 (the work finishes).
    timeout_seconds: float = 30.0

    def check(self, arguments: Mapping[str, Any], where: str = "") -> None:
        """Raise FieldTooLargeError for the first text or list over its limit."""
        for name, value in arguments.items():
            field = f"{where}.{name}" if where else name
            if isinstance(value, str):
                limit = self.max_query_chars if name in QUERY_FIELDS else self.max_text_chars
                if len(value) > limit:
                    raise FieldTooLargeError(field, len(value), limit, "characters")
            elif isinstance(value, list):
                if len(value) > self.max_list_items:
                    raise FieldTooLargeError(field, len(value), self.max_list_items, "items")
                for i, item in enumerate(value):
                    if isinstance(item, str) and len(item) > self.max_text_chars:
                        raise FieldTooLargeError(
                            f"{field}[{i}]", len(item), self.max_text_chars, "characters"
                        )
            elif isinstance(value, Mapping):
                self.check(value, field)
