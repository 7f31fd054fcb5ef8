"""The shapes of the verb table, and how an entry is completed from the code it describes.

An entry (:class:`VerbDoc`) says only what a signature cannot: a one-line summary, a
one-line doc per parameter, read or write, JSON-schema hints (enums, bounds) and which
CLI commands and agent tools expose the verb. :func:`build_verb` reads everything else
(parameter names, kinds, defaults, annotations, the result type) from
``inspect.signature`` and ``typing.get_type_hints`` of the callable, and refuses an entry
that names a parameter the callable lacks, or leaves one out, so the table cannot drift.

    VerbDoc ──build_verb(callable)──▶ Verb ─ params: VerbParam ─ json_schema
                                            └ tools: ToolView (a tool's view of the verb)
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from groundgraph.errors import GroundgraphError

#: The default of a parameter that has none (it is required).
REQUIRED: Any = inspect.Parameter.empty

_SCALARS: dict[Any, str] = {str: "string", bool: "boolean", int: "integer", float: "number"}
_ARRAYS = {list, tuple, Sequence, Iterable, Iterator, set, frozenset}
_OBJECTS = {dict, Mapping}


class VerbTableError(GroundgraphError):
    """The verb table and the code it describes disagree (a programming error)."""


@dataclass(frozen=True)
class Param:
    """What the table adds to one parameter: its doc and JSON-schema facts the code checks.

    ``schema`` replaces the schema derived from the annotation (for ``object`` or ``Any``
    annotations whose accepted values are known); ``python_only`` marks a parameter with
    no JSON form (a callable, a record object): JSON interfaces leave it out.
    """

    doc: str
    enum: Sequence[Any] | None = None
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    schema: Mapping[str, Any] | None = None
    python_only: bool = False


@dataclass(frozen=True)
class ToolView:
    """An agent tool over a verb: its name, its description and the parameters it takes.

    ``docs`` words a parameter for the model where the verb's doc would not do;
    ``optional`` lists parameters the verb requires but the tool may leave out (its
    handler fills them in).
    """

    name: str
    description: str
    params: tuple[str, ...] = ()
    docs: Mapping[str, str] = field(default_factory=dict)
    optional: tuple[str, ...] = ()


@dataclass(frozen=True)
class VerbDoc:
    """One entry of the table as written: everything about a verb its signature lacks."""

    name: str
    summary: str
    writes: bool
    params: Mapping[str, Param] = field(default_factory=dict)
    cli: tuple[str, ...] = ()
    tools: tuple[ToolView, ...] = ()
    extends: str | None = None  # the verb its ``**kwargs`` are forwarded to


@dataclass(frozen=True)
class VerbParam:
    """One parameter of a verb: the signature's facts and the table's doc and schema."""

    name: str
    annotation: Any
    default: Any
    keyword_only: bool
    doc: str
    json_schema: Mapping[str, Any] | None  # None: no JSON form (python_only)
    forwarded_to: str | None = None  # set when the parameter comes in through **kwargs

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True)
class Verb:
    """A public verb: name, parameters, result type, read or write, scoped, interfaces."""

    name: str
    summary: str
    writes: bool
    params: tuple[VerbParam, ...]
    result: Any
    cli: tuple[str, ...] = ()
    tools: tuple[ToolView, ...] = ()
    extends: str | None = None

    @property
    def scoped(self) -> bool:
        """Whether scopes apply: the verb reads or writes as given scopes."""
        return any(p.name == "scopes" for p in self.params)

    @property
    def interfaces(self) -> tuple[str, ...]:
        """Where the verb is exposed: always Python; the CLI and agent tools when listed."""
        return ("python",) + (("cli",) if self.cli else ()) + (("tool",) if self.tools else ())

    def param(self, name: str) -> VerbParam:
        for param in self.params:
            if param.name == name:
                return param
        raise VerbTableError(f"verb {self.name!r} has no parameter {name!r}")

    def tool(self, name: str) -> ToolView:
        for view in self.tools:
            if view.name == name:
                return view
        raise VerbTableError(f"verb {self.name!r} has no tool {name!r}")

    def input_schema(self) -> dict[str, Any]:
        """The JSON schema of the verb's arguments object (parameters with a JSON form)."""
        shown = [p for p in self.params if p.json_schema is not None]
        return {
            "type": "object",
            "properties": {p.name: {**(p.json_schema or {}), "description": p.doc} for p in shown},
            "required": [p.name for p in shown if p.required],
            "additionalProperties": False,
        }


