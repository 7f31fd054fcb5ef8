"""Text that can be stored and hashed: what every way in makes of the text it is given.

A Python ``str`` may hold code points that no UTF-8 encoder accepts: surrogates
(U+D800 to U+DFFF), from a JSON escape such as ``"\\ud800"``, a file name decoded with
``surrogateescape``, or a caller's own string. Every other code point encodes, so they
are the only unencodable ones. A high surrogate followed by a low one is the UTF-16 form
of one character and is joined into it (as a JSON reader does); any other surrogate is
*lone* and becomes U+FFFD, the replacement character, and is counted, so the caller can
say that its text was changed. Identifiers (document ids, scope names) are refused
instead (``has_surrogates``): replacing two different ids by one would merge them.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")


class ValidText(NamedTuple):
    """Text made valid, and how many lone surrogates in it became U+FFFD."""

    text: str
    replaced: int


def has_surrogates(text: str) -> bool:
    """Whether ``text`` holds a code point that cannot be encoded as UTF-8."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def valid_text(text: str) -> ValidText:
    """``text`` with surrogate pairs joined and lone surrogates replaced by U+FFFD."""
    if not has_surrogates(text):
        return ValidText(text, 0)
    # UTF-16 carries surrogates as they are; decoding pairs them and replaces the rest.
    fixed = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return ValidText(fixed, fixed.count(REPLACEMENT) - text.count(REPLACEMENT))


def valid_json(value: Any) -> Any:
    """``value`` (JSON-like: dicts, lists, tuples, strings, scalars) with every string in it,
    keys included, made valid; the same object when nothing needed it. What a service
    sends back may echo a caller's text (a question, a cause phrase), and UTF-8 refuses a
    lone surrogate there as anywhere."""
    if isinstance(value, str):
        return valid_text(value).text if has_surrogates(value) else value
    if isinstance(value, dict):
        items = [(valid_json(k), valid_json(v)) for k, v in value.items()]
        same = all(
            k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items(), strict=True)
        )
        return value if same else dict(items)
    if isinstance(value, list | tuple):
        parts = [valid_json(v) for v in value]
        if all(p is v for p, v in zip(parts, value, strict=True)):
            return value
        return parts if isinstance(value, list) else tuple(parts)
    return value
