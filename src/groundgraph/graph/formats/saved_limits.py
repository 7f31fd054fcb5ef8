"""The limits a saved graph is held to before anything is built from it.

A saved graph comes from a file or a caller, so its shape is checked before its fields
are: every value is JSON (objects with string keys, lists, strings, numbers, true, false,
null), nested at most ``MAX_DEPTH`` deep (the format itself needs six levels), every
string at most ``MAX_STRING_CHARS`` long and valid Unicode (a lone surrogate, which no
store can hold, is refused with where it is, not replaced: ids are strings too), every
list at most ``MAX_ITEMS`` long. The walk is iterative, so a value nested past Python's
recursion limit, or one that contains itself, ends in a FormatError like any other.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from groundgraph.errors import FormatError
from groundgraph.ingest.parsed import DEFAULT_MAX_TEXT_CHARS
from groundgraph.model.valid_text import has_surrogates

MAX_DEPTH = 32
MAX_STRING_CHARS = DEFAULT_MAX_TEXT_CHARS
MAX_ITEMS = 20_000_000
_SCALARS = (int, float, bool, type(None))


def too_deep(where: str) -> FormatError:
    shown = where if len(where) <= 80 else where[:80] + "…"
    return FormatError(
        f"{shown}: nested more than {MAX_DEPTH} levels deep; a saved graph needs six at most"
    )


def check_json_value(value: Any, where: str, depth: int = 0) -> None:
    """Refuse ``value`` (found at ``where``, ``depth`` levels down) unless it is JSON within
    the limits above."""
    stack: list[tuple[Any, str, int]] = [(value, where, depth)]
    while stack:
        item, at, level = stack.pop()
        if isinstance(item, str):
            _check_string(item, at)
        elif isinstance(item, _SCALARS):
            if isinstance(item, float) and not math.isfinite(item):
                raise FormatError(f"{at}: {item} is not a JSON number")
        elif level >= MAX_DEPTH:
            raise too_deep(at)
        elif isinstance(item, list):
            _check_count(len(item), at)
            stack.extend((x, f"{at}[{i}]", level + 1) for i, x in enumerate(item))
        elif isinstance(item, Mapping):
            _check_count(len(item), at)
            for key, x in item.items():
                if not isinstance(key, str):
                    raise FormatError(f"{at}: a member name must be a string, not {key!r}")
                _check_string(key, at)
                stack.append((x, f"{at}.{key[:40]}", level + 1))
        else:
            raise FormatError(f"{at}: a {type(item).__name__} is not a JSON value")


def _check_string(text: str, at: str) -> None:
    if len(text) > MAX_STRING_CHARS:
        raise FormatError(f"{at}: a string of {len(text):,} characters, over {MAX_STRING_CHARS:,}")
    if has_surrogates(text):
        raise FormatError(
            f"{at}: text that is not valid Unicode (a lone surrogate, such as a \\ud800"
            " escape); fix it where the file was made"
        )


def _check_count(count: int, at: str) -> None:
    if count > MAX_ITEMS:
        raise FormatError(f"{at}: {count:,} items, over the limit of {MAX_ITEMS:,}")
