"""YAML front matter: the ``---`` block a markdown file may start with, read as metadata.

Static-site and documentation tools (Jekyll, Hugo, MkDocs, Docusaurus, docs.microsoft.com)
put a file's title, description and other fields there. It is metadata, not prose: its
``title`` and ``description`` name the document, and the block is never indexed as body
text (its dates and ids would otherwise become entities shared by every file).

Only the common subset is read, with no YAML library and nothing ever constructed from
the text: ``key: value`` lines (plain, ``"double"`` or ``'single'`` quoted scalars),
``key: >`` / ``key: |`` block scalars, list items and other indented lines under a key
(kept as raw text), comments and blank lines. The block must open on the first line with
``---`` and close with ``---`` or ``...`` within :data:`MAX_FRONT_MATTER_LINES` lines and
:data:`MAX_FRONT_MATTER_CHARS` characters; a line of any other shape means the text does
not start with front matter (a thematic break followed by prose, say) and it is left as
it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_FRONT_MATTER_LINES = 500
MAX_FRONT_MATTER_CHARS = 64_000
MAX_VALUE_CHARS = 4_000

_KEY = re.compile(r"([A-Za-z0-9_][\w.\-]*)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$")
_OPEN = "---"
_CLOSE = ("---", "...")


@dataclass(frozen=True)
class FrontMatter:
    """The fields of a front-matter block and where the block ends in the text."""

    end: int  # offset just past the closing line (and its newline)
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return self.fields.get("title", "").strip()

    @property
    def description(self) -> str:
        return self.fields.get("description", "").strip()


def read_front_matter(text: str) -> FrontMatter | None:
    """The front matter ``text`` (newlines already LF) starts with, or None."""
    if not text.startswith(_OPEN) or text[3:4] not in ("\n", " ", "\t"):
        return None
    first = text.find("\n")
    if first < 0 or text[:first].strip() != _OPEN:
        return None
    fields: dict[str, str] = {}
    key: str | None = None
    block: str | None = None  # ">" or "|" while a block scalar is open
    pos = first + 1
    for _ in range(MAX_FRONT_MATTER_LINES):
        if pos > MAX_FRONT_MATTER_CHARS or pos >= len(text):
            return None
        newline = text.find("\n", pos)
        line = text[pos:] if newline < 0 else text[pos:newline]
        end = len(text) if newline < 0 else newline + 1
        if line.rstrip() in _CLOSE:
            return FrontMatter(end, fields)
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            pass
        elif line[:1] in (" ", "\t") or stripped.startswith("- "):
            if key is None:
                return None
            joined = "\n" if block == "|" else " "
            previous = fields[key]
            fields[key] = _capped(stripped if not previous else previous + joined + stripped)
        else:
            found = _KEY.match(line.rstrip())
            if found is None:
                return None
            key, raw = found.group(1), (found.group(2) or "").strip()
            block = raw[:1] if raw[:1] in (">", "|") else None
            fields[key] = "" if block else _capped(_scalar(raw))
        pos = end
    return None


def _scalar(raw: str) -> str:
    """A plain or quoted YAML scalar's text (a trailing comment dropped from a plain one)."""
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return raw[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if len(raw) >= 2 and raw[0] == raw[-1] == "'":
        return raw[1:-1].replace("''", "'")
    comment = raw.find(" #")
    return raw[:comment].rstrip() if comment >= 0 else raw


def _capped(value: str) -> str:
    return value[:MAX_VALUE_CHARS]


def blank_front_matter(text: str, front: FrontMatter) -> str:
    """``text`` with the front-matter block turned into spaces (newlines kept), so every
    offset after it is unchanged and nothing in it is read as markdown or prose."""
    head = re.sub(r"[^\n]", " ", text[: front.end])
    return head + text[front.end :]
