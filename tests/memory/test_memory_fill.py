"""query(top_k=k) gives k facts when the memory has them: the pipeline's hits, then fills
ranked by shared spelling, each marked as such and never from outside the read."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.memory import fill as fill_module
from groundgraph.memory.fill import dice, fill_order, trigrams

FACTS = [
    "Alice moved to Berlin in March.",
    "The quarterly budget was approved by finance.",
    "Bob prefers green tea over coffee.",
    "The server migration finished on Friday.",
    "Carol manages the design team.",
    "Our office plants need watering twice a week.",
]


@pytest.fixture
def memory() -> DocumentGraph:
    graph = DocumentGraph(conflict_resolver=False)
    graph.add_texts(FACTS)
    return graph


def test_five_asked_five_given_with_the_match_first(memory: DocumentGraph) -> None:
    hits = memory.query_detailed("where does alice live now?", top_k=5)
    assert len(hits) == 5 and len({h.content for h in hits}) == 5
    assert hits[0].content == FACTS[0] and hits[0].explanation.seeding.mode == "keyword"
    for hit in hits[1:]:
        assert hit.explanation.seeding.mode == "fill" and hit.score == 0
        assert hit.explanation.terms == () and not hit.explanation.seed
    assert hits[1].to_dict()["explanation"]["seeding"]["fillScore"] >= 0
    assert memory.query("where does alice live now?", top_k=5) == [h.content for h in hits]


def test_a_question_with_no_word_in_common_gets_the_closest_spellings(
    memory: DocumentGraph,
) -> None:
    hits = memory.query_detailed("budgeting approvals", top_k=2)
    # "budget" and "approved" match by stem; the fill ranks by spelling only
    assert hits[0].content == FACTS[1]
    none_shared = memory.query_detailed("xylophone", top_k=6)
    assert {h.content for h in none_shared} == set(FACTS)
    scores = [h.explanation.seeding.fill_score for h in none_shared]
    assert scores == sorted(scores, reverse=True)


def test_fills_stay_inside_the_read() -> None:
    graph = DocumentGraph(conflict_resolver=False)
    graph.add_text("Alice moved to Berlin in March.", scopes=["alice"])
    graph.add_text("Bob prefers green tea over coffee.", scopes=["bob"])
    graph.add_text("Bob bought a bicycle.", scopes=["bob"])
    graph.supersede("Bob bought a bicycle.", "Bob sold his bicycle.")
    hits = graph.query("what about bikes", scopes=["alice"], isolate=True, top_k=5)
    assert hits == ["Alice moved to Berlin in March."]
    bob = graph.query("what about bikes", scopes=["bob"], isolate=True, top_k=5)
    assert set(bob) == {"Bob prefers green tea over coffee.", "Bob sold his bicycle."}
    with_old = graph.query(
        "what about bikes", scopes=["bob"], isolate=True, top_k=5, include_superseded=True
    )
    assert "Bob bought a bicycle." in with_old


@pytest.mark.parametrize("query", ["", "!!! ???", "the of and"])
def test_no_content_word_no_fill(memory: DocumentGraph, query: str) -> None:
    assert memory.query(query) == []


def test_discover_and_answer_do_not_fill(memory: DocumentGraph) -> None:
    assert len(memory.discover("where does alice live now?", max_results=5)) == 1
    reply = memory.answer("where does alice live now?")
    assert [f["content"] for f in reply["facts"]] == [FACTS[0]]


def test_only_the_newest_candidates_are_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fill_module, "FILL_SCAN", 2)
    candidates = [
        ("f1", "tea and coffee", "2026-01-01T00:00:00+00:00"),
        ("f2", "music", "2026-01-03T00:00:00+00:00"),
        ("f3", "budget", "2026-01-02T00:00:00+00:00"),
    ]
    # f1 shares the most spelling but is the oldest, outside the two newest
    assert [f for f, _ in fill_order("coffee", candidates, 3, frozenset())] == ["f2", "f3"]


def test_trigrams_and_dice() -> None:
    assert trigrams("Tea!", frozenset()) == {" te", "tea", "ea "}
    assert trigrams("the 2024 a", frozenset({"the"})) == frozenset()
    manager, management = trigrams("manager", frozenset()), trigrams("management", frozenset())
    assert dice(manager, management) > 0.5 > dice(manager, trigrams("tea", frozenset())) == 0
    assert dice(frozenset(), manager) == 0.0


_WORDS = ["rain", "flood", "road", "kiln", "tea", "Ouse", "Mara", "Friday", "river", "truck"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.lists(st.sampled_from(_WORDS), min_size=2, max_size=5).map(" ".join),
        min_size=1,
        max_size=8,
    ),
    st.lists(st.sampled_from([*_WORDS, "zebra", "moon"]), min_size=1, max_size=3).map(" ".join),
    st.integers(1, 10),
)
def test_query_gives_min_of_k_and_the_memory(facts: list[str], query: str, top_k: int) -> None:
    graph = DocumentGraph(dedup_threshold=None, conflict_resolver=False)
    stored = {f.text for f in graph.add_texts(facts)}
    hits = graph.query_detailed(query, top_k=top_k)
    assert len(hits) == min(top_k, len(stored))
    assert len({h.fact_id for h in hits}) == len(hits)
    modes = [h.explanation.seeding.mode for h in hits]
    # the pipeline's hits first, then the fills, which score 0
    assert modes == sorted(modes, key=lambda mode: mode == "fill")
    assert all(h.score == 0 for h in hits if h.explanation.seeding.mode == "fill")
