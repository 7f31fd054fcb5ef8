"""A facade verb that is one part's method: ``search = PartVerb("reader", GraphReader.search)``.

``DocumentGraph`` delegates most verbs unchanged to one of its parts. Writing each as a
method would repeat the part's signature and docstring; a ``PartVerb`` names the part and
the method once and keeps both exact:

- on an instance it is the part's bound method, so mypy checks every call against the
  part's signature (``ParamSpec``) and a call costs one attribute lookup more;
- on the class it is the part's function, so ``help(DocumentGraph.search)``,
  ``inspect.signature`` and the verb table (``graph.verbs``) read the part's signature,
  annotations and docstring.

The function may be a :class:`~groundgraph.graph.deferred.Deferred` (the facade names its
parts' classes for the type checker only): it is imported the first time the verb is used
or read through the class, so defining the facade imports none of its parts.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from groundgraph.graph.deferred import Deferred

__all__ = ["PartVerb"]

P = ParamSpec("P")
R = TypeVar("R")


class _FunctionDoc:
    """``__doc__`` of a class whose instances show their function's docstring."""

    def __init__(self, doc: str | None) -> None:
        self.doc = doc

    def __get__(self, obj: PartVerb[Any, Any] | None, owner: type | None = None) -> str | None:
        return self.doc if obj is None else obj.function.__doc__


class PartVerb(Generic[P, R]):
    """The method ``function`` of the part at ``part`` (a dotted attribute path)."""

    __doc__ = _FunctionDoc(__doc__)  # a verb's own __doc__ is its function's

    def __init__(self, part: str, function: Callable[Concatenate[Any, P], R]) -> None:
        self.part = part
        self._function: Callable[Concatenate[Any, P], R] | Deferred = function
        self._name = function.name if isinstance(function, Deferred) else function.__name__
        self._part_of = attrgetter(part)

    @property
    def function(self) -> Callable[Concatenate[Any, P], R]:
        """The part's function (imported on first use if it was deferred)."""
        function = self._function
        if isinstance(function, Deferred):
            function = self._function = function.resolve()
        return function

    @property
    def __wrapped__(self) -> Callable[Concatenate[Any, P], R]:
        return self.function

    def __set_name__(self, owner: type, name: str) -> None:
        if name != self._name:
            where = self._function
            shown = where.qualname if isinstance(where, Deferred) else where.__qualname__
            raise TypeError(f"{owner.__name__}.{name} delegates to {shown}")

    @overload
    def __get__(self, obj: None, owner: type) -> Callable[Concatenate[Any, P], R]: ...

    @overload
    def __get__(self, obj: object, owner: type) -> Callable[P, R]: ...

    def __get__(self, obj: object | None, owner: type) -> Callable[..., R]:
        if obj is None:
            return self.function
        method: Callable[P, R] = getattr(self._part_of(obj), self._name)
        return method
