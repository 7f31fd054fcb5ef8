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

from collections.abc import Mapping
from math import isfinite
from typing import Any

from groundgraph.errors import FormatError
from groundgraph.ingest.parsed import DEFAULT_MAX_TEXT_CHARS
from groundgraph.model.valid_text import has_surrogates

MAX_DEPTH = 32
MAX_STRING_CHARS = DEFAULT_MAX_TEXT_CHARS
MAX_ITEMS = 20_000_000


def too_deep(where: str) -> FormatError:
    return FormatError(
        f"{where}: nested more than {MAX_DEPTH} levels deep; a saved graph needs six at most"
    )


def check_json_value(value: Any, where: str, depth: int = 0) -> None:
    """Refuse ``value`` (found at ``where``, ``depth`` levels down) unless it is JSON within
    the limits above."""
    if not isinstance(value, list | Mapping):
        _check_leaf(value, (None, depth, None, where), None)
        return
    # Each container waiting to be walked: (it, its level, its parent's entry, its key);
    # a path is spelled out only for an error.
    stack: list[_Entry] = [(value, depth, None, where)]
    while stack:
        entry = stack.pop()
        item, level = entry[0], entry[1]
        if level >= MAX_DEPTH:
            raise too_deep(_path(entry))
        if len(item) > MAX_ITEMS:
            _check_count(len(item), entry)
        named = type(item) is dict or (type(item) is not list and isinstance(item, Mapping))
        # The common cases inline: this runs once per value of a file of millions.
        for key, child in item.items() if named else enumerate(item):
            if named and (type(key) is not str or not key.isascii()):
                _check_name(key, entry)
            kind = type(child)
            if kind is str:
                if len(child) > MAX_STRING_CHARS or not child.isascii():
                    _check_string(child, entry, key)
            elif kind is dict or kind is list:
                stack.append((child, level + 1, entry, key))
            elif kind is float:
                if not isfinite(child):
                    _check_leaf(child, entry, key)
            elif not (kind is int or kind is bool or child is None):
                if isinstance(child, list | Mapping):
                    stack.append((child, level + 1, entry, key))
                else:
                    _check_leaf(child, entry, key)


def _check_name(key: Any, entry: _Entry) -> None:
    if not isinstance(key, str):
        raise FormatError(f"{_path(entry)}: a member name must be a string, not {key!r:.40}")
    _check_string(key, entry, None)


#: A container met by the walk: (the value, its level, its parent's entry, its key).
_Entry = tuple[Any, int, Any, str | int]


def _path(entry: _Entry, key: str | int | None = None) -> str:
    """Where an entry of the walk (or its member ``key``) is, as ``documents[3].title``."""
    keys: list[str | int] = [] if key is None else [key]
    at: _Entry | None = entry
    while at is not None:
        keys.append(at[3])
        at = at[2]
    keys.reverse()
    text = str(keys[0]) + "".join(f"[{k}]" if type(k) is int else f".{k}" for k in keys[1:])
    return text if len(text) <= 120 else text[:120] + "…"


def _check_leaf(item: Any, parent: _Entry, key: str | int | None) -> None:
    """A value that is not a container: a string, a finite number, true, false or null."""
    if item is None or isinstance(item, bool | int):
        return
    if isinstance(item, str):
        _check_string(item, parent, key)
    elif isinstance(item, float):
        if not isfinite(item):
            raise FormatError(f"{_path(parent, key)}: {item} is not a JSON number")
    else:
        raise FormatError(f"{_path(parent, key)}: a {type(item).__name__} is not a JSON value")


def _check_string(text: str, parent: _Entry, key: str | int | None) -> None:
    if len(text) > MAX_STRING_CHARS:
        raise FormatError(
            f"{_path(parent, key)}: a string of {len(text):,} characters, over {MAX_STRING_CHARS:,}"
        )
    if not text.isascii() and has_surrogates(text):
        raise FormatError(
            f"{_path(parent, key)}: text that is not valid Unicode (a lone surrogate, such as"
            " a \\ud800 escape); fix it where the file was made"
        )


def _check_count(count: int, entry: _Entry) -> None:
    if count > MAX_ITEMS:
        raise FormatError(f"{_path(entry)}: {count:,} items, over the limit of {MAX_ITEMS:,}")
