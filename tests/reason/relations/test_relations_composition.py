"""Composition tables: folding, learning from labelled chains, and the kinship table."""

from __future__ import annotations

import numpy as np
import pytest

from groundgraph.errors import InputError
from groundgraph.reason.relations import (
    KINSHIP_RELATIONS,
    Conflict,
    derive_kinship_table,
    fold,
    fold_chain,
    inverse_relation,
    kinship_table,
    learn_composition,
)
from groundgraph.reason.relations.kinship import KINSHIP_WORDS, family_model

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


def test_the_kinship_table_knows_everyday_compositions() -> None:
    table = kinship_table()
    assert table[("father", "brother", "male")] == "uncle"
    assert table[("son", "wife", "female")] == "daughter-in-law"
    assert table[("husband", "mother", "female")] == "mother-in-law"
    assert table[("sister", "son", "male")] == "nephew"
    assert table[("mother", "sister-in-law", "female")] == "aunt"
    # ambiguous: x's nephew's father is x's brother or x's brother-in-law
    assert ("nephew", "father", "male") not in table
    # no word in the vocabulary: x's uncle's son is a cousin
    assert ("uncle", "son", "male") not in table
    assert set(table.values()) <= set(KINSHIP_RELATIONS)
    table[("x", "y", "male")] = "z"
    assert ("x", "y", "male") not in kinship_table()  # a fresh copy each time


def test_the_shipped_table_is_what_the_definitions_derive() -> None:
    assert derive_kinship_table() == kinship_table()


def test_the_table_is_stable_across_family_models() -> None:
    assert derive_kinship_table([family_model(founders=16, seed=17)]) == kinship_table()


def holds(model_words: dict[str, list[set[int]]], word: str, x: int, z: int) -> bool:
    return z in model_words[word][x]


def test_folding_with_the_kinship_table_is_true_in_a_family() -> None:
    """Random simple paths in a family the table never saw: every answer it gives is right."""
    model = family_model(founders=12, seed=99)
    people = range(len(model.people))
    reach: dict[str, list[set[int]]] = {}
    for kin, male, female in KINSHIP_WORDS.values():
        for word, gender in ((male, "male"), (female, "female")):
            reach[word] = [
                {z for z in kin(model, {x}) if model.gender(z) == gender} for x in people
            ]
    table = kinship_table()
    rng = np.random.default_rng(0)
    answered = 0
    for _ in range(3000):
        x = int(rng.integers(len(model.people)))
        path, chain = [x], []
        for _ in range(int(rng.integers(2, 6))):
            options = [
                (word, z)
                for word in KINSHIP_RELATIONS
                for z in sorted(reach[word][path[-1]])
                if z not in path
            ]
            if not options:
                break
            word, z = options[int(rng.integers(len(options)))]
            path.append(z)
            chain.append((word, model.gender(z)))
        result = fold(chain, table)
        if result is not None and len(chain) > 1:
            answered += 1
            assert holds(reach, result, x, path[-1]), (chain, result)
    assert answered > 100


def test_inverse_relation() -> None:
    assert inverse_relation("father", "female") == "daughter"
    assert inverse_relation("uncle", "male") == "nephew"
    assert inverse_relation("sister-in-law", "male") == "brother-in-law"
    assert inverse_relation("wife", "male") == "husband"
    assert inverse_relation("colleague", "male") is None
