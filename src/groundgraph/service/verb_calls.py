"""Calling a verb of the verb table with JSON arguments, as a caller's key allows.

The arguments are checked against the verb's own JSON schema (``Verb.input_schema``:
unknown or missing fields, types, enums, bounds), so a bad request is an InputError that
names the field before the graph sees it. Then the key decides:

- a write verb needs a read-write key;
- a verb that takes ``scopes`` runs as the scopes the request names, each of which the key
  must allow, else as the key's own scopes (a restricted key never reads unscoped);
- a verb without ``scopes`` reads or changes every document, so it needs a key bound to
  every scope.

Reads run on the graph's searcher (``graph.searcher().verb``), which holds no write verb.
The result is the verb's JSON form, exactly what ``groundgraph <command> --json`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from groundgraph.errors import InputError
from groundgraph.graph import DocumentGraph
from groundgraph.graph.verb_schema import Verb
from groundgraph.graph.verbs import VERBS
from groundgraph.model import to_json
from groundgraph.service.access import Access, AccessDeniedError

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _is(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[kind])


def check_value(field: str, value: Any, schema: Mapping[str, Any]) -> None:
    """An InputError naming ``field`` when ``value`` does not fit ``schema`` (the subset
    of JSON schema the verb table writes: type, enum, bounds, items, anyOf)."""
    if "anyOf" in schema:
        errors = []
        for part in schema["anyOf"]:
            try:
                check_value(field, value, part)
                return
            except InputError as error:
                errors.append(str(error))
        raise InputError(f"{field}: {errors[0]}")
    kinds = schema.get("type")
    if kinds is not None:
        allowed = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_is(value, kind) for kind in allowed):
            raise InputError(f"field {field!r} must be {' or '.join(allowed)}, not {value!r:.80}")
    if "enum" in schema and value not in schema["enum"]:
        raise InputError(f"field {field!r} must be one of {schema['enum']}, not {value!r:.80}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        low, high = schema.get("minimum"), schema.get("maximum")
        above = schema.get("exclusiveMinimum")
        if (low is not None and value < low) or (high is not None and value > high):
            raise InputError(f"field {field!r} must be between {low} and {high}, not {value}")
        if above is not None and value <= above:
            raise InputError(f"field {field!r} must be more than {above}, not {value}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            check_value(f"{field}[{i}]", item, schema["items"])


def check_arguments(verb: Verb, arguments: Mapping[str, Any]) -> None:
    """Unknown, missing or ill-typed arguments of ``verb`` are an InputError."""
    schema = verb.input_schema()
    properties = schema["properties"]
    unknown = sorted(set(arguments) - set(properties))
    if unknown:
        raise InputError(
            f"{verb.name} takes no field {unknown[0]!r}; it takes {', '.join(properties)}"
        )
    for name in schema["required"]:
        if name not in arguments:
            raise InputError(f"{verb.name} needs the field {name!r}")
    for name, value in arguments.items():
        check_value(name, value, properties[name])


def call_verb(graph: DocumentGraph, name: str, arguments: Mapping[str, Any], access: Access) -> Any:
    """Run the verb ``name`` with JSON ``arguments`` as ``access`` allows; its JSON form."""
    verb = VERBS.get(name)
    if verb is None:
        raise InputError(f"no verb {name!r}")
    check_arguments(verb, arguments)
    given = dict(arguments)
    if verb.writes:
        access.require_write()
    if verb.scoped:
        asked = given.get("scopes")
        if isinstance(asked, str):
            asked = given["scopes"] = [asked]
        if asked is not None and not all(isinstance(s, str) and access.names(s) for s in asked):
            raise AccessDeniedError(f"this key may not read as {asked!r}")
        if asked is None and access.scopes is not None:
            given["scopes"] = list(access.scopes)
    else:
        access.require_everything(name)
    run = getattr(graph, name) if verb.writes else graph.searcher().verb(name)
    return to_json(run(**given))
