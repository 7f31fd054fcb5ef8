"""Composition tables: folding and learning from labelled chains (kinship: test_kinship)."""

from __future__ import annotations

import pytest

from groundgraph.errors import InputError
from groundgraph.reason.relations import (
    Conflict,
    fold,
    fold_chain,
    learn_composition,
)

TABLE = {
    ("father", "brother", "male"): "uncle",
    ("uncle", "son", "male"): "cousin",
    ("father", "father", "male"): "grandfather",
}


def test_fold_reduces_leftmost_first() -> None:
    chain = [("father", "male"), ("brother", "male"), ("son", "male")]
    folded = fold_chain(chain, TABLE)
    assert folded.relation == "cousin"
    assert [r.key for r in folded.reductions] == [
        ("father", "brother", "male"),
        ("uncle", "son", "male"),
    ]
    assert (folded.reductions[-1].result.start, folded.reductions[-1].result.end) == (0, 3)


def test_fold_edge_cases() -> None:
    assert fold([], TABLE) is None
    assert fold([("father", "male")], TABLE) == "father"
    assert fold([("father", "male"), ("sister", "female")], TABLE) is None  # stuck
    stuck = fold_chain([("son", "male"), ("father", "male"), ("brother", "male")], TABLE)
    assert stuck.relation is None
    assert [span.relation for span in stuck.remaining] == ["son", "uncle"]


def test_fold_checks_the_steps() -> None:
    with pytest.raises(InputError, match="chain step #1"):
        fold([("father", "male"), "brother"], TABLE)  # type: ignore[list-item]


def test_learn_composition_fills_one_missing_rule_at_a_time() -> None:
    chains = [
        # three steps: learnable only once the two-step rule below is known
        ([("father", "male"), ("brother", "male"), ("son", "male")], "cousin"),
        ([("father", "male"), ("brother", "male")], "uncle"),
        ([("mother", "female"), ("mother", "female")], "grandmother"),
    ]
    table, conflicts, passes = learn_composition(chains)
    assert table == {
        ("father", "brother", "male"): "uncle",
        ("uncle", "son", "male"): "cousin",
        ("mother", "mother", "female"): "grandmother",
    }
    assert conflicts == []
    assert passes == 3  # the cousin rule needs the uncle rule; the third pass learns nothing


def test_learn_composition_needs_several_passes_for_long_chains() -> None:
    chains = [
        ([("a", ""), ("b", ""), ("c", ""), ("d", "")], "abcd"),
        ([("a", ""), ("b", ""), ("c", "")], "abc"),
        ([("a", ""), ("b", "")], "ab"),
    ]
    table, _, passes = learn_composition(chains)
    assert table[("ab", "c", "")] == "abc" and table[("abc", "d", "")] == "abcd"
    assert passes == 4
    _, _, capped = learn_composition(chains, max_iter=1)
    assert capped == 1


def test_conflicts_are_reported_first_label_wins() -> None:
    chains = [
        ([("son", "male"), ("grandmother", "female")], "mother"),
        ([("son", "male"), ("grandmother", "female")], "mother-in-law"),
    ]
    table, conflicts, _ = learn_composition(chains)
    assert table == {("son", "grandmother", "female"): "mother"}
    assert conflicts == [Conflict(1, "mother-in-law", "mother", ("son", "grandmother", "female"))]


def test_learning_can_start_from_a_table() -> None:
    chains = [([("father", "male"), ("brother", "male"), ("son", "male")], "cousin")]
    table, _, _ = learn_composition(chains, table={("father", "brother", "male"): "uncle"})
    assert table[("uncle", "son", "male")] == "cousin"
