"""A damaged store file is a StoreError, never a stray sqlite3, json or ValueError.

SQLite reports a damaged page as ``sqlite3.DatabaseError``, a dropped table as
``OperationalError``, a broken constraint as ``IntegrityError``; a column whose text was
damaged fails later, when a row is decoded (``json.JSONDecodeError``, ``ValueError`` from
``float()``, ``UnicodeDecodeError``, ``KeyError`` or ``TypeError`` from a value of the
wrong shape). :func:`damage_is_store_error` wraps every public method of a store part so
that any of those leaves as one :class:`~groundgraph.errors.StoreError` that names the
file and what to do, with the original chained for ``--debug``. Errors of our own
(``InputError``, ``NotFoundError``, ``StoreBusyError``) pass through unchanged.
"""

from __future__ import annotations

import functools
import inspect
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from groundgraph.errors import GroundgraphError, StoreError

__all__ = ["damage_is_store_error"]

C = TypeVar("C", bound=type)

#: What a damaged file or row raises, beyond SQLite's own errors.
_DAMAGE = (sqlite3.Error, ValueError, KeyError, TypeError, IndexError)


def damage_is_store_error(cls: C) -> C:
    """Wrap each public method of ``cls`` (a part over ``self._db``) as the module says."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        setattr(cls, name, _guarded(member))
    return cls


def _damaged(part: object, exc: BaseException) -> StoreError:
    path = getattr(getattr(part, "_db", None), "path", "the store")
    return StoreError(
        f"the store {path} is damaged or unreadable ({type(exc).__name__}: {exc}); "
        "restore it from a copy, or index the documents again into a new store"
    )


def _guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.isgeneratorfunction(method):

        @functools.wraps(method)
        def generate(self: object, *args: Any, **kwargs: Any) -> Iterator[Any]:
            try:
                yield from method(self, *args, **kwargs)
            except GroundgraphError:
                raise
            except _DAMAGE as exc:
                raise _damaged(self, exc) from exc

        return generate

    @functools.wraps(method)
    def call(self: object, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except GroundgraphError:
            raise
        except _DAMAGE as exc:
            raise _damaged(self, exc) from exc

    return call
