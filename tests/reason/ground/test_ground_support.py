"""support(): the covered share of a claim's idf mass, checked against sums done here by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph import DocumentGraph, InputError, InputTooLargeError, NotFoundError
from groundgraph.reason.ground import support

TITLES = {"n1": "first", "n2": "second", "n3": "third", "n4": "fourth"}
TEXTS = {
    "n1": "alpha beta gamma",
    "n2": "gamma delta",
    "n3": "delta epsilon river",
    "n4": "stone stone stone",
}


@pytest.fixture(scope="module")
def tiny() -> DocumentGraph:
    graph = DocumentGraph(entities=None, relations=None)
    for doc_id, text in TEXTS.items():
        graph.add_document(text, TITLES[doc_id], doc_id, format="text")
    return graph


def bm25_idf(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def test_the_graph_idf_is_the_bm25_idf(tiny):
    # Four one-node documents: a word in one of them has df 1, one in two has df 2.
    assert tiny.idf("alpha") == pytest.approx(bm25_idf(4, 1))
    assert tiny.idf("gamma") == pytest.approx(bm25_idf(4, 2))
    assert tiny.idf("absent") == pytest.approx(bm25_idf(4, 0))
    assert tiny.terms("The rivers") == ["river"]


def test_share_is_the_covered_idf_mass(tiny):
    w = {t: tiny.idf(t) for t in ("alpha", "gamma", "delta", "river")}
    mass = sum(w.values())
    one = tiny.support("alpha gamma delta river", ["n1"], max_nodes=1)
    assert one.share == pytest.approx((w["alpha"] + w["gamma"]) / mass)
    assert one.mass == pytest.approx(mass)
    assert one.node_ids == ("n1",)
    assert one.uncovered == ("delta", "river")
    two = tiny.support("alpha gamma delta river", ["n1", "n2", "n3"])
    assert two.share == pytest.approx(1.0) and two.node_ids == ("n1", "n3")


def test_greedy_takes_the_largest_gain_first_and_ties_go_to_the_earlier_id(tiny):
    # n1 covers alpha+gamma, n3 covers delta+river: equal gains (df 1 + df 2 each).
    assert tiny.support("alpha gamma delta river", ["n1", "n3"], max_nodes=1).node_ids == ("n1",)
    assert tiny.support("alpha gamma delta river", ["n3", "n1"], max_nodes=1).node_ids == ("n3",)
    # n2 (gamma+delta) gains less than either, so it is never the first pick.
    picked = tiny.support("alpha gamma delta river", ["n2", "n1", "n3"], max_nodes=2)
    assert picked.node_ids == ("n1", "n3")


def test_max_nodes_caps_the_sections_and_zero_gain_stops_early(tiny):
    claim = "alpha gamma delta river epsilon"
    for cap in (1, 2, 3):
        assert len(tiny.support(claim, ["n1", "n2", "n3", "n4"], max_nodes=cap).node_ids) <= cap
    # n4 holds no claim word: it is never chosen, even with room for it.
    assert "n4" not in tiny.support(claim, ["n4", "n1", "n3"], max_nodes=4).node_ids
    assert tiny.support("alpha", ["n4"]).node_ids == ()
    assert tiny.support("alpha", ["n4"]).share == 0.0


def test_zero_mass_is_full_support(tiny):
    for claim in ("", "the and of", "a b c", "!!! ..."):
        found = tiny.support(claim, ["n1"])
        assert (found.share, found.node_ids, found.mass) == (1.0, (), 0.0)


def test_title_words_count_as_the_section_text(tiny):
    assert tiny.support("third river", ["n3"]).share == pytest.approx(1.0)


def test_unpacks_like_the_seed_tuple(tiny):
    share, ids, mass = tiny.support("alpha beta", ["n1"])
    assert share == 1.0 and ids == ["n1"] and mass == pytest.approx(2 * tiny.idf("alpha"))
    assert tiny.support("alpha", ["n1"]).to_dict()["nodeIds"] == ["n1"]


def test_greedy_with_a_cap_is_not_monotone_in_the_sections_offered():
    # A = {p1 p2 p3}, B = {p4 p5 p6}, X = {p1 p2 p4 p5}; every word has df 2 (filler
    # documents make up the rest), so every weight is the same. Greedy takes X first
    # (4 words), then A or B adds one: 5 of 6. Without X it takes A then B: 6 of 6.
    graph = DocumentGraph(entities=None, relations=None)
    graph.add_document("red green blue", "ta", "a", format="text")
    graph.add_document("black white brown", "tb", "b", format="text")
    graph.add_document("red green black white", "tx", "x", format="text")
    graph.add_document("blue brown", "filler", "f", format="text")
    claim = "red green blue black white brown"
    assert len({graph.idf(t) for t in graph.terms(claim)}) == 1
    assert graph.support(claim, ["a", "b"]).share == pytest.approx(1.0)
    assert graph.support(claim, ["a", "b", "x"]).share == pytest.approx(5 / 6)
    assert graph.support(claim, ["a", "b", "x"], max_nodes=3).share == pytest.approx(1.0)


def test_bad_arguments_say_what_to_fix(tiny):
    with pytest.raises(NotFoundError, match="unknown node ids 'nope'"):
        tiny.support("alpha", ["n1", "nope"])
    with pytest.raises(InputError, match="list of node id strings"):
        tiny.support("alpha", "n1")
    with pytest.raises(InputError, match="must be strings"):
        tiny.support("alpha", [1])  # type: ignore[list-item]
    with pytest.raises(InputError, match="max_nodes"):
        tiny.support("alpha", ["n1"], max_nodes=0)
    with pytest.raises(InputError, match="max_nodes"):
        tiny.support("alpha", ["n1"], max_nodes=True)
    with pytest.raises(InputError, match="claim must be text"):
        tiny.support(b"alpha", ["n1"])  # type: ignore[arg-type]
    with pytest.raises(InputTooLargeError):
        tiny.support("alpha " * 20_000, ["n1"])
    with pytest.raises(InputError, match="at most 1,000 node ids"):
        support(tiny, "alpha", [f"n{i}" for i in range(1001)])


def test_the_core_function_skips_ids_the_corpus_lacks(tiny):
    assert support(tiny, "alpha", ["nope", "n1"]).node_ids == ("n1",)


WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "river", "stone", "absent", "the"]
IDS = list(TEXTS)


@given(
    st.lists(st.sampled_from(WORDS), max_size=8),
    st.lists(st.sampled_from(IDS), max_size=4),
    st.integers(1, 5),
)
def test_share_is_a_fraction(tiny, words, ids, cap):
    found = tiny.support(" ".join(words), ids, max_nodes=cap)
    assert 0.0 <= found.share <= 1.0
    assert len(found.node_ids) <= cap and set(found.node_ids) <= set(ids)
    assert len(set(found.node_ids)) == len(found.node_ids)


@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=8),
    st.lists(st.sampled_from(IDS), max_size=3),
    st.sampled_from(IDS),
)
def test_more_sections_never_lower_the_share_when_all_fit(tiny, words, ids, extra):
    claim = " ".join(words)
    before = tiny.support(claim, ids, max_nodes=4).share
    assert tiny.support(claim, [*ids, extra], max_nodes=4).share >= before - 1e-12
    one = tiny.support(claim, ids, max_nodes=1).share
    assert tiny.support(claim, [*ids, extra], max_nodes=1).share >= one - 1e-12


@given(st.sampled_from(IDS), st.data())
def test_words_copied_from_a_section_are_fully_supported_by_it(tiny, node_id, data):
    words = TEXTS[node_id].split()
    picked = data.draw(st.lists(st.sampled_from(words), min_size=1, max_size=6))
    assert tiny.support(" ".join(picked), [node_id]).share == pytest.approx(1.0)
