"""The verify_relation tool: specs, stateless calls, malformed and hostile input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.reason.relations import (
    MAX_FACTS,
    MAX_STRING_LENGTH,
    TOOL_SPEC,
    openai_tool_spec,
    run_tool,
    verify_relation,
)

FACTS = [["alice", "parent", "bob"], ["bob", "parent", "carol"]]


def test_the_anthropic_spec() -> None:
    assert TOOL_SPEC["name"] == "verify_relation"
    schema = TOOL_SPEC["input_schema"]
    assert schema["type"] == "object"
    assert schema["required"] == ["facts", "subject", "relation", "object"]
    assert schema["properties"]["facts"]["items"]["minItems"] == 3
    json.dumps(TOOL_SPEC)  # plain JSON


def test_the_openai_spec_is_the_same_tool() -> None:
    spec = openai_tool_spec()
    assert spec["type"] == "function"
    assert spec["function"]["name"] == TOOL_SPEC["name"]
    assert spec["function"]["parameters"] == TOOL_SPEC["input_schema"]
    spec["function"]["parameters"]["required"].clear()
    assert TOOL_SPEC["input_schema"]["required"]  # a copy: the module's spec is untouched


def test_verify_relation_grounded_and_refused() -> None:
    result = verify_relation(FACTS, "alice", "parent", "carol")
    assert result["grounded"] is True
    assert result["proof"] == ["alice", "bob", "carol"]
    assert result["confidence"] == 0.36
    assert result["skipped_facts"] == 0
    refused = verify_relation(FACTS, "alice", "parent", "zed")
    assert refused["grounded"] is False and refused["proof"] is None


def test_whitespace_is_stripped() -> None:
    facts = [[" alice ", "parent", "bob\n"], ["bob", " parent", "carol"]]
    assert verify_relation(facts, "  alice", "parent ", "carol")["grounded"] is True


def test_malformed_facts_are_skipped_and_counted() -> None:
    facts = [
        *FACTS,
        ["only", "two"],
        ["a", "b", "c", "d"],
        [1, "parent", "x"],
        None,
        "alice parent carol",
        {"subject": "alice"},
        ["", "parent", "carol"],
        ["  ", "parent", "carol"],
    ]
    result = verify_relation(facts, "alice", "parent", "carol")
    assert result["grounded"] is True
    assert result["skipped_facts"] == 8


def test_each_call_is_stateless() -> None:
    assert verify_relation(FACTS, "alice", "parent", "carol")["grounded"]
    assert not verify_relation([], "alice", "parent", "carol")["grounded"]


def test_run_tool_takes_input_a_block_or_json() -> None:
    tool_input = {"facts": FACTS, "subject": "alice", "relation": "parent", "object": "carol"}
    assert run_tool(tool_input)["grounded"]
    assert run_tool({"name": "verify_relation", "input": tool_input})["grounded"]
    assert run_tool(json.dumps(tool_input))["grounded"]
    assert run_tool({**tool_input, "extra": "ignored"})["grounded"]


@pytest.mark.parametrize(
    ("tool_input", "message"),
    [
        ({"facts": FACTS, "subject": "a", "relation": "r"}, "missing object"),
        ({"name": "delete_everything", "input": {}}, "unknown tool"),
        ([1, 2, 3], "JSON object"),
        (None, "JSON object"),
        ("{not json", "not valid JSON"),
        ('"a string"', "JSON object"),
        ({"facts": "a parent b", "subject": "a", "relation": "r", "object": "b"}, "facts must"),
        ({"facts": FACTS, "subject": 5, "relation": "r", "object": "b"}, "subject must"),
        ({"facts": FACTS, "subject": "a", "relation": "  ", "object": "b"}, "relation is empty"),
        ({"facts": FACTS, "subject": "a", "relation": "r", "object": ["b"]}, "object must"),
    ],
)
def test_run_tool_rejects_bad_input(tool_input: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        run_tool(tool_input)


def test_size_caps() -> None:
    too_many = [["a", "r", "b"]] * (MAX_FACTS + 1)
    with pytest.raises(InputTooLargeError, match="facts is 100,001 long"):
        verify_relation(too_many, "a", "r", "b")
    long_name = "x" * (MAX_STRING_LENGTH + 1)
    with pytest.raises(InputTooLargeError, match="subject"):
        verify_relation(FACTS, long_name, "parent", "carol")
    with pytest.raises(InputTooLargeError, match="fact #1"):
        verify_relation([FACTS[0], ["bob", "parent", long_name]], "alice", "parent", "carol")


def test_at_the_cap_still_works() -> None:
    name = "y" * MAX_STRING_LENGTH
    facts = [["a", "r", name]] + [["a", "r", f"n{i}"] for i in range(MAX_FACTS - 1)]
    result = verify_relation(facts, "a", "r", name)
    assert result["grounded"] is True


def test_deeply_nested_json_is_an_input_error() -> None:
    with pytest.raises(InputError):
        run_tool("[" * 100_000 + "]" * 100_000)


def test_names_are_data_not_code() -> None:
    facts = [
        ["__import__('os').system('false')", "parent", "{{7*7}}"],
        ["{{7*7}}", "parent", "'; DROP"],
    ]
    result = verify_relation(facts, "__import__('os').system('false')", "parent", "'; DROP")
    assert result["grounded"] is True
    assert result["proof"][1] == "{{7*7}}"


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=8), children, max_size=4)
        ),
        max_leaves=20,
    )
)
def test_any_json_value_gives_a_result_or_an_input_error(value: object) -> None:
    for tool_input in (value, {"facts": value, "subject": "a", "relation": "r", "object": "b"}):
        try:
            result = run_tool(tool_input)
        except InputError:
            continue
        assert set(result) >= {"grounded", "proof", "confidence", "skipped_facts"}
