"""What goes wrong between a store and its server, as groundgraph's typed errors.

psycopg raises its own tree (``OperationalError`` for a refused or dropped connection,
``errors.LockNotAvailable`` when ``lock_timeout`` runs out, ``PoolTimeout`` when every
pooled connection stays busy, ``DataError`` for a value the server refuses).
:func:`server_errors_are_store_errors` wraps every public method of a store part so that
each leaves as the error that says what to do (a ``StoreError``, ``StoreBusyError`` or
``InputError``), with the original chained for ``--debug``; errors of our own pass
through unchanged. A write that fails this way was one transaction that the server
rolled back: no half document is left.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg
from psycopg_pool import PoolTimeout

from groundgraph.errors import GroundgraphError, InputError, StoreBusyError, StoreError

__all__ = ["server_error", "server_errors_are_store_errors"]

C = TypeVar("C", bound=type)


def server_error(exc: BaseException, where: str) -> GroundgraphError:
    """The typed error for ``exc``, raised by the server at ``where`` (a URL shown
    without its password)."""
    if isinstance(exc, GroundgraphError):
        return exc
    if isinstance(exc, PoolTimeout):
        return StoreBusyError(
            f"every pooled connection to {where} stayed busy ({exc}): raise pool_size, or "
            "use fewer threads at once"
        )
    if isinstance(exc, pg.LockNotAvailable):
        return StoreBusyError(
            f"another writer held the store at {where} for longer than lock_timeout: try again"
        )
    if isinstance(exc, pg.SerializationFailure | pg.DeadlockDetected):
        return StoreBusyError(
            f"the write to {where} kept conflicting with other transactions ({exc}): try again"
        )
    if isinstance(exc, pg.InsufficientPrivilege):
        return StoreError(
            f"the user of {where} may not do this ({exc}): grant it the rights on the "
            "store's schema, or connect as its owner"
        )
    if isinstance(exc, psycopg.OperationalError):
        return StoreError(
            f"lost the connection to PostgreSQL at {where} ({_first_line(exc)}): whatever "
            "was being written was rolled back whole; check the server and try again"
        )
    if isinstance(exc, psycopg.DataError):
        return InputError(f"PostgreSQL at {where} refused a value ({_first_line(exc)})")
    return StoreError(f"PostgreSQL at {where} failed ({type(exc).__name__}: {_first_line(exc)})")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


_FAULTS = (psycopg.Error, PoolTimeout)


def server_errors_are_store_errors(cls: C) -> C:
    """Wrap each public method of ``cls`` (a part over ``self._db``) as the module says."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") or not inspect.isfunction(member):
            continue
        setattr(cls, name, _guarded(member))
    return cls


def _where(part: object) -> str:
    return str(getattr(getattr(part, "_db", None), "where", "the PostgreSQL store"))


def _guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.isgeneratorfunction(method):

        @functools.wraps(method)
        def generate(self: object, *args: Any, **kwargs: Any) -> Iterator[Any]:
            try:
                yield from method(self, *args, **kwargs)
            except GroundgraphError:
                raise
            except _FAULTS as exc:
                raise server_error(exc, _where(self)) from exc

        return generate

    @functools.wraps(method)
    def call(self: object, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except GroundgraphError:
            raise
        except _FAULTS as exc:
            raise server_error(exc, _where(self)) from exc

    return call
