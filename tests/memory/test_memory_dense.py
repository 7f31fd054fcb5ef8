"""Memory recall with dense seeds: the same modes as document search, over the facts a
read may see."""

from __future__ import annotations

import pytest

from fake_embedder import BagEmbedder
from groundgraph import DocumentGraph
from groundgraph.errors import InputError


@pytest.fixture
def memory() -> DocumentGraph:
    graph = DocumentGraph(embed=BagEmbedder(), conflict_resolver=False)
    graph.add_text("The automobile had a breakdown on the bridge.", scopes=["fleet"])
    graph.add_text("The bridge was closed for repairs on Monday.", scopes=["fleet"])
    graph.add_text("Vehicle fault reports go to the garage.", scopes=["private"])
    graph.add_text("Lunch is served at noon in the canteen.", scopes=["fleet"])
    return graph


def test_a_paraphrase_with_no_shared_word_is_recalled_by_meaning(memory):
    # no word in common: keyword recall has only fills to give
    keyword = memory.query_detailed("motor failure")
    assert keyword and all(h.explanation.seeding.mode == "fill" for h in keyword)
    found = memory.query_detailed("motor failure", search_mode="embedding", scopes=["fleet"])
    assert found[0].content.startswith("The automobile had a breakdown")
    seeding = found[0].explanation.seeding
    assert seeding.mode == "embedding" and seeding.cosine_rank == 1
    assert seeding.lexical_rank is None
    assert found[0].to_dict()["explanation"]["seeding"]["cosineRank"] == 1


def test_dense_seeds_respect_scopes(memory):
    texts = memory.query("motor failure", search_mode="embedding", scopes=["fleet"], isolate=True)
    assert texts and not any("garage" in t for t in texts)
    everything = memory.query("motor failure", search_mode="embedding")
    assert any("garage" in t for t in everything)


def test_hybrid_recall_fuses_both_rankings(memory):
    found = memory.query_detailed("automobile bridge", search_mode="hybrid", rrf_k=10)
    top = found[0].explanation.seeding
    assert top.lexical_rank == 1 and top.cosine_rank == 1
    assert top.fused == pytest.approx(2 / 11)
    keyword = memory.query_detailed("automobile bridge")
    assert keyword[0].explanation.seeding.mode == "keyword"


def test_a_retired_fact_is_not_a_dense_seed_unless_asked_for():
    graph = DocumentGraph(embed=BagEmbedder(), conflict_resolver=False)
    old = graph.add_text("The automobile is parked in bay three.")
    graph.supersede(old.fact_id, "The bicycle is parked in bay three.")
    assert all("automobile" not in t for t in graph.query("vehicle", search_mode="embedding"))
    again = graph.query("vehicle", search_mode="embedding", include_superseded=True)
    assert any("automobile" in t for t in again)


def test_discover_and_answer_take_the_modes(memory):
    assert memory.discover("motor failure", search_mode="embedding")
    assert memory.answer("motor failure", search_mode="hybrid").status == "answered"
    with pytest.raises(InputError, match="search_mode"):
        memory.query("bridge", search_mode="vector")


def test_dense_recall_without_an_embedder_says_how_to_get_one():
    graph = DocumentGraph()
    graph.add_text("The bridge was closed.")
    with pytest.raises(InputError, match="embed"):
        graph.query("bridge", search_mode="hybrid")
