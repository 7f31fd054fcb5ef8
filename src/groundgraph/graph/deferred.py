"""A name imported on first use: ``Deferred("groundgraph.graph.writer", "DocumentWriter")``.

The facade names the methods of its parts at class creation (``PartVerb("writer",
DocumentWriter.add_document)``), which would import every part, and with them the memory's
contradiction rules, asyncio and the ingest pipeline, for a command that only searches
(issue 12, cold start). A module imports the part's class for the type checker only and
binds the same name to a ``Deferred`` at run time::

    if TYPE_CHECKING:
        from groundgraph.graph.writer import DocumentWriter
    else:
        DocumentWriter = Deferred("groundgraph.graph.writer", "DocumentWriter")

mypy then checks ``DocumentWriter.add_document`` and every call of the verb against the
real method, while at run time the attribute is one more ``Deferred``
(``groundgraph.graph.writer:DocumentWriter.add_document``) that :func:`resolve` imports
when it is first needed. Nothing is imported and nothing enters ``sys.modules`` before.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["Deferred", "resolve"]


class Deferred:
    """The object at ``qualname`` (dotted) in ``module``, not imported yet."""

    __slots__ = ("module", "qualname")

    def __init__(self, module: str, qualname: str) -> None:
        self.module = module
        self.qualname = qualname

    @property
    def name(self) -> str:
        """The last part of the qualified name: what ``__name__`` will be."""
        return self.qualname.rpartition(".")[2]

    def __getattr__(self, attribute: str) -> Deferred:
        if attribute.startswith("__"):  # copy, pickle and inspect probe dunders
            raise AttributeError(attribute)
        return Deferred(self.module, f"{self.qualname}.{attribute}")

    def resolve(self) -> Any:
        """Import the module and return the object."""
        target: Any = import_module(self.module)
        for attribute in self.qualname.split("."):
            target = getattr(target, attribute)
        return target

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<deferred {self.module}:{self.qualname}>"


def resolve(value: Any) -> Any:
    """``value`` itself, or the object a :class:`Deferred` names, imported."""
    return value.resolve() if isinstance(value, Deferred) else value
