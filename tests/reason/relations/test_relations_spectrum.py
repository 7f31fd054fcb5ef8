"""The relation spectrum, checked on random graphs against networkx and against the
Katz scorer the verifier uses (Grounded Reasoning's theorems F, G and H)."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.errors import InputError
from groundgraph.reason.relations import (
    GroundedReasoner,
    KatzScorer,
    cycle_members,
    diffusion_sum,
    is_acyclic,
    is_nilpotent,
    katz_resolvent,
    row_stochastic,
    spectral_radius,
)
from groundgraph.reason.relations import verifier as verifier_module


@st.composite
def adjacency(draw: st.DrawFn, max_nodes: int = 9, acyclic: bool = False) -> np.ndarray:
    n = draw(st.integers(1, max_nodes))
    cells = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    matrix = np.zeros((n, n))
    for i, j in draw(st.lists(cells, max_size=3 * n)):
        if acyclic:  # edges only from a larger index to a smaller one: a DAG
            if i == j:
                continue
            i, j = max(i, j), min(i, j)
        matrix[i, j] = 1.0
    return matrix


def digraph(matrix: np.ndarray) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(range(matrix.shape[0]))
    graph.add_edges_from(zip(*np.nonzero(matrix), strict=True))
    return graph


@settings(max_examples=200, deadline=None)
@given(adjacency())
def test_acyclic_nilpotent_and_radius_zero_are_one_property(matrix: np.ndarray) -> None:
    acyclic = nx.is_directed_acyclic_graph(digraph(matrix))
    assert is_acyclic(matrix) == acyclic
    assert is_nilpotent(matrix) == acyclic
    power = np.linalg.matrix_power(matrix, matrix.shape[0])
    assert is_nilpotent(matrix) == (not power.any())
    radius = spectral_radius(matrix)
    if acyclic:
        assert radius == pytest.approx(0.0, abs=1e-6)
    else:  # a cycle of length l makes tr(A^l) > 0, so some eigenvalue has |λ| ≥ 1
        assert radius >= 1.0 - 1e-9


@settings(max_examples=200, deadline=None)
@given(adjacency())
def test_cycle_members_are_the_nodes_on_a_closed_walk(matrix: np.ndarray) -> None:
    on_cycle = {node for cycle in nx.simple_cycles(digraph(matrix)) for node in cycle}
    assert cycle_members(matrix) == on_cycle
    n = matrix.shape[0]
    closed = sum(np.linalg.matrix_power(matrix, k) for k in range(1, n + 1))
    assert cycle_members(matrix) == {i for i in range(n) if closed[i, i] > 0}


@settings(max_examples=100, deadline=None)
@given(adjacency(acyclic=True), st.floats(0.05, 1.0))
def test_on_a_hierarchy_the_finite_sum_is_the_resolvent_exactly(
    matrix: np.ndarray, alpha: float
) -> None:
    n = matrix.shape[0]
    assert np.abs(diffusion_sum(matrix, alpha, n) - katz_resolvent(matrix, alpha)).max() < 1e-9
    # and further terms add nothing: A^n = 0
    assert np.array_equal(diffusion_sum(matrix, alpha, n), diffusion_sum(matrix, alpha, n + 3))


@settings(max_examples=60, deadline=None)
@given(adjacency(), st.floats(0.1, 0.7))
def test_the_scorer_is_the_resolvent_of_the_row_stochastic_matrix(
    matrix: np.ndarray, alpha: float
) -> None:
    rows, cols = np.nonzero(matrix)
    weights = {(f"n{i}", f"n{j}"): 1.0 for i, j in zip(rows, cols, strict=True)}
    if not weights:
        return
    scorer = KatzScorer(weights, alpha=alpha, walk_len=400)
    order = [int(name[1:]) for name in scorer.nodes()]
    resolvent = katz_resolvent(row_stochastic(matrix[np.ix_(order, order)]), alpha)
    for i, a in enumerate(scorer.nodes()):
        for j, b in enumerate(scorer.nodes()):
            assert scorer.confidence(a, b) == pytest.approx(resolvent[i, j], abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(adjacency(), st.integers(1, 6))
def test_confidence_is_positive_exactly_when_a_walk_of_at_most_k_steps_exists(
    matrix: np.ndarray, walk_len: int
) -> None:
    rows, cols = np.nonzero(matrix)
    weights = {(f"n{i}", f"n{j}"): 1.0 for i, j in zip(rows, cols, strict=True)}
    if not weights:
        return
    scorer = KatzScorer(weights, alpha=0.6, walk_len=walk_len)
    reach = sum(np.linalg.matrix_power(matrix, k) for k in range(1, walk_len + 1))
    for a in scorer.nodes():
        for b in scorer.nodes():
            assert (scorer.confidence(a, b) > 0) == (reach[int(a[1:]), int(b[1:])] > 0)


def test_confidence_falls_with_depth_along_a_chain() -> None:
    chain = {(f"c{i}", f"c{i + 1}"): 1.0 for i in range(8)}
    scorer = KatzScorer(chain, alpha=0.6, walk_len=8)
    scores = [scorer.confidence("c0", f"c{k}") for k in range(1, 9)]
    assert scores == pytest.approx([0.6**k for k in range(1, 9)])
    assert all(a > b for a, b in itertools.pairwise(scores))


def test_the_reasoner_reports_a_hierarchy_and_a_cycle() -> None:
    gr = GroundedReasoner()
    gr.add_facts(
        [
            ("Ann", "parent", "Bob"),
            ("Bob", "parent", "Cy"),
            ("Ann", "parent", "Di"),
            ("x", "trusts", "y"),
            ("y", "trusts", "z"),
            ("z", "trusts", "x"),
            ("z", "trusts", "w"),
        ]
    )
    parent = gr.spectrum("parent")
    assert parent.nilpotent and parent.spectral_radius == pytest.approx(0.0, abs=1e-9)
    assert parent.cycle_members == ()
    assert set(parent.nodes) == {"Ann", "Bob", "Cy", "Di"}
    trusts = gr.spectrum("trusts")
    assert not trusts.nilpotent and trusts.spectral_radius == pytest.approx(1.0)
    assert set(trusts.cycle_members) == {"x", "y", "z"}
    assert trusts.as_dict()["nodes"] == 4
    whole = gr.spectrum()
    assert set(whole.cycle_members) == {"x", "y", "z"} and len(whole.nodes) == 8
    assert gr.spectrum("unknown").nodes == ()


def test_a_spectrum_too_large_to_compute_densely_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(verifier_module, "MAX_SPECTRUM_NODES", 5)
    gr = GroundedReasoner()
    gr.add_facts([(f"e{i}", "next", f"e{i + 1}") for i in range(6)])
    with pytest.raises(InputError, match="at most 5 entities"):
        gr.spectrum("next")


@pytest.mark.parametrize(
    "bad", [np.zeros((2, 3)), np.zeros(3), np.array([[np.nan]]), np.array([[np.inf, 0], [0, 0]])]
)
def test_matrices_that_are_not_square_or_finite_are_refused(bad: np.ndarray) -> None:
    for check in (spectral_radius, is_nilpotent, cycle_members):
        with pytest.raises(InputError):
            check(bad)


def test_an_empty_relation_matrix() -> None:
    empty = np.zeros((0, 0))
    assert spectral_radius(empty) == 0.0
    assert is_nilpotent(empty) and is_acyclic(empty) and cycle_members(empty) == set()
