"""Calling a verb of the verb table with JSON arguments, as a caller's key allows.

The arguments are checked against the verb's own JSON schema (``Verb.input_schema``:
unknown or missing fields, types, enums, bounds), so a bad request is an InputError that
names the field before the graph sees it. Then the key decides:

- a write verb needs a read-write key;
- a verb that takes ``scopes`` runs as the scopes the request names, each of which the key
  must allow, else as the key's own scopes (a restricted key never reads unscoped): the
  document views (``node``, ``show``, ``outline``, ``documents``, ``bridge``, ``ground``,
  ``why_not``) then answer another tenant's id as an unknown one, and ``add_document``
  makes a document those scopes read;
- ``remove_document``, and ``add_document`` over an id already held, are ruled on by
  ``service.document_access`` for a key bound to scopes;
- any other verb without ``scopes`` reads or changes every document, so it needs a key
  bound to every scope.

``verify_relation`` (a companion of the table, ``graph.verbs.COMPANIONS``) is served too:
with ``facts`` it checks the claim against those facts alone, reading nothing stored, so
any key may call it; without, it reads the graph's own relation facts, which are not
scoped, so it needs a key bound to every scope.

Reads run on the graph's searcher (``graph.searcher().verb``), which holds no write verb.
The result is the verb's JSON form, exactly what ``groundgraph <command> --json`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from groundgraph.errors import InputError
from groundgraph.graph import DocumentGraph
from groundgraph.graph.verb_schema import Verb
from groundgraph.graph.verbs import VERBS, companion
from groundgraph.model import to_json
from groundgraph.service.access import Access, AccessDeniedError
from groundgraph.service.document_access import DOCUMENT_WRITES, guard_document_write

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


def check_arguments(
    verb: Verb, arguments: Mapping[str, Any], schema: Mapping[str, Any] | None = None
) -> None:
    """Unknown, missing or ill-typed arguments of ``verb`` (against ``schema``, default
    the verb's own) are an InputError."""
    schema = schema or verb.input_schema()
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


#: Companion verbs the service runs, and the arguments they may leave out.
SERVED_COMPANIONS: Mapping[str, tuple[str, ...]] = {"verify_relation": ("facts",)}


def served_verb(name: str) -> Verb:
    """A verb of the table, or a companion the service runs (``SERVED_COMPANIONS``)."""
    found = VERBS.get(name)
    if found is None and name in SERVED_COMPANIONS:
        found = companion(name)
    if found is None:
        raise InputError(f"no verb {name!r}")
    return found


def input_schema(name: str) -> dict[str, Any]:
    """The JSON schema of a served verb's arguments (a companion's optional ones are not
    required)."""
    schema = served_verb(name).input_schema()
    optional = SERVED_COMPANIONS.get(name, ())
    return {**schema, "required": [r for r in schema["required"] if r not in optional]}


def _verify_relation(graph: DocumentGraph, given: Mapping[str, Any], access: Access) -> Any:
    from groundgraph.reason.relations.tool import check_claim, verify_relation  # scipy

    subject, relation, obj = (given[k] for k in ("subject", "relation", "object"))
    if given.get("facts") is not None:
        return verify_relation(given["facts"], subject, relation, obj)
    access.require_everything("verify_relation without facts (the graph's relation facts)")
    start, via, end = check_claim(subject, relation, obj)
    return graph.reasoner().verify(start, end, via=via).as_dict()


def call_verb(graph: DocumentGraph, name: str, arguments: Mapping[str, Any], access: Access) -> Any:
    """Run the verb ``name`` with JSON ``arguments`` as ``access`` allows; its JSON form."""
    verb = served_verb(name)
    check_arguments(verb, arguments, input_schema(name))
    if name in SERVED_COMPANIONS:
        return _verify_relation(graph, arguments, access)
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
    elif name not in DOCUMENT_WRITES:
        access.require_everything(name)
    if not guard_document_write(graph, name, given, access):
        return None
    run = getattr(graph, name) if verb.writes else graph.searcher().verb(name)
    return to_json(run(**given))
