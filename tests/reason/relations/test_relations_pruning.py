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


# ----------------------------------------------------------------------------- hub-aware rule
HUB_EDGES = [("a", "h"), ("b", "h"), ("c", "h"), ("h", "z"), ("d", "e")]
HUB_LABELS = [
    ("a", "h", False),
    ("a", "z", False),  # a → h → z: ("a", "h") has two false proofs, ("h", "z") one
    ("b", "h", False),  # ("b", "h"): one false proof, into the same node h
    ("c", "h", False),
    ("c", "z", True),  # ("c", "h") and ("h", "z") are on a true proof
    ("d", "e", False),  # one false proof, far from h
]


def test_propagation_lowers_the_bar_only_into_a_suspect_target() -> None:
    plain = identify_suspect_edges(HUB_EDGES, HUB_LABELS, min_evidence=2)
    assert plain == [("a", "h")]
    hub = identify_suspect_edges(HUB_EDGES, HUB_LABELS, min_evidence=2, use_propagation=True)
    # ("b", "h") joins: it points at h, which ("a", "h") showed attracts invented edges;
    # ("c", "h") stays (a true proof uses it), ("d", "e") stays (it is not near h).
    assert hub == [("a", "h"), ("b", "h")]
    stricter = identify_suspect_edges(
        HUB_EDGES, HUB_LABELS, min_evidence=2, use_propagation=True, propagated_min_evidence=2
    )
    assert stricter == plain


def test_propagation_does_nothing_when_no_edge_clears_min_evidence_alone() -> None:
    once = [("b", "h", False), ("d", "e", False)]  # every edge seen once
    assert identify_suspect_edges(HUB_EDGES, once, min_evidence=2, use_propagation=True) == []
    assert identify_suspect_edges(HUB_EDGES, once, min_evidence=1) == [("b", "h"), ("d", "e")]


def test_identify_and_prune_passes_the_hub_rule_on() -> None:
    labels = HUB_LABELS * 2  # every count doubled: ("b", "h") now has 2 false proofs
    plain = identify_and_prune_edges(HUB_EDGES, labels, identify_frac=1.0, min_evidence=3)
    hub = identify_and_prune_edges(
        HUB_EDGES,
        labels,
        identify_frac=1.0,
        min_evidence=3,
        use_propagation=True,
        propagated_min_evidence=2,
    )
    assert plain.blocked == [("a", "h")]
    assert hub.blocked == [("a", "h"), ("b", "h")]
    assert hub.edges == prune_edges(HUB_EDGES, hub.blocked)


def test_the_seed_signature_reads_positionally() -> None:
    # Grounded Reasoning: (edges, labeled_pairs, walk_len, alpha, min_evidence)
    assert identify_suspect_edges(EDGES, [("a", "y", False)], 8, 0.6, 2) == []
    assert identify_suspect_edges(EDGES, [("a", "y", False)], 8, 0.6, 1) == [
        ("a", "b"),
        ("b", "x"),
        ("x", "y"),
    ]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdef")), max_size=12),
    st.lists(
        st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdef"), st.booleans()),
        max_size=16,
    ),
    st.integers(1, 3),
    st.integers(1, 3),
)
def test_propagation_only_adds_edges_into_suspect_targets(
    edges: list[tuple[str, str]],
    labels: list[tuple[str, str, bool]],
    need: int,
    near: int,
) -> None:
    plain = set(identify_suspect_edges(edges, labels, min_evidence=need))
    hub = set(
        identify_suspect_edges(
            edges, labels, min_evidence=need, use_propagation=True, propagated_min_evidence=near
        )
    )
    assert plain <= hub
    assert all(b in {t for _, t in plain} for _, b in hub - plain)
    if near >= need:
        assert hub == plain
    # with the bar at 1 everywhere the hub rule cannot find more than the plain rule
    assert hub <= set(identify_suspect_edges(edges, labels, min_evidence=min(need, near)))


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"min_evidence": 0}, "min_evidence"),
        ({"min_evidence": True}, "min_evidence"),
        ({"propagated_min_evidence": 0}, "propagated_min_evidence"),
        ({"use_propagation": "yes"}, "use_propagation"),
        ({"alpha": 1.5}, "alpha"),
    ],
)
def test_pruning_options_are_checked(options: dict[str, object], name: str) -> None:
    with pytest.raises(InputError, match=name):
        identify_suspect_edges(EDGES, [], **options)  # type: ignore[arg-type]


def test_identify_frac_and_seed_types_are_checked() -> None:
    with pytest.raises(InputError, match="identify_frac"):
        identify_and_prune_edges(EDGES, [], identify_frac="0.5")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="seed"):
        identify_and_prune_edges(EDGES, [], seed=1.5)  # type: ignore[arg-type]
