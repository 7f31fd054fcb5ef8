"""Tool specs over the graph, and execute_tools with well-formed and hostile calls."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph import DocumentGraph, InputError
from groundgraph.reason.thought import GroundedGraphOfThought
from groundgraph.tools import (
    MAX_CALLS,
    MAX_STRING_CHARS,
    ToolParam,
    ToolSpec,
    anthropic_tools,
    execute_tools,
    got_tools,
    openai_tools,
)
from thought_fakes import Scripted, make_graph, thoughts

READ_TOOLS = [
    "got_search",
    "got_read_node",
    "got_outline",
    "got_list_documents",
    "ground_answer",
    "verify_relation",
    "got_why_not",
]


@pytest.fixture
def graph() -> DocumentGraph:
    return make_graph()


def call(tools, name, **arguments):
    (result,) = execute_tools([{"name": name, "arguments": arguments}], tools)
    return result


# ----------------------------------------------------------------------------- specs
def test_tool_sets_by_option(graph):
    assert [t.name for t in got_tools(graph)] == READ_TOOLS
    writable = [t.name for t in got_tools(graph, writable=True)]
    assert writable == [*READ_TOOLS, "got_add_document", "got_remove_document"]
    reasoner = GroundedGraphOfThought(graph, Scripted())
    assert [t.name for t in got_tools(graph, reasoner=reasoner)][-1] == "got_reason"


def test_schema_forms(graph):
    search = got_tools(graph)[0]
    schema = search.schema_dict()
    assert schema["name"] == "got_search" and schema["description"]
    assert schema["parameters"] == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for, in a few words."},
            "max_results": {
                "type": "integer",
                "description": "How many sections to return, 1 to 50 (default 8).",
            },
        },
        "required": ["query"],
    }
    assert search.openai() == {"type": "function", "function": schema}
    assert search.anthropic() == {
        "name": "got_search",
        "description": schema["description"],
        "input_schema": schema["parameters"],
    }
    tools = got_tools(graph, writable=True)
    assert [t["function"]["name"] for t in openai_tools(tools)] == [t.name for t in tools]
    assert [t["name"] for t in anthropic_tools(tools)] == [t.name for t in tools]
    json.dumps(openai_tools(tools))  # plain JSON all the way down


def test_tool_param_enum_and_items():
    param = ToolParam("mode", "string", "How.", enum=["a", "b"], enum_descriptions=["A", "B"])
    assert param.schema() == {
        "type": "string",
        "description": "How. (a: A; b: B)",
        "enum": ["a", "b"],
    }
    listed = ToolParam("ids", "array", items={"type": "string"}).schema()
    assert listed["items"] == {"type": "string"}
    with pytest.raises(InputError):
        ToolParam("mode", enum=["a"], enum_descriptions=["A", "B"])
    with pytest.raises(InputError):
        ToolParam("bad name")
    with pytest.raises(InputError):
        ToolParam("x", "float")
    with pytest.raises(InputError):
        ToolSpec("t", "", [ToolParam("x"), ToolParam("x")], lambda x: x)


# ----------------------------------------------------------------------------- graph tools
def test_search_tool(graph):
    hits = call(got_tools(graph), "got_search", query="config fails")
    assert hits[0]["nodeId"] == "user-guide#4" and hits[0]["reachedVia"] == "direct match"
    assert hits[0]["score"] == 1.0 and hits[0]["snippet"].startswith("If config fails")
    assert any(h["reachedVia"].startswith("reference from") for h in hits)
    assert all(round(h["score"], 3) == h["score"] for h in hits)
    assert len(call(got_tools(graph), "got_search", query="config", max_results=1)) == 1


def test_why_not_tool_is_the_verbs_json(graph):
    found = call(got_tools(graph), "got_why_not", query="config fails", target="user-guide#1",
                 max_results=2)  # fmt: skip
    assert found == graph.why_not("config fails", "user-guide#1", max_results=2).to_dict()
    assert found["stage"] == "outranked" and found["counterfactual"]["rank"] > 2
    refused = call(got_tools(graph), "got_why_not", query="x", target="y", max_results=999)
    assert "error" in refused


def test_read_node_tool(graph):
    node = call(got_tools(graph), "got_read_node", node_id="user-guide#4")
    assert node["title"] == "Troubleshooting" and node["parentId"] == "user-guide"
    assert node["content"] == "If config fails, see the Configuration section."
    assert {"nodeId": "user-guide#2", "title": "Configuration", "type": "reference"} in (
        node["links"]
    )
    root = call(got_tools(graph), "got_read_node", node_id="user-guide")
    assert root["children"] == ["user-guide#1", "user-guide#2", "user-guide#3", "user-guide#4"]
    missing = call(got_tools(graph), "got_read_node", node_id="nope#9")
    assert missing["ok"] is False
    assert missing["error"] == (
        "Unknown node: 'nope#9'. Use got_search or got_outline to find node ids."
    )


def test_outline_and_list_tools(graph):
    tools = got_tools(graph)
    outline = call(tools, "got_outline", doc_id="user-guide")
    assert outline.splitlines()[1] == "  - [user-guide#1] Installation"
    assert call(tools, "got_list_documents") == [
        {"docId": "user-guide", "title": "User Guide", "nodes": 5},
        {"docId": "bakery-handbook", "title": "Bakery Handbook", "nodes": 4},
    ]
    assert call(tools, "got_outline", doc_id="nope")["ok"] is False


def test_write_tools(graph):
    tools = got_tools(graph, writable=True)
    doc_id = call(
        tools, "got_add_document", content="# Notes\n## Tea\nBrew green tea.", title="Notes"
    )
    assert doc_id == "notes"
    assert call(tools, "got_search", query="green tea")[0]["nodeId"].startswith("notes")
    assert call(tools, "got_remove_document", doc_id="notes") is True
    assert call(tools, "got_remove_document", doc_id="notes") is False
    assert "got_add_document" not in {t.name for t in got_tools(graph)}


def test_ground_answer_tool(graph):
    tools = got_tools(graph)
    text = "Edit config.json to customize settings. The moon is made of cheese."
    checked = call(tools, "ground_answer", answer=text)
    assert checked["unsupported"] == ["The moon is made of cheese."]
    assert checked["citations"] == ["user-guide#2"]
    fixed = call(tools, "ground_answer", answer=text, node_ids=["bakery-handbook#1"])
    assert len(fixed["unsupported"]) == 2
    assert call(tools, "ground_answer", answer=text, node_ids=["nope"])["ok"] is False


def test_verify_relation_tool_with_given_facts_and_graph_facts(graph):
    tools = got_tools(graph)
    facts = [["alice", "parent", "bob"], ["bob", "parent", "carol"], ["bad"]]
    verdict = call(
        tools, "verify_relation", subject="alice", relation="parent", object="carol", facts=facts
    )
    assert verdict["grounded"] is True and verdict["proof"] == ["alice", "bob", "carol"]
    assert verdict["skipped_facts"] == 1
    graph.add_fact("Ada", "parent", "Byron", source="user-guide#1")
    graph.add_fact("Byron", "parent", "Cleo")
    verdict = call(tools, "verify_relation", subject="Ada", relation="parent", object="Cleo")
    assert verdict["grounded"] is True and verdict["hops"][0]["sources"] == ["user-guide#1"]
    refused = call(tools, "verify_relation", subject="Cleo", relation="parent", object="Ada")
    assert refused["grounded"] is False


def test_reason_tool(graph):
    reasoner = GroundedGraphOfThought(
        graph, Scripted(thoughts("Edit config.json to customize settings."))
    )
    result = call(got_tools(graph, reasoner=reasoner), "got_reason", question="My config fails?")
    assert result == {
        "answer": "Edit config.json to customize settings.",
        "citations": [{"nodeId": "user-guide#2", "docId": "user-guide", "title": "Configuration"}],
        "unsupported": [],
    }


# ----------------------------------------------------------------------------- call shapes
def test_openai_and_anthropic_call_shapes(graph):
    tools = got_tools(graph)
    openai_call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "got_outline", "arguments": '{"doc_id": "user-guide"}'},
    }
    anthropic_call = {
        "type": "tool_use",
        "id": "t1",
        "name": "got_outline",
        "input": {"doc_id": "user-guide"},
    }
    first, second = execute_tools([openai_call, anthropic_call], tools)
    assert first == second and first.startswith("- [user-guide] User Guide")
    assert execute_tools({"name": "got_list_documents"}, tools)[0][0]["docId"]
    assert execute_tools([{"name": "got_list_documents", "arguments": ""}], tools)[0]


# ----------------------------------------------------------------------------- hostile calls
@pytest.mark.parametrize(
    ("bad_call", "message"),
    [
        ({"name": "rm_rf", "arguments": {}}, "no handler for tool 'rm_rf'"),
        ({"arguments": {"query": "x"}}, "needs a 'name'"),
        ("got_search", "must be an object"),
        (None, "must be an object"),
        ({"name": "got_search", "arguments": {}}, "missing argument query"),
        ({"name": "got_search", "arguments": {"query": "x", "rm": 1}}, "unexpected argument 'rm'"),
        ({"name": "got_search", "arguments": {"query": 7}}, "'query' must be string, not int"),
        ({"name": "got_search", "arguments": {"query": ["x"]}}, "must be string, not list"),
        ({"name": "got_search", "arguments": {"query": "x", "max_results": True}}, "integer"),
        ({"name": "got_search", "arguments": {"query": "x", "max_results": 0}}, "from 1 to 50"),
        ({"name": "got_search", "arguments": [1, 2]}, "must be an object, not list"),
        ({"name": "got_search", "arguments": "{not json"}, "not valid JSON"),
        ({"name": "got_search", "arguments": "[" * 100_000}, "deeper than"),
        (
            {"name": "got_search", "arguments": {"query": "x" * (MAX_STRING_CHARS + 1)}},
            "over the limit",
        ),
        ({"name": "got_search", "function": 5}, "'function' must be an object"),
        ({"name": "x" * 1000}, "over the limit"),
        (
            {
                "name": "ground_answer",
                "arguments": {
                    "answer": "x",
                    "node_ids": [[[[[[[[[[[[[[[[[[[[[["a"]]]]]]]]]]]]]]]]]]]]]],
                },
            },
            "deeper than",
        ),
        ({"name": "ground_answer", "arguments": {"answer": "x", "node_ids": [1, 2]}}, "strings"),
        (
            {
                "name": "verify_relation",
                "arguments": {"subject": "a", "relation": "r", "object": "b", "facts": "x"},
            },
            "array",
        ),
        (
            {"name": "got_search", "arguments": {"query": "x", "max_results": float("nan")}},
            "integer",
        ),
    ],
)
def test_bad_calls_become_error_results(graph, bad_call, message):
    (result,) = execute_tools([bad_call], got_tools(graph, writable=True))
    assert result["ok"] is False
    assert message in result["error"], result["error"]


def test_a_handler_that_raises_is_reported_not_raised():
    def broken(x: str) -> str:
        raise RuntimeError("disk on fire")

    tools = [ToolSpec("broken", "Fails.", [ToolParam("x")], broken)]
    assert execute_tools([{"name": "broken", "arguments": {"x": "1"}}], tools) == [
        {"ok": False, "error": "RuntimeError: disk on fire"}
    ]


def test_too_many_calls_in_one_batch(graph):
    calls = [{"name": "got_list_documents"}] * (MAX_CALLS + 3)
    results = execute_tools(calls, got_tools(graph))
    assert len(results) == MAX_CALLS + 3
    assert all(isinstance(r, list) for r in results[:MAX_CALLS])
    assert all(r["ok"] is False and "at most 64" in r["error"] for r in results[MAX_CALLS:])


def test_calls_that_are_not_a_list(graph):
    for calls in ("got_search", 5, None, b"xx"):
        (result,) = execute_tools(calls, got_tools(graph))
        assert result["ok"] is False and "must be a list" in result["error"]


def test_many_values_in_one_call_are_capped(graph):
    facts = [["a", "r", "b"]] * 70_000  # 280,000 values
    (result,) = execute_tools(
        [
            {
                "name": "verify_relation",
                "arguments": {"subject": "a", "relation": "r", "object": "b", "facts": facts},
            }
        ],
        got_tools(graph),
    )
    assert result["ok"] is False and "values" in result["error"]


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=30,
    )
)
def test_any_arguments_never_raise(arguments):
    graph = _SHARED_GRAPH
    for name in ("got_search", "got_read_node", "ground_answer", "verify_relation", "nope"):
        results = execute_tools([{"name": name, "arguments": arguments}], got_tools(graph))
        assert len(results) == 1


_SHARED_GRAPH = make_graph()
