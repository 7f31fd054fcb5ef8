"""PageRank by local push: a lower bound of the exact PageRank, within its residual."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.model import Edge
from groundgraph.walk.matrix import GraphMatrix
from groundgraph.walk.ppr import PPRParams, personalized_pagerank
from groundgraph.walk.push import PushParams, local_pagerank
from walk_graphs import seeded_graphs


def graphs():
    return seeded_graphs(max_nodes=12)


def exact(matrix, seeds):
    return personalized_pagerank(matrix, seeds, PPRParams(tol=1e-14, max_iter=10_000)).scores


@settings(max_examples=150, deadline=None)
@given(graphs(), st.sampled_from([1e-2, 1e-3, 1e-5, 1e-8]))
def test_push_is_a_lower_bound_within_its_residual(graph, eps):
    edges, seeds = graph
    matrix = GraphMatrix.from_edges(edges)
    want = exact(matrix, seeds)
    got = local_pagerank(matrix, seeds, PushParams(eps=eps))
    missing = want - got.scores
    assert (missing >= -1e-12).all()  # never more than the exact PageRank
    assert missing.sum() <= got.residual + 1e-9  # and short by at most what is left
    # It stopped because no node held eps per step any more, not at its round cap.
    assert got.rounds < PushParams().max_rounds


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_a_tiny_eps_gives_the_exact_pagerank(graph):
    edges, seeds = graph
    matrix = GraphMatrix.from_edges(edges)
    got = local_pagerank(matrix, seeds, PushParams(eps=1e-13, max_rounds=100_000))
    assert got.scores == pytest.approx(exact(matrix, seeds), abs=1e-9)


def test_push_touches_only_what_the_seeds_reach():
    # Two chains that share no edge: pushing from one never reads the other.
    edges = [Edge(f"a{i}", f"a{i + 1}", "next", 0.4) for i in range(50)]
    edges += [Edge(f"b{i}", f"b{i + 1}", "next", 0.4) for i in range(50)]
    matrix = GraphMatrix.from_edges(edges)
    got = local_pagerank(matrix, {"a0": 1.0}, PushParams(eps=1e-3))
    b_rows = [matrix.position[f"b{i}"] for i in range(51)]
    assert (got.scores[b_rows] == 0).all()
    assert 0 < got.pushed < 51  # a few nodes near the seed, not the whole chain


def test_no_seed_in_the_graph_gives_nothing():
    matrix = GraphMatrix.from_edges([Edge("a", "b", "next", 0.4)])
    got = local_pagerank(matrix, {"zzz": 1.0})
    assert not got.scores.any() and got.rounds == 0
    assert np.isfinite(got.scores).all()