# ----------------------------------------------------------------------------- schemas
def schema_of(annotation: Any) -> dict[str, Any] | None:
    """The JSON schema of values of a resolved annotation; None when it has no JSON form."""
    if annotation is type(None):
        return {"type": "null"}
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin in (types.UnionType, typing.Union):
        maybe = [schema_of(arg) for arg in args]
        parts = [part for part in maybe if part is not None]
        if len(parts) < len(maybe):
            return None
        solid = [part for part in parts if part != {"type": "null"}]
        if len(solid) == 1 and len(parts) == 2 and isinstance(solid[0].get("type"), str):
            return {**solid[0], "type": [solid[0]["type"], "null"]}  # X | None
        if all(set(part) == {"type"} for part in parts):
            return {"type": [part["type"] for part in parts]}
        return {"anyOf": parts}
    if origin in _ARRAYS or annotation in _ARRAYS:
        if not args or origin is tuple:
            return {"type": "array"}
        items = schema_of(args[0])
        return None if items is None else {"type": "array", "items": items}
    if origin in _OBJECTS or annotation in _OBJECTS:
        return {"type": "object"}
    return None


def _with_hints(schema: dict[str, Any], hints: Param, where: str) -> dict[str, Any]:
    bounds = {
        "minimum": hints.minimum,
        "maximum": hints.maximum,
        "exclusiveMinimum": hints.exclusive_minimum,
    }
    given = {key: value for key, value in bounds.items() if value is not None}
    if hints.enum is None and not given:
        return schema
    if "type" not in schema:
        raise VerbTableError(f"{where}: put enums and bounds of a union in Param(schema=...)")
    nullable = isinstance(schema["type"], list) and "null" in schema["type"]
    if hints.enum is not None:
        schema["enum"] = [*hints.enum, *([None] if nullable else [])]
    return {**schema, **given}


def _hints(resolve: Callable[..., Any], names: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(resolve, localns=dict(names))
    except NameError as error:
        raise VerbTableError(
            f"{getattr(resolve, '__qualname__', resolve)}: cannot resolve an annotation "
            f"({error}); add the name to the verb table's TYPE_NAMES"
        ) from None


def _param(
    name: str, annotation: Any, default: Any, kw_only: bool, hints: Param, where: str
) -> VerbParam:
    if hints.python_only:
        schema = None
    elif hints.schema is not None:
        schema = dict(hints.schema)
    else:
        derived = schema_of(annotation)
        if derived is None:
            raise VerbTableError(
                f"{where}: {annotation!r} has no JSON form; give Param(schema=...) "
                "or Param(python_only=True)"
            )
        schema = _with_hints(derived, hints, where)
    return VerbParam(name, annotation, default, kw_only, hints.doc, schema)


def build_verb(
    entry: VerbDoc,
    function: Callable[..., Any],
    built: Mapping[str, Verb],
    names: Mapping[str, Any],
) -> Verb:
    """The full verb: ``entry`` completed from ``function``'s signature and annotations.

    Raises :class:`VerbTableError` when the entry's parameters are not exactly the
    function's, or when a ``**kwargs`` is neither documented nor forwarded (``extends``)
    to a verb already ``built``.
    """
    signature = inspect.signature(function)
    annotations = _hints(function, names)
    documented = dict(entry.params)
    params: list[VerbParam] = []
    forwards = False
    for position, (name, sig) in enumerate(signature.parameters.items()):
        if position == 0 and name in ("self", "cls"):
            continue
        if sig.kind is inspect.Parameter.VAR_POSITIONAL:
            raise VerbTableError(f"{entry.name}: *{name} has no place in a verb table")
        if sig.kind is inspect.Parameter.VAR_KEYWORD and name not in documented:
            if entry.extends is None:
                raise VerbTableError(f"{entry.name}: document **{name} or set extends=")
            forwards = True
            continue
        hints = documented.pop(name, None)
        if hints is None:
            raise VerbTableError(f"{entry.name}: parameter {name!r} is not in the verb table")
        where = f"{entry.name}({name})"
        kw_only = sig.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD)
        default = None if sig.kind is inspect.Parameter.VAR_KEYWORD else sig.default
        annotation = annotations.get(name, Any)
        params.append(_param(name, annotation, default, kw_only, hints, where))
    if documented:
        raise VerbTableError(f"{entry.name}: the table names {sorted(documented)}, not in the code")
    if entry.extends is not None:
        if not forwards:
            raise VerbTableError(f"{entry.name}: extends= needs a **kwargs to forward")
        target = built.get(entry.extends)
        if target is None:
            raise VerbTableError(f"{entry.name}: extends {entry.extends!r}, not listed before it")
        own = {p.name for p in params}
        # The target's required arguments are the extending verb's to supply (ask's
        # question becomes search's query): only its optional ones are forwarded.
        params += [
            VerbParam(p.name, p.annotation, p.default, True, p.doc, p.json_schema, entry.extends)
            for p in target.params
            if p.name not in own and not p.required
        ]
    for view in entry.tools:
        missing = set(view.params) - {p.name for p in params}
        if (
            missing
            or not set(view.optional) <= set(view.params)
            or not set(view.docs) <= set(view.params)
        ):
            raise VerbTableError(f"tool {view.name!r} names parameters {entry.name} lacks")
    return Verb(
        entry.name,
        entry.summary,
        entry.writes,
        tuple(params),
        annotations.get("return", Any),
        entry.cli,
        entry.tools,
        entry.extends,
    )
