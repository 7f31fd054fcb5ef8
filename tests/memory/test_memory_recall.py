"""Recall over memory: ranking, explanations, discover, scopes and isolation, time travel."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from groundgraph import DocumentGraph, InputError, InputTooLargeError

CHAIN = [
    "Heavy rainfall caused flooding in the valley.",
    "The flooding in the valley led to power outages.",
    "Hospitals lost surgery time because of power outages.",
]
DISTRACTOR = "The valley hosts a cheese festival every spring."


@pytest.fixture
def memory() -> DocumentGraph:
    graph = DocumentGraph(conflict_resolver=False)
    graph.add_text(CHAIN[0], scopes=["weather"])
    graph.add_text(CHAIN[1], scopes=["grid"])
    graph.add_text(CHAIN[2], scopes=["health"])
    graph.add_text(DISTRACTOR, scopes=["weather"])
    return graph


def test_a_chain_split_across_scopes_is_recalled_in_order(memory):
    found = memory.query("What did the heavy rainfall lead to?", top_k=3)
    assert found == CHAIN


def test_query_detailed_explains_each_fact(memory):
    rows = memory.query_detailed("heavy rainfall", top_k=3)
    first, second, third = rows
    assert first["content"] == CHAIN[0] and first["explanation"]["seed"]
    assert first["explanation"]["path"] == [
        {"factId": first["factId"], "content": CHAIN[0], "scopes": ["weather"], "crossScope": False}
    ]
    assert {t["term"] for t in first["explanation"]["terms"]} == {"heavi", "rainfal"}
    assert second["content"] == CHAIN[1] and second["explanation"]["hops"] == 1
    assert second["explanation"]["path"][1] == {"span": "flooding in the valley"}
    assert second["explanation"]["edgeTypes"] == ["mentions", "mentions"]
    assert third["content"] == CHAIN[2] and third["explanation"]["hops"] >= 1
    assert "causes" in third["explanation"]["edgeTypes"]
    assert first["score"] > second["score"] > third["score"] > 0
    assert {"createdAt", "scopes", "crossScope", "retired"} <= set(first)
    # The graph part of a reached fact's score is the product along its path.
    assert second["explanation"]["graphScore"] == pytest.approx((0.9 * 0.85) ** 2)


def test_discover_returns_paths_scopes_and_causal_pairs(memory):
    rows = memory.discover("heavy rainfall", scopes=["weather"], max_results=5)
    by_text = {r["content"]: r for r in rows}
    assert by_text[CHAIN[0]]["causes"] == [
        {"cause": "Heavy rainfall", "effect": "flooding in the valley"}
    ]
    grid = by_text[CHAIN[1]]
    assert grid["crossScope"] is True and grid["scopes"] == []  # not the reader's to name
    assert grid["path"][0]["factId"] == by_text[CHAIN[0]]["factId"]
    assert grid["causes"] == [{"cause": "The flooding in the valley", "effect": "power outages"}]
    assert not by_text[CHAIN[0]]["crossScope"]


def test_scoped_queries_seed_only_from_their_scopes(memory):
    # "cheese" only matches the weather distractor; from "grid" it is not a seed, and
    # what fills the answer up to top_k is grid's own
    grid = memory.query_detailed("cheese festival", scopes=["grid"])
    assert [h.content for h in grid] == [CHAIN[1]]
    assert grid[0].explanation.seeding.mode == "fill" and grid[0].score == 0
    assert memory.query("cheese festival", scopes=["weather"])[0] == DISTRACTOR
    # Without isolation the walk crosses scopes; with it, it does not.
    crossing = memory.query("heavy rainfall", scopes=["weather"], top_k=5)
    assert CHAIN[1] in crossing and CHAIN[2] in crossing
    isolated = memory.query("heavy rainfall", scopes=["weather"], isolate=True, top_k=5)
    assert set(isolated) <= {CHAIN[0], DISTRACTOR}


def test_graph_wide_isolation_default(memory):
    strict = DocumentGraph(store=memory.store, isolate_traversal=True)
    assert set(strict.query("heavy rainfall", scopes=["weather"])) <= {CHAIN[0], DISTRACTOR}
    assert CHAIN[1] in strict.query("heavy rainfall", scopes=["weather"], isolate=False)


def test_a_scope_reads_its_ancestors_facts():
    graph = DocumentGraph(conflict_resolver=False)
    graph.add_text("Acme's expense limit is 500 euros.", scopes=["acme"])
    graph.add_text("Team Blue books travel through Fernweh Reisen.", scopes=["acme/blue"])
    graph.add_text("Alice prefers window seats.", scopes=["acme/blue/alice"])
    graph.add_text("Bob prefers aisle seats.", scopes=["acme/blue/bob"])
    session = ["acme/blue/alice/s1"]
    found = graph.query("expense limit travel seats", scopes=session, isolate=True, top_k=10)
    assert set(found) == {
        "Acme's expense limit is 500 euros.",
        "Team Blue books travel through Fernweh Reisen.",
        "Alice prefers window seats.",
    }
    team = graph.query_detailed("seats", scopes=["acme/blue"], isolate=True)
    # a team does not read its members' facts: "seats" finds nothing, and the fill is
    # the team's own and its ancestors'
    assert {h.content for h in team} == {
        "Acme's expense limit is 500 euros.",
        "Team Blue books travel through Fernweh Reisen.",
    }
    assert all(h.explanation.seeding.mode == "fill" for h in team)


def test_unscoped_facts_are_read_only_by_unscoped_queries():
    graph = DocumentGraph(conflict_resolver=False)
    graph.add_text("The office wifi password rotates monthly.")
    assert graph.query("wifi password") == ["The office wifi password rotates monthly."]
    assert graph.query("wifi password", scopes=["tenant"], isolate=True) == []


def test_as_of_answers_as_the_memory_stood_then():
    graph = DocumentGraph()
    first = graph.add_text("Acme is based in Munich.", scopes=["acme"])
    time.sleep(0.002)
    before_move = datetime.now(UTC)
    time.sleep(0.002)
    second = graph.add_text("Acme is based in Hamburg.", scopes=["acme"])
    assert second.superseded == (first.fact_id,)
    assert graph.query("Where is Acme based?") == ["Acme is based in Hamburg."]
    assert graph.query("Where is Acme based?", as_of=before_move) == ["Acme is based in Munich."]
    assert graph.query("Acme based", as_of=before_move.isoformat()) == [first.text]
    assert graph.query("Acme", as_of="2000-01-01") == []
    both = graph.query("Where is Acme based?", include_superseded=True)
    assert set(both) == {first.text, second.text}
    retired = graph.query_detailed("Munich", include_superseded=True)[0]
    assert retired["retired"] is True


def test_as_of_replays_scopes_added_later():
    graph = DocumentGraph(conflict_resolver=False)
    graph.add_text("The vault combination changed in March.", scopes=["ops"])
    time.sleep(0.002)
    moment = datetime.now(UTC)
    time.sleep(0.002)
    graph.add_text("The vault combination changed in March.", scopes=["audit"])
    assert graph.query("vault", scopes=["audit"]) != []
    assert graph.query("vault", scopes=["audit"], isolate=True, as_of=moment) == []


def test_recency_weight_prefers_newer_facts():
    graph = DocumentGraph(conflict_resolver=False, dedup_threshold=None)
    graph.add_text("Standup notes: the deploy script needs a retry flag for uploads.")
    time.sleep(0.002)
    graph.add_text("Standup notes: deploy script.")
    assert graph.query("deploy script retry flag uploads", top_k=1)[0].endswith("uploads.")
    newest = graph.query("deploy script retry flag uploads", top_k=1, recency_weight=1.0)
    assert newest == ["Standup notes: deploy script."]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"top_k": 0},
        {"top_k": "5"},
        {"top_k": True},
        {"hops": -1},
        {"hops": 99},
        {"recency_weight": 1.5},
        {"recency_weight": "high"},
        {"as_of": "yesterday"},
        {"as_of": 12345},
        {"as_of": "2025-13-45"},
        {"as_of": "9" * 100},
        {"scopes": []},
        {"isolate": "yes"},
        {"include_superseded": 1},
    ],
)
def test_bad_read_options_are_refused(memory, kwargs):
    with pytest.raises(InputError):
        memory.query("rainfall", **kwargs)


def test_hostile_queries(memory):
    with pytest.raises(InputTooLargeError):
        memory.query("rain " * 5000)
    with pytest.raises(InputError):
        memory.query(None)  # type: ignore[arg-type]
    assert memory.query("") == [] and memory.query("!!! ???") == []
    assert memory.query("\x00\x01 rainfall")[0] == CHAIN[0]
