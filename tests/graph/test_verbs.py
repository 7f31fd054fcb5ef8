"""The verb table lists every public verb of DocumentGraph, exactly as the code has it."""

from __future__ import annotations

import inspect
import json
import math
from typing import Any

import pytest

from groundgraph import Hit
from groundgraph.graph import DocumentGraph
from groundgraph.graph.verb_schema import (
    REQUIRED,
    Param,
    ToolView,
    VerbDoc,
    VerbTableError,
    build_verb,
    schema_of,
)
from groundgraph.graph.verbs import COMPANIONS, EXCLUDED, VERBS, companion, tool_view, verb

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list, tuple),
    "object": (dict,),
    "null": (type(None),),
}


def valid(value: Any, schema: dict[str, Any]) -> bool:
    """``value`` against the JSON-schema subset the table writes (types, enums, bounds)."""
    if "anyOf" in schema and not any(valid(value, part) for part in schema["anyOf"]):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(
            isinstance(value, _TYPES[k]) and (k == "boolean" or not isinstance(value, bool))
            for k in kinds
        ):
            return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return False
        if "maximum" in schema and value > schema["maximum"]:
            return False
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            return False
    if isinstance(value, str) and not schema.get("minLength", 0) <= len(value) <= schema.get(
        "maxLength", math.inf
    ):
        return False
    if isinstance(value, (list, tuple)) and "items" in schema:
        return all(valid(item, schema["items"]) for item in value)
    return True


def public_methods() -> set[str]:
    return {name for name in dir(DocumentGraph) if not name.startswith("_")}


def all_verbs() -> list[Any]:
    return [*VERBS.values(), *(companion(name) for name in COMPANIONS)]


def test_every_public_method_is_a_verb_or_excluded_with_a_reason():
    listed = set(VERBS) | set(EXCLUDED)
    assert public_methods() == listed, (public_methods() - listed, listed - public_methods())
    assert not set(VERBS) & set(EXCLUDED)
    assert all(len(reason) > 20 for reason in EXCLUDED.values())
    assert len(VERBS) >= 45


@pytest.mark.parametrize("name", sorted(VERBS))
def test_parameters_match_the_signature_exactly(name):
    entry = VERBS[name]
    signature = inspect.signature(getattr(DocumentGraph, name))
    keyword = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD)
    expected = [
        (p.name, None if p.kind is p.VAR_KEYWORD else p.default, p.kind in keyword)
        for p in signature.parameters.values()
        if p.name != "self" and not (p.kind is p.VAR_KEYWORD and entry.extends)
    ]
    own = [p for p in entry.params if p.forwarded_to is None]
    assert [(p.name, p.default, p.keyword_only) for p in own] == expected
    if entry.extends:
        target = VERBS[entry.extends]
        required = {p.name for p in target.params if p.required}
        forwarded = [p.name for p in entry.params if p.forwarded_to]
        names = {q.name for q in own}
        # A required argument of the target is the extending verb's own to supply.
        assert forwarded == [p.name for p in target.params if p.name not in names | required]
        assert not required & set(entry.input_schema()["required"]) - names


@pytest.mark.parametrize("verb_", all_verbs(), ids=lambda v: v.name)
def test_schemas_are_json_and_validate_the_defaults(verb_):
    schema = verb_.input_schema()
    json.dumps(schema)
    assert set(schema["required"]) <= set(schema["properties"])
    for param in verb_.params:
        assert param.doc.strip() and "\n" not in param.doc, (verb_.name, param.name)
        if param.json_schema is None or param.required:
            continue
        assert valid(param.default, dict(param.json_schema)), (verb_.name, param.name)
    assert verb_.summary and "\n" not in verb_.summary


def test_an_entry_carries_what_the_brief_asks():
    search = VERBS["search"]
    assert search.param("max_hops").default == 2 and not search.writes and search.scoped
    assert search.param("walker").json_schema == {"type": "string", "enum": ["bounded", "ppr"]}
    assert search.param("query").required and search.result == list[Hit]
    assert search.interfaces == ("python", "cli", "tool")
    assert VERBS["add_document"].writes and VERBS["add_document"].scoped
    assert not VERBS["remove_document"].scoped and not VERBS["stats"].scoped
    assert VERBS["reasoner"].interfaces == ("python",)
    dedup = VERBS["add_text"].param("dedup_threshold").json_schema
    assert dedup == {"type": ["number", "null"], "exclusiveMinimum": 0, "maximum": 1}
    assert VERBS["what_if"].param("direction").json_schema["enum"] == ["effects", "causes"]
    assert "extractor" not in VERBS["add_text"].input_schema()["properties"]


def test_forwarded_parameters_come_from_the_verb_they_go_to():
    retrieve = VERBS["retrieve"]
    assert retrieve.param("max_hops").forwarded_to == "search"
    assert retrieve.scoped and retrieve.param("query").forwarded_to is None


def test_invalid_defaults_are_caught_by_the_validator():
    assert not valid(0, {"type": "integer", "minimum": 1})
    assert not valid(True, {"type": "integer"})
    assert not valid("x", {"type": ["number", "null"]})
    assert valid(None, {"type": ["number", "null"], "exclusiveMinimum": 0})


def test_tools_name_verbs_and_parameters_that_exist():
    seen = set()
    for found in all_verbs():
        for view in found.tools:
            assert view.name not in seen
            seen.add(view.name)
            assert tool_view(view.name) == (found, view)
    assert {"got_search", "ground_answer", "verify_relation", "got_reason"} <= seen
    assert verb("search") is VERBS["search"]


# ----------------------------------------------------------------------------- drift
def _method(a: int, b: str = "x", *, c: float | None = None) -> list[str]:
    return []


def test_an_entry_that_drifts_from_its_method_is_refused():
    entry = VerbDoc("m", "M.", False, {"a": Param("A."), "b": Param("B."), "c": Param("C.")})
    built = build_verb(entry, _method, {}, {})
    assert [p.name for p in built.params] == ["a", "b", "c"]
    assert built.param("a").default is REQUIRED and built.param("c").keyword_only
    assert built.result == list[str]
    with pytest.raises(VerbTableError, match="not in the verb table"):
        build_verb(VerbDoc("m", "M.", False, {"a": Param("A.")}), _method, {}, {})
    extra = {"a": Param("A."), "b": Param("B."), "c": Param("C."), "d": Param("D.")}
    with pytest.raises(VerbTableError, match="not in the code"):
        build_verb(VerbDoc("m", "M.", False, extra), _method, {}, {})
    with pytest.raises(VerbTableError, match="tool"):
        bad_tool = ToolView("t", "T.", ("zz",))
        build_verb(
            VerbDoc("m", "M.", False, dict(entry.params), tools=(bad_tool,)), _method, {}, {}
        )


def test_a_type_without_a_json_form_must_say_so():
    def takes(f: object) -> None: ...

    with pytest.raises(VerbTableError, match="no JSON form"):
        build_verb(VerbDoc("m", "M.", False, {"f": Param("F.")}), takes, {}, {})
    built = build_verb(
        VerbDoc("m", "M.", False, {"f": Param("F.", python_only=True)}), takes, {}, {}
    )
    assert built.input_schema()["properties"] == {}
    assert schema_of(int | None) == {"type": ["integer", "null"]}
