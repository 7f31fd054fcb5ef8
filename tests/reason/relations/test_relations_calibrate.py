"""Clopper–Pearson bounds and the three calibrations of GroundedReasoner."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.errors import InputError
from groundgraph.reason.relations import GroundedReasoner, clopper_pearson_lower, precision_bound


@pytest.mark.parametrize(
    ("k", "n", "expected"), [(10, 10, 0.794), (9, 10, 0.663), (50, 50, 0.955), (0, 10, 0.0)]
)
def test_clopper_pearson_reference_values(k: int, n: int, expected: float) -> None:
    assert clopper_pearson_lower(k, n, 0.1) == pytest.approx(expected, abs=5e-4)


def test_all_successes_give_alpha_to_the_one_over_n() -> None:
    assert clopper_pearson_lower(10, 10, 0.1) == pytest.approx(0.1 ** (1 / 10))


@given(st.integers(1, 200), st.data(), st.floats(0.01, 0.5))
def test_the_bound_is_the_binomial_tail_root(n: int, data: st.DataObject, alpha: float) -> None:
    from scipy.stats import binom

    k = data.draw(st.integers(1, n))
    p = clopper_pearson_lower(k, n, alpha)
    assert 0.0 <= p <= k / n
    assert binom.sf(k - 1, n, p) == pytest.approx(alpha, abs=1e-6)  # P(X ≥ k | p) = alpha


@given(st.integers(2, 100), st.floats(0.01, 0.5))
def test_more_successes_give_a_higher_bound(n: int, alpha: float) -> None:
    bounds = [clopper_pearson_lower(k, n, alpha) for k in range(n + 1)]
    assert bounds == sorted(bounds)


@pytest.mark.parametrize(("k", "n", "alpha"), [(3, 2, 0.1), (-1, 2, 0.1), (1, 2, 0.0), (1, 2, 1.0)])
def test_bad_counts_are_input_errors(k: int, n: int, alpha: float) -> None:
    with pytest.raises(InputError):
        clopper_pearson_lower(k, n, alpha)


def test_precision_bound_record() -> None:
    assert precision_bound([True] * 9 + [False], 0.1) == {
        "n_grounded": 10,
        "n_confirmed": 9,
        "precision_lower_bound": pytest.approx(0.663, abs=5e-4),
        "alpha": 0.1,
    }


def trust_graph() -> GroundedReasoner:
    gr = GroundedReasoner(transitive_relations={"parent"})
    gr.add_facts(
        [
            ("ann", "trusts", "bob"),
            ("bob", "trusts", "cat"),
            ("cat", "trusts", "dan"),
            ("ann", "parent", "eve"),
        ]
    )
    return gr


def test_calibrate_transitivity_scores_only_grounded_pairs() -> None:
    gr = trust_graph()
    result = gr.calibrate_transitivity(
        "trusts",
        [
            ("ann", "bob", True),
            ("ann", "cat", False),  # trust did not carry over
            ("ann", "dan", True),
            ("dan", "ann", True),  # not grounded: not scored
        ],
    )
    assert result["n_grounded"] == 3 and result["n_confirmed"] == 2
    assert result["precision_lower_bound"] == pytest.approx(clopper_pearson_lower(2, 3, 0.1))
    assert result["alpha"] == 0.1


def test_calibrate_path_uses_the_exact_chain() -> None:
    gr = GroundedReasoner()
    gr.add_facts([("ann", "parent", "bob"), ("bob", "employer", "acme"), ("ann", "employer", "x")])
    result = gr.calibrate_path(
        ["parent", "employer"], [("ann", "acme", True), ("ann", "x", False)], alpha=0.05
    )
    assert (result["n_grounded"], result["n_confirmed"]) == (1, 1)
    assert result["precision_lower_bound"] == pytest.approx(0.05)


def test_calibrate_normalization_scores_merged_spellings() -> None:
    gr = GroundedReasoner(normalize=lambda s: s.strip().casefold())
    result = gr.calibrate_normalization(
        [
            ("Bob", "bob", True),
            ("Paris", "PARIS", False),  # the city and a person: over-merged
            ("Bob", "Robert", True),  # not merged: not scored
            ("Bob", "Bob", True),  # the same spelling: not scored
        ]
    )
    assert (result["n_grounded"], result["n_confirmed"]) == (2, 1)


def test_calibrate_normalization_needs_a_normaliser() -> None:
    with pytest.raises(InputError, match="normalize"):
        GroundedReasoner().calibrate_normalization([("a", "A", True)])


def test_labeled_pairs_are_checked() -> None:
    with pytest.raises(InputError, match="labeled pair #1"):
        trust_graph().calibrate_transitivity("trusts", [("ann", "bob", True), ("ann", "bob")])
    with pytest.raises(InputError, match="labeled pair #0"):
        trust_graph().calibrate_transitivity("trusts", [("ann", "bob", "yes")])
