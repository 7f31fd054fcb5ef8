"""Horn rules: the least model, entailment, and the rules behind a conclusion."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.reason.relations import Rule, entails, explain, forward_chain

RULES = [
    ({"rain"}, "wet"),
    ({"wet", "cold"}, "ice"),
    ({"ice"}, "slippery"),
    ({"sprinkler"}, "wet"),
]


def test_the_least_model() -> None:
    assert forward_chain({"rain", "cold"}, RULES) == {"rain", "cold", "wet", "ice", "slippery"}
    assert forward_chain({"rain"}, RULES) == {"rain", "wet"}
    assert forward_chain(set(), [(set(), "axiom")]) == {"axiom"}


def test_entails() -> None:
    assert entails({"rain", "cold"}, RULES, "slippery")
    assert not entails({"rain"}, RULES, "slippery")


def test_explain_lists_the_rules_fired_in_order() -> None:
    assert explain({"rain", "cold"}, RULES, "slippery") == [
        Rule(frozenset({"rain"}), "wet"),
        Rule(frozenset({"wet", "cold"}), "ice"),
        Rule(frozenset({"ice"}), "slippery"),
    ]
    assert explain({"rain", "cold"}, RULES, "rain") == []  # a fact needs no rule
    assert explain({"rain"}, RULES, "ice") is None  # not derivable


def test_transitive_closure_as_horn_rules() -> None:
    people = ["a", "b", "c", "d"]
    facts = {("anc", "a", "b"), ("anc", "b", "c"), ("anc", "c", "d")}
    rules = [
        ({("anc", x, y), ("anc", y, z)}, ("anc", x, z))
        for x, y, z in itertools.product(people, repeat=3)
    ]
    assert entails(facts, rules, ("anc", "a", "d"))
    assert not entails(facts, rules, ("anc", "d", "a"))
    assert len(explain(facts, rules, ("anc", "a", "d")) or []) == 2


atoms = st.sampled_from("abcdefgh")
rule_lists = st.lists(st.tuples(st.frozensets(atoms, max_size=3), atoms), max_size=12)


def naive_fixpoint(facts: set[str], rules: list[tuple[frozenset[str], str]]) -> set[str]:
    model = set(facts)
    while True:
        new = {head for body, head in rules if body <= model} - model
        if not new:
            return model
        model |= new


@settings(max_examples=200, deadline=None)
@given(st.sets(atoms, max_size=3), rule_lists)
def test_forward_chaining_matches_the_naive_fixpoint(
    facts: set[str], rules: list[tuple[frozenset[str], str]]
) -> None:
    model = forward_chain(facts, rules)
    assert model == naive_fixpoint(facts, rules)
    assert all(head in model for body, head in rules if body <= model)  # closed


@settings(max_examples=200, deadline=None)
@given(st.sets(atoms, max_size=3), rule_lists, atoms)
def test_explanations_replay(
    facts: set[str], rules: list[tuple[frozenset[str], str]], goal: str
) -> None:
    fired = explain(facts, rules, goal)
    if fired is None:
        assert not entails(facts, rules, goal)
        return
    known = set(facts)
    for rule in fired:
        assert rule.body <= known  # each rule fires on what is already known
        known.add(rule.head)
    assert goal in known
