"""Edge pruning from held-out labels, and masked Katz scores."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.errors import InputError
from groundgraph.reason.relations import (
    identify_and_prune_edges,
    identify_suspect_edges,
    masked_infer,
    prune_edges,
)
from groundgraph.reason.relations.paths import shortest_path

EDGES = [("a", "b"), ("b", "c"), ("c", "d"), ("b", "x"), ("x", "y")]


def test_suspects_are_on_false_proofs_only() -> None:
    labels = [
        ("a", "c", True),
        ("a", "d", True),
        ("a", "x", False),
        ("b", "y", False),
        ("a", "y", False),
    ]
    assert identify_suspect_edges(EDGES, labels) == [("b", "x"), ("x", "y")]
    # ("b", "x") carries three false proofs, ("x", "y") two
    assert identify_suspect_edges(EDGES, labels, min_evidence=3) == [("b", "x")]
    # an edge on any true proof is never suspect, however much false evidence it has
    assert identify_suspect_edges(EDGES, [*labels, ("a", "y", True)]) == []


def test_walk_len_bounds_the_proofs() -> None:
    assert identify_suspect_edges(EDGES, [("a", "y", False)], walk_len=2) == []
    assert identify_suspect_edges(EDGES, [("a", "y", False)], walk_len=3) == [
        ("a", "b"),
        ("b", "x"),
        ("x", "y"),
    ]


def test_prune_edges_returns_a_new_list() -> None:
    edges = list(EDGES)
    assert prune_edges(edges, [("b", "x")]) == [("a", "b"), ("b", "c"), ("c", "d"), ("x", "y")]
    assert edges == EDGES


def test_masked_infer_divides_by_the_degree_before_pruning() -> None:
    full = masked_infer(EDGES)
    pruned = masked_infer(EDGES, blocked=[("b", "x")])
    assert pruned.confidence("a", "c") == pytest.approx(full.confidence("a", "c"))
    assert pruned.confidence("a", "x") == 0.0


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdef")), max_size=14),
    st.data(),
)
def test_pruning_only_removes_confidence(edges: list[tuple[str, str]], data: st.DataObject) -> None:
    blocked = data.draw(st.lists(st.sampled_from(edges))) if edges else []
    full, pruned = masked_infer(edges), masked_infer(edges, blocked)
    for a, b in itertools.product("abcdef", repeat=2):
        assert pruned.confidence(a, b) <= full.confidence(a, b) + 1e-12


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdef")), max_size=12),
    st.lists(
        st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdef"), st.booleans()),
        max_size=12,
    ),
    st.integers(1, 3),
)
def test_suspects_never_touch_a_true_proof(
    edges: list[tuple[str, str]], labels: list[tuple[str, str, bool]], min_evidence: int
) -> None:
    suspects = identify_suspect_edges(edges, labels, min_evidence=min_evidence)
    adjacency: dict[str, list[str]] = {}
    for a, b in edges:
        adjacency.setdefault(a, []).append(b)
    for a, b, label in labels:
        path = shortest_path(a, b, lambda n: list(dict.fromkeys(adjacency.get(n, ()))), 8)
        if label and path:
            assert not set(itertools.pairwise(path)) & set(suspects)
    assert set(suspects) <= set(edges)


def test_identify_and_prune_defaults_and_split() -> None:
    labels = [("a", "c", True)] * 10 + [("a", "x", False)] * 10
    result = identify_and_prune_edges(EDGES, labels)
    assert len(result.reserved) == 3  # 20 − round(0.85 × 20)
    assert ("b", "x") in result.blocked
    assert result.edges == prune_edges(EDGES, result.blocked)
    again = identify_and_prune_edges(EDGES, labels)
    assert again == result  # the split is seeded
    assert identify_and_prune_edges(EDGES, labels, identify_frac=1.0).reserved == []


def test_pruning_lowers_false_positives_on_a_noisy_graph() -> None:
    rng = np.random.default_rng(2)
    n = 60
    parent = {i: int(rng.integers(0, i)) for i in range(1, n)}
    truth = set()
    for child in range(1, n):
        node = child
        while node in parent:
            node = parent[node]
            truth.add((f"n{child}", f"n{node}"))
    edges = [(f"n{c}", f"n{p}") for c, p in parent.items()]
    edges += [(f"n{a}", f"n{b}") for a, b in rng.integers(0, n, size=(15, 2)) if a != b]
    adjacency: dict[str, list[str]] = {}
    for a, b in edges:
        adjacency.setdefault(a, []).append(b)
    grounded = [
        (f"n{a}", f"n{b}")
        for a in range(n)
        for b in range(n)
        if shortest_path(f"n{a}", f"n{b}", lambda x: adjacency.get(x, ()), 8)
    ]
    labels = [(a, b, (a, b) in truth) for a, b in grounded]
    result = identify_and_prune_edges(edges, labels, seed=1)
    kept: dict[str, list[str]] = {}
    for a, b in result.edges:
        kept.setdefault(a, []).append(b)

    def still_grounded(pairs: list[tuple[str, str]]) -> float:
        return float(
            np.mean(
                [shortest_path(a, b, lambda x: kept.get(x, ()), 8) is not None for a, b in pairs]
            )
        )

    # every labelled pair was grounded before pruning; on the reserved labels, measure again
    assert still_grounded([(a, b) for a, b, label in result.reserved if not label]) < 0.3
    assert still_grounded([(a, b) for a, b, label in result.reserved if label]) == 1.0
    true_edges = {(f"n{c}", f"n{p}") for c, p in parent.items()}
    assert result.blocked and not set(result.blocked) & true_edges


@pytest.mark.parametrize("bad", [[("a",)], ["ab"], [("a", 1)]])
def test_edges_are_checked(bad: list[object]) -> None:
    with pytest.raises(InputError, match="edge #0"):
        prune_edges(bad, [])  # type: ignore[arg-type]


def test_identify_frac_is_checked() -> None:
    with pytest.raises(InputError, match="identify_frac"):
        identify_and_prune_edges(EDGES, [], identify_frac=0.0)
