"""Scopes: who may read a memory fact.

A scope is a path of up to ``MAX_SCOPE_DEPTH`` segments, ``org/team/user/session``; each
segment is 1 to 64 ASCII letters, digits or ``_ . - @ + :``, starting with a letter or a
digit (plain ASCII, so two tenants cannot be told apart only by look-alike letters).

A query names the scopes it reads *as*. A fact is readable from a query scope when one of
the fact's scopes is that scope or one of its ancestors: a session reads its user's, its
team's and its organisation's facts, never a sibling's or a child's. A fact with no scope
is readable only by a query that names no scopes (the whole memory).

Scope names are data too: a scoped read names only the scopes it may read (its own and
their ancestors), so a fact shared with another tenant shows the reader's scopes alone
(``ScopeReader.shown``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.model import Document

MAX_SCOPE_DEPTH = 8
MAX_SEGMENT_CHARS = 64
MAX_SCOPES = 32
_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@+:-]{0,63}")


def check_scope(scope: object) -> str:
    """``scope`` if it is a well-formed scope name, else an InputError saying why."""
    if not isinstance(scope, str):
        raise InputError(f"a scope must be text, not {type(scope).__name__}")
    if not scope:
        raise InputError("a scope may not be empty: name it, e.g. 'acme/team-a/alice'")
    segments = scope.split("/")
    if len(segments) > MAX_SCOPE_DEPTH:
        raise InputError(
            f"scope {scope[:80]!r} is {len(segments)} levels deep; at most {MAX_SCOPE_DEPTH}"
        )
    for segment in segments:
        if not _SEGMENT.fullmatch(segment):
            raise InputError(
                f"scope {scope[:80]!r} has a bad part {segment[:80]!r}: each part between '/'"
                f" is 1 to {MAX_SEGMENT_CHARS} ASCII letters, digits or _ . - @ + : and starts"
                " with a letter or a digit"
            )
    return scope


def check_scopes(scopes: str | Iterable[str] | None) -> tuple[str, ...]:
    """Scopes as a sorted tuple without repeats; one name may be given as a plain string."""
    if scopes is None:
        return ()
    if isinstance(scopes, str):
        scopes = [scopes]
    elif callable(scopes):  # ReasonGraph's add_text takes its extractor second
        raise InputError(
            "scopes must be a list of names, not a callable: pass an extractor by name "
            "(extractor=...)"
        )
    elif isinstance(scopes, bytes | bytearray) or not isinstance(scopes, Iterable):
        raise InputError(f"scopes must be a list of names, not {type(scopes).__name__}")
    found: set[str] = set()
    for scope in scopes:
        found.add(check_scope(scope))
        if len(found) > MAX_SCOPES:
            raise InputTooLargeError("the list of scopes", len(found), MAX_SCOPES)
    return tuple(sorted(found))


def query_scopes(scopes: str | Iterable[str] | None) -> tuple[str, ...] | None:
    """The scopes a query reads as: None for the whole memory, else at least one name."""
    if scopes is None:
        return None
    checked = check_scopes(scopes)
    if not checked:
        raise InputError("an empty list of scopes reads nothing: pass None to read every scope")
    return checked


def ancestors(scope: str) -> list[str]:
    """The scope and every scope above it, nearest first: a/b/c, a/b, a."""
    parts = scope.split("/")
    return ["/".join(parts[:i]) for i in range(len(parts), 0, -1)]


class ScopeReader:
    """Answers "may a query with these scopes read a fact with those?"."""

    def __init__(self, scopes: tuple[str, ...] | None) -> None:
        self.scopes = scopes
        self._readable: frozenset[str] | None = None
        if scopes is not None:
            self._readable = frozenset(a for s in scopes for a in ancestors(s))

    def reads(self, fact_scopes: Iterable[str]) -> bool:
        if self._readable is None:
            return True
        return any(s in self._readable for s in fact_scopes)

    def shown(self, fact_scopes: tuple[str, ...]) -> tuple[str, ...]:
        """The scopes of a fact this reader may name: those it may read (all of them for
        a read of the whole memory). A fact reached in another scope shows none."""
        if self._readable is None:
            return fact_scopes
        return tuple(s for s in fact_scopes if s in self._readable)


def share_scope(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two facts live in a common scope (two facts with no scope do too)."""
    if not a or not b:
        return not a and not b
    return bool(set(a) & set(b))


def readable_documents(
    documents: Iterable[Document], scopes: str | Iterable[str], doc_ids: Iterable[str] | None
) -> tuple[list[str], Callable[[str], bool]]:
    """For a scoped document search: the ids of the documents ``scopes`` may read (within
    ``doc_ids`` if given), and which node ids a walk may step into.

    A document without scopes is read only by an unscoped search. Entity nodes carry no
    text of their own and stay walkable; a section ("doc#n") or root ("doc") is walkable
    when its document is readable.
    """
    reader = ScopeReader(query_scopes(scopes))
    allowed = {d.doc_id for d in documents if reader.reads(d.scopes)}
    if doc_ids is not None:
        allowed &= set(doc_ids)

    def walkable(node_id: str) -> bool:
        return node_id.startswith("entity:") or node_id.split("#", 1)[0] in allowed

    return sorted(allowed), walkable
