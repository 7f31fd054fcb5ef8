"""Personalized PageRank and the search modes built on it, cross-checked with networkx."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings

from groundgraph import DocumentGraph, InputError
from groundgraph.model import Edge
from groundgraph.walk.matrix import GraphMatrix
from groundgraph.walk.ppr import PPRParams, explain_paths, personalized_pagerank
from walk_graphs import seeded_graphs


def graphs():
    return seeded_graphs(max_nodes=10)


@settings(max_examples=80, deadline=None)
@given(graphs())
def test_pagerank_equals_networkx(graph):
    edges, seeds = graph
    matrix = GraphMatrix.from_edges(edges)
    ours = personalized_pagerank(matrix, seeds, PPRParams(tol=1e-12, max_iter=1000))
    reference = nx.DiGraph()
    reference.add_nodes_from(matrix.node_ids)
    for i, node in enumerate(matrix.node_ids):
        cols, vals, _ = matrix.steps(i)
        for c, v in zip(cols.tolist(), vals.tolist(), strict=True):
            reference.add_edge(node, matrix.node_ids[c], weight=v)
    total = sum(seeds.values())
    theirs = nx.pagerank(
        reference,
        alpha=0.85,
        personalization={k: v / total for k, v in seeds.items()},
        tol=1e-14,
        max_iter=10_000,
    )
    assert ours.converged
    for node, pos in matrix.position.items():
        assert ours.scores[pos] == pytest.approx(theirs[node], abs=1e-8)
    assert ours.scores.sum() == pytest.approx(1.0)


def test_parallel_edges_keep_the_strongest_step():
    edges = [Edge("a", "b", "next", 0.4), Edge("b", "a", "semantic", 0.9)]
    matrix = GraphMatrix.from_edges(edges)
    _, vals, kinds = matrix.steps(matrix.position["a"])
    assert vals.tolist() == [0.9] and kinds == ["semantic"]


def test_child_to_parent_steps_count_half():
    matrix = GraphMatrix.from_edges([Edge("root", "kid", "parent-child", 0.8)])
    assert matrix.steps(matrix.position["kid"])[1].tolist() == [pytest.approx(0.4)]


def test_time_cap_stops_and_says_so():
    edges = [Edge(f"n{i}", f"n{i + 1}", "next", 0.4) for i in range(2000)]
    matrix = GraphMatrix.from_edges(edges)
    result = personalized_pagerank(
        matrix, {"n0": 1.0}, PPRParams(tol=0.0, max_iter=10**6, time_cap=0.05)
    )
    assert result.timed_out and not result.converged
    assert np.isfinite(result.scores).all()


def test_explained_paths_follow_edges():
    edges = [
        Edge("a", "b", "next", 0.4),
        Edge("b", "c", "reference", 0.75),
        Edge("c", "d", "semantic", 0.5),
    ]
    matrix = GraphMatrix.from_edges(edges)
    found = explain_paths(matrix, {"a": 1.0}, ["d", "c"])
    assert found["d"].path == ("a", "b", "c", "d")
    assert found["d"].edge_types == ("next", "reference", "semantic")


def test_search_modes_fill_the_same_explanations(guide):
    graph = DocumentGraph()
    graph.add_document(guide, "User Guide")
    for walker in ("bounded", "ppr"):
        for fusion in ("noisy-or", "linear"):
            hits = graph.search("config fails", walker=walker, fusion=fusion)
            assert hits[0].title == "Troubleshooting" and hits[0].via is None
            config = next(h for h in hits if h.title == "Configuration")
            assert (
                config.path == ("user-guide#4", "user-guide#2") and config.edge_type == "reference"
            )
            if fusion == "linear":
                graph_part = config.graph_score
                assert config.score == pytest.approx(0.7 * config.lexical_score + 0.3 * graph_part)


def test_linear_fusion_with_no_graph_weight_is_bm25_order(guide):
    graph = DocumentGraph()
    graph.add_document(guide, "User Guide")
    hits = graph.search("config fails", fusion="linear", graph_weight=0.0)
    assert [h.title for h in hits if h.score > 0] == ["Troubleshooting", "Configuration"]


def test_bad_mode_names_are_clear(guide):
    graph = DocumentGraph()
    graph.add_document(guide, "User Guide")
    with pytest.raises(InputError, match="walker"):
        graph.search("config", walker="random")
    with pytest.raises(InputError, match="fusion"):
        graph.search("config", fusion="max")
    with pytest.raises(InputError, match="graph_weight"):
        graph.search("config", graph_weight=2)


def test_matrix_follows_writes(guide, kitchen):
    graph = DocumentGraph()
    graph.add_document(guide, "User Guide")
    first = graph.graph_matrix()
    graph.add_document(kitchen, "Kitchen Notes")
    second = graph.graph_matrix()
    assert len(second) > len(first) and "kitchen-notes#1" in second.position
