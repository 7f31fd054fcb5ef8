"""What one caller may read and write: the scopes of its key, and read-only or read-write.

A key is bound to scope names (``acme/alice``) or to every scope (``*``). With a key bound
to scopes, a request may *name* (read or write as) a scope that is one of them or lies
below one (``acme/alice/chat-1``); it *sees* what the library's scope rules let those
scopes read (their facts and their parents' facts, ``memory.scopes``) and facts of the
sessions below them that it names. Scope names a result carries are cut to the ones the
key may see, so even the name of another tenant's scope never leaves the service.

    Access.everything()                 # a local caller or an admin key ('*')
    Access(("acme/alice",), writes=False)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from groundgraph.errors import GroundgraphError
from groundgraph.memory.scopes import ancestors, check_scope


class AccessDeniedError(GroundgraphError):
    """The caller's key does not allow this (HTTP 403); the message says what it allows."""


def _within(scope: str, root: str) -> bool:
    """Whether ``scope`` is ``root`` or lies below it."""
    return scope == root or scope.startswith(root + "/")


@dataclass(frozen=True)
class Access:
    """A caller's rights: ``scopes`` (None: every scope) and whether it may write."""

    scopes: tuple[str, ...] | None
    writes: bool
    key: str = "local"

    @classmethod
    def everything(cls, key: str = "local") -> Access:
        return cls(None, True, key)

    @property
    def unrestricted(self) -> bool:
        return self.scopes is None

    def names(self, scope: str) -> bool:
        """Whether the caller may read or write *as* ``scope``."""
        return self.scopes is None or any(_within(scope, root) for root in self.scopes)

    def sees_scope(self, scope: str) -> bool:
        """Whether a scope name may appear in what the caller is shown."""
        if self.scopes is None:
            return True
        return any(_within(scope, root) or scope in ancestors(root) for root in self.scopes)

    def sees(self, scopes: Iterable[str]) -> bool:
        """Whether a fact with these scopes is visible to the caller (an unscoped fact
        only to an unrestricted caller)."""
        return self.scopes is None or any(self.sees_scope(s) for s in scopes)

    def shown(self, scopes: Iterable[str]) -> list[str]:
        """The scope names of a record the caller may be shown."""
        return [s for s in scopes if self.sees_scope(s)]

    def session(self, session: str | None) -> str | None:
        """A session named by the request, checked against the key."""
        if session is None:
            return None
        check_scope(session)
        if not self.names(session):
            raise AccessDeniedError(
                f"this key may not use session {session[:80]!r}: it is bound to "
                f"{', '.join(self.scopes or ())}"
            )
        return session

    def read_as(self, session: str | None) -> tuple[str, ...] | None:
        """The scopes a read runs as: the session, else the key's scopes (None: all)."""
        named = self.session(session)
        return (named,) if named is not None else self.scopes

    def isolate(self, asked: bool | None) -> bool | None:
        """A restricted key's reads never walk outside what it may read."""
        return True if self.scopes is not None else asked

    def require_write(self, session: str | None = None) -> None:
        if not self.writes:
            raise AccessDeniedError("this key is read-only: use a read-write key to change memory")
        if session is not None:
            self.session(session)

    def read_options(
        self, session: str | None, isolate: bool | None, **more: Any
    ) -> dict[str, Any]:
        """The read options of a memory read as this caller: its scopes, its isolation."""
        scopes = self.read_as(session)
        return {
            "scopes": list(scopes) if scopes is not None else None,
            "isolate": self.isolate(isolate),
            **more,
        }

    def require_write_all(self, scopes: Iterable[str]) -> None:
        """Refuse to change a fact that lives in a scope this key may not write."""
        if not self.unrestricted and not all(self.names(s) for s in scopes):
            raise AccessDeniedError(
                "that fact is shared with scopes this key may not write: ask a key for "
                "every scope it lives in"
            )

    def require_everything(self, what: str) -> None:
        """For verbs that read or change the whole graph, not one scope."""
        if self.scopes is not None:
            raise AccessDeniedError(
                f"{what} reads or changes every document, not one scope: it needs a key "
                "bound to every scope ('*')"
            )
