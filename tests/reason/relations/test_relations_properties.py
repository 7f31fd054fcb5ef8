"""Property tests: verdicts agree with brute force, proofs are real, Katz sums add up."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.reason.relations import GroundedReasoner, KatzScorer, katz_bound, katz_resolvent

NODES = ["a", "b", "c", "d", "e", "f"]
RELATIONS = ["p", "q"]

facts_strategy = st.lists(
    st.tuples(st.sampled_from(NODES), st.sampled_from(RELATIONS), st.sampled_from(NODES)),
    max_size=14,
)


def reasoner_for(facts: list[tuple[str, str, str]], walk_len: int = 8) -> GroundedReasoner:
    gr = GroundedReasoner(walk_len=walk_len)
    gr.add_facts(facts)
    return gr


def walks(facts: set[tuple[str, str, str]], start: str, length: int) -> list[list[str]]:
    """Every walk of exactly ``length`` facts from start, as its relation-labelled nodes."""
    found = [[start]]
    for _ in range(length):
        found = [[*w, r, o] for w in found for (s, r, o) in facts if s == w[-1]]
    return found


def brute_distance(facts: list[tuple[str, str, str]], a: str, b: str, via: str | None) -> int:
    """The fewest facts from a to b (at least one), by trying every walk; -1 if none."""
    edges = {f for f in facts if via is None or f[1] == via}
    for length in range(1, len(NODES) + 1):
        if any(w[-1] == b for w in walks(edges, a, length)):
            return length
    return -1


def is_real_path(
    proof: tuple[str, ...], relations: list[str], facts: list[tuple[str, str, str]]
) -> bool:
    return all((s, r, o) in facts for s, r, o in zip(proof[:-1], relations, proof[1:], strict=True))


@settings(max_examples=150, deadline=None)
@given(
    facts_strategy,
    st.sampled_from(NODES),
    st.sampled_from(NODES),
    st.sampled_from([None, *RELATIONS]),
)
def test_verify_agrees_with_brute_force(
    facts: list[tuple[str, str, str]], a: str, b: str, via: str | None
) -> None:
    verdict = reasoner_for(facts).verify(a, b, via=via)
    distance = brute_distance(facts, a, b, via)
    assert verdict.grounded == (distance > 0)
    if verdict.grounded:
        assert verdict.proof is not None
        assert verdict.proof[0] == a and verdict.proof[-1] == b
        assert len(verdict.proof) == distance + 1  # a shortest path
        relations = [hop.relation for hop in verdict.hops]
        assert is_real_path(verdict.proof, relations, facts)
        if via is not None:
            assert set(relations) == {via}
        assert verdict.confidence > 0


@settings(max_examples=150, deadline=None)
@given(
    facts_strategy,
    st.sampled_from(NODES),
    st.sampled_from(NODES),
    st.lists(st.sampled_from(RELATIONS), min_size=1, max_size=4),
)
def test_verify_path_agrees_with_brute_force(
    facts: list[tuple[str, str, str]], a: str, b: str, via: list[str]
) -> None:
    verdict = reasoner_for(facts).verify_path(a, b, via)
    exists = any(w[-1] == b and w[1::2] == via for w in walks(set(facts), a, len(via)))
    assert verdict.grounded == exists
    if verdict.grounded:
        assert verdict.proof is not None and len(verdict.proof) == len(via) + 1
        assert [hop.relation for hop in verdict.hops] == via
        assert is_real_path(verdict.proof, via, facts)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=7), st.data())
def test_precision_is_one_when_every_fact_is_true(n: int, data: st.DataObject) -> None:
    """Facts drawn from a true parent tree: every grounded ancestor claim is true."""
    people = [f"p{i}" for i in range(n)]
    parent_of = {i: data.draw(st.integers(0, i - 1)) for i in range(1, n)}
    true_ancestor = set()
    for child in range(1, n):
        node = child
        while node in parent_of:
            node = parent_of[node]
            true_ancestor.add((people[child], people[node]))
    known = data.draw(st.sets(st.sampled_from(sorted(parent_of)))) if parent_of else set()
    gr = reasoner_for([(people[c], "parent", people[parent_of[c]]) for c in sorted(known)])
    for a, b in itertools.product(people, people):
        if gr.verify(a, b, via="parent").grounded:
            assert (a, b) in true_ancestor


def katz_by_powers(matrix: np.ndarray, alpha: float, walk_len: int) -> np.ndarray:
    total = np.zeros_like(matrix)
    power = np.eye(len(matrix))
    for k in range(1, walk_len + 1):
        power = power @ matrix
        total += alpha**k * power
    return total


weights_strategy = st.dictionaries(
    st.tuples(st.sampled_from(NODES), st.sampled_from(NODES)),
    st.integers(min_value=1, max_value=3).map(float),
    min_size=1,
    max_size=15,
)


@settings(max_examples=80, deadline=None)
@given(weights_strategy, st.floats(0.05, 0.95), st.integers(1, 10))
def test_katz_equals_the_matrix_power_sum(
    weights: dict[tuple[str, str], float], alpha: float, walk_len: int
) -> None:
    scorer = KatzScorer(weights, alpha=alpha, walk_len=walk_len)
    p = scorer.transition_matrix()
    assert np.allclose(p.sum(axis=1)[p.sum(axis=1) > 0], 1.0)
    expected = katz_by_powers(p, alpha, walk_len)
    nodes = scorer.nodes()
    for (i, a), (j, b) in itertools.product(enumerate(nodes), enumerate(nodes)):
        assert scorer.confidence(a, b) == pytest.approx(expected[i, j], abs=1e-12)
        normalized = scorer.normalized_confidence(a, b)
        assert 0.0 <= normalized <= 1.0
        assert normalized == pytest.approx(expected[i, j] / katz_bound(alpha, walk_len))


@settings(max_examples=40, deadline=None)
@given(weights_strategy, st.floats(0.05, 0.9))
def test_the_long_katz_sum_is_the_resolvent(
    weights: dict[tuple[str, str], float], alpha: float
) -> None:
    scorer = KatzScorer(weights, alpha=alpha, walk_len=400)
    resolvent = katz_resolvent(scorer.transition_matrix(), alpha)
    nodes = scorer.nodes()
    for (i, a), (j, b) in itertools.product(enumerate(nodes), enumerate(nodes)):
        assert scorer.confidence(a, b) == pytest.approx(resolvent[i, j], abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(weights_strategy, st.integers(1, 6), st.integers(1, 6))
def test_path_multiplicity_counts_walks_up_to_the_cap(
    weights: dict[tuple[str, str], float], max_len: int, cap: int
) -> None:
    scorer = KatzScorer(weights)
    nodes = scorer.nodes()
    index = {n: i for i, n in enumerate(nodes)}
    adjacency = np.zeros((len(nodes), len(nodes)), dtype=np.int64)
    for a, b in weights:
        adjacency[index[a], index[b]] = 1
    counts = sum(np.linalg.matrix_power(adjacency, k) for k in range(1, max_len + 1))
    for a, b in itertools.product(nodes, nodes):
        expected = min(cap, int(counts[index[a], index[b]]))
        assert scorer.path_multiplicity(a, b, max_len=max_len, cap=cap) == expected


def test_a_self_loop_shows_the_score_is_not_a_probability() -> None:
    scorer = KatzScorer({("a", "a"): 1.0})
    assert scorer.confidence("a", "a") == pytest.approx(katz_bound(0.6, 8))
    assert scorer.confidence("a", "a") > 1.4
    assert scorer.normalized_confidence("a", "a") == pytest.approx(1.0)


def test_the_resolvent_refuses_a_divergent_series() -> None:
    with pytest.raises(ValueError, match="diverges"):
        katz_resolvent(np.array([[2.0]]), 0.6)


def test_masked_degree_keeps_removed_weight_out() -> None:
    full = KatzScorer({("a", "b"): 1.0, ("a", "c"): 1.0})
    pruned = KatzScorer({("a", "b"): 1.0}, degree={"a": 2.0})
    renormalised = KatzScorer({("a", "b"): 1.0})
    assert pruned.confidence("a", "b") == pytest.approx(full.confidence("a", "b"))
    assert renormalised.confidence("a", "b") == pytest.approx(2 * full.confidence("a", "b"))
