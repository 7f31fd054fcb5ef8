"""The record model: one generated JSON form per record, and Mapping reads over it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import FrozenInstanceError, dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.model import Hit, Record, TermScore, camel, to_json
from groundgraph.model.memory import MemoryHit
from groundgraph.reason.thought.thoughts import ReasoningResult, TokenCount

#: What every search hit says about how it was reached (DESIGN.md, "Explain").
EXPLANATION_KEYS = {"via", "edgeType", "path", "hops", "terms", "lexicalScore", "graphScore"}


@dataclass(frozen=True)
class Inner(Record):
    some_value: int


@dataclass(frozen=True)
class Outer(Record):
    node_id: str
    parts: tuple[Inner, ...]
    counts: dict[str, int]


def test_the_json_form_is_generated_from_the_fields() -> None:
    record = Outer("a#1", (Inner(1), Inner(2)), {"parent-child": 3})
    assert record.to_dict() == {
        "nodeId": "a#1",
        "parts": [{"someValue": 1}, {"someValue": 2}],
        "counts": {"parent-child": 3},
    }
    assert json.loads(json.dumps(record.to_dict())) == record.to_dict()


def test_a_record_reads_as_an_immutable_mapping() -> None:
    record = Outer("a#1", (Inner(1),), {})
    assert isinstance(record, Mapping)
    assert "nodeId" in record and "node_id" not in record and 0 not in record
    assert record["nodeId"] == "a#1" and record.get("missing", 7) == 7
    assert list(record.keys()) == ["nodeId", "parts", "counts"] and len(record) == 3
    assert dict(record) == record.to_dict()
    with pytest.raises(KeyError):
        record["missing"]
    with pytest.raises(TypeError):
        record["nodeId"] = "b"  # type: ignore[index]
    with pytest.raises(FrozenInstanceError):
        record.node_id = "b"  # type: ignore[misc]


@given(st.from_regex(r"[a-z]{1,6}(_[a-z]{1,6}){0,3}", fullmatch=True))
def test_camel_case_keys(name: str) -> None:
    key = camel(name)
    assert "_" not in key and key.lower() == name.replace("_", "")
    assert key[0] == name[0]


def test_to_json_converts_nested_records_and_tuples() -> None:
    hit = Hit(
        "a", "d", "t", "c", 1.0, 1.0, 0.0, 0, None, None, ("a",), (), (TermScore("w", 1, 2, 3),)
    )
    assert to_json([hit, (1, 2)]) == [hit.to_dict(), [1, 2]]


def test_a_reasoning_result_answers_in_get_and_its_field_names() -> None:
    result = ReasoningResult("q?", "An answer.", None, (), (), (), (), 2, False, TokenCount(3, 4))
    assert "answer" in result and "llmCalls" in result and "llm_calls" in result
    assert result["answer"] == "An answer." and result.get("answer") == "An answer."
    assert result["llm_calls"] == 2 and result["llmCalls"] == 2
    assert result.get("nothing") is None and "nothing" not in result
    assert dict(result) == result.to_dict()


@pytest.fixture
def memory() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_text("Heavy rainfall caused flooding in the valley.", scopes=["agent-a"])
    graph.add_text("The flooding in the valley led to power outages.", scopes=["agent-b"])
    graph.add_text("The power outages caused the hospital to use generators.")
    graph.add_text("The bakery is open on Sundays.", scopes=["agent-a"])
    graph.supersede("The bakery is open on Sundays.", "The bakery is closed on Sundays.")
    return graph


def test_every_memory_and_causal_verb_returns_records(memory: DocumentGraph) -> None:
    results = [
        *memory.query_detailed("why did the power go out"),
        *memory.discover("power outages"),
        memory.answer("why did the power go out"),
        memory.trace_effects("Heavy rainfall caused flooding in the valley."),
        memory.trace_causes("The power outages caused the hospital to use generators."),
        *(memory.causal_chain("Heavy rainfall", "the hospital to use generators") or []),
        memory.what_if("The flooding in the valley led to power outages.", origin="Heavy rainfall"),
        memory.supersession_history("The bakery is closed on Sundays."),
        *memory.conflicts(),
        memory.fact("The bakery is closed on Sundays."),
        memory.delete("The power outages caused the hospital to use generators."),
        memory.stats(),
        *memory.documents(),
    ]
    assert len(results) > 12
    for result in results:
        assert isinstance(result, Record), type(result)
        assert dict(result) == result.to_dict()
        assert json.loads(json.dumps(result.to_dict())) == result.to_dict()


def test_traces_and_reports_keep_their_json_keys(memory: DocumentGraph) -> None:
    trace = memory.trace_effects("Heavy rainfall caused flooding in the valley.")
    assert set(trace) == {"origin", "originId", "direction", "chain", "terminals", "truncated"}
    assert set(trace["chain"][0]) == {
        "cause", "effect", "fact", "factId", "depth", "scopes", "crossScope"
    }  # fmt: skip
    what = memory.what_if("The flooding in the valley led to power outages.")
    assert set(what) == {
        "pruned", "prunedId", "origin", "originId", "direction", "prunedEdges", "collapsed",
        "survived", "truncated",
    }  # fmt: skip
    history = memory.supersession_history("The bakery is closed on Sundays.")
    assert set(history) == {"fact", "supersedes", "supersededBy", "events"}
    assert history["supersedes"][0]["content"] == "The bakery is open on Sundays."
    line = memory.conflicts()[0]
    assert set(line) == {"at", "rule", "detail", "resolver", "new", "old"}
    assert set(line["old"]) == {"factId", "content", "scopes", "createdAt", "source"}
    report = memory.delete("The bakery is closed on Sundays.")
    assert set(report) == {
        "docId", "fact", "nodes", "entities", "edges", "ledgerEntries", "purged",
        "withdrawn"
    }  # fmt: skip


def test_a_memory_hit_explains_itself_as_a_search_hit_does(memory: DocumentGraph) -> None:
    memory.add_document("# Grid\n\nPower outages follow floods.", "Grid")
    search_hit = memory.search("power outages")[0]
    assert set(search_hit) >= EXPLANATION_KEYS
    hits = memory.query_detailed("why did the power go out")
    reached = [h for h in hits if h.hops > 0]
    assert hits and reached
    for hit in hits:
        assert isinstance(hit, MemoryHit)
        assert set(hit) >= EXPLANATION_KEYS
        assert hit["path"][-1] == hit["nodeId"] == hit["factId"]
        assert len(hit["edgeTypes"]) == len(hit["path"]) - 1
    for hit in reached:
        assert hit["via"] == hit["path"][-2] and hit["edgeType"] == hit["edgeTypes"][-1]
    for row in memory.discover("power outages"):
        assert set(row) >= EXPLANATION_KEYS


def test_support_unpacks_like_the_seed_and_reads_as_a_mapping() -> None:
    graph = DocumentGraph()
    graph.add_document("# Guide\n## Setup\nEdit config.json to customize settings.", "Guide")
    found = graph.support("Edit config.json settings", ["guide#1"])
    share, node_ids, mass = found
    assert (share, node_ids, mass) == (found.share, list(found.node_ids), found.mass)
    assert "nodeIds" in found and found["share"] == share and found.get("uncovered") == []
    assert dict(found) == {"share": share, "nodeIds": ["guide#1"], "mass": mass, "uncovered": []}
