"""A facade verb that is one part's method: ``search = PartVerb("reader", GraphReader.search)``.

``DocumentGraph`` delegates most verbs unchanged to one of its parts. Writing each as a
method would repeat the part's signature and docstring; a ``PartVerb`` names the part and
the method once and keeps both exact:

- on an instance it is the part's bound method, so mypy checks every call against the
  part's signature (``ParamSpec``) and a call costs one attribute lookup more;
- on the class it is the part's function, so ``help(DocumentGraph.search)``,
  ``inspect.signature`` and the verb table (``graph.verbs``) read the part's signature,
  annotations and docstring.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

__all__ = ["PartVerb"]

P = ParamSpec("P")
R = TypeVar("R")


class PartVerb(Generic[P, R]):
    """The method ``function`` of the part at ``part`` (a dotted attribute path)."""

    def __init__(self, part: str, function: Callable[Concatenate[Any, P], R]) -> None:
        self.part = part
        self.function = function
        self._part_of = attrgetter(part)
        self.__doc__ = function.__doc__
        self.__wrapped__ = function

    def __set_name__(self, owner: type, name: str) -> None:
        if name != self.function.__name__:
            raise TypeError(f"{owner.__name__}.{name} delegates to {self.function.__qualname__}")

    @overload
    def __get__(self, obj: None, owner: type) -> Callable[Concatenate[Any, P], R]: ...

    @overload
    def __get__(self, obj: object, owner: type) -> Callable[P, R]: ...

    def __get__(self, obj: object | None, owner: type) -> Callable[..., R]:
        if obj is None:
            return self.function
        method: Callable[P, R] = getattr(self._part_of(obj), self.function.__name__)
        return method
