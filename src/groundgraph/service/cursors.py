"""Opaque page cursors: the key of the last item a page held, for the next page to start
after it.

A cursor is the key's parts as a JSON list in URL-safe base64, so a client passes it back
unchanged and never builds one. Keyset paging (start after a key rather than skip N) costs
what one page costs however deep the caller reads, and neither skips nor repeats an item
when items are added or removed between pages. A cursor that does not decode to a key of
the right shape is an InputError (HTTP 422) naming the field.

    encode_cursor(("2026-01-01T10:00:00+00:00", "fact:0123456789abcdef"))
    decode_cursor("cursor", text, parts=2)
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence

from groundgraph.errors import InputError

#: The longest cursor accepted (a key of two ids and a time is far shorter).
MAX_CURSOR_CHARS = 2048


def encode_cursor(key: Sequence[str]) -> str:
    """The cursor of a page that ends at the item with this key."""
    raw = json.dumps(list(key), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(field: str, text: str, parts: int) -> tuple[str, ...]:
    """The key a cursor holds: ``parts`` strings; an InputError naming ``field`` if it is
    not a cursor this service gave out."""
    bad = InputError(
        f"field {field!r} is not a cursor from a previous page: pass back the "
        "'next_cursor' of the last answer unchanged, or leave it out to start at the first"
    )
    if len(text) > MAX_CURSOR_CHARS:
        raise InputError(f"field {field!r} is longer than {MAX_CURSOR_CHARS} characters")
    try:
        key = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (binascii.Error, ValueError):
        raise bad from None
    if (
        not isinstance(key, list)
        or len(key) != parts
        or not all(isinstance(p, str) and p for p in key)
    ):
        raise bad
    return tuple(key)
