"""Readings of sentence structure added for issue 19's "contradictions that generalise":
each rule with a fact it must retire and one it must leave alone. Facts written for
these tests."""

from __future__ import annotations

import pytest

from groundgraph.memory import RuleConflictResolver, parse_claims

RESOLVER = RuleConflictResolver()

# (old, new, the rule that must fire: its prefix)
RETIRED = [
    # the progressive and the contracted copula of "report to", and "reports into / up through"
    ("I report to Hedda.", "I'm reporting to Joris now.", "single-valued:role:manager"),
    ("Pieter's manager is Lotte.", "Pieter is reporting to Sven.", "single-valued:role:manager"),
    ("Design reports into marketing.", "Design now reports up through product.", "single-valued"),
    # a notice's label before a colon is read past
    ("I report to Hedda.", "Reorg news: I'm reporting to Joris.", "single-valued:role:manager"),
    # a departure names the whole name
    ("Our treasurer is Willem Dekker.", "Willem Dekker left the club.", "change:holder"),
    # an event that is off, though it is named like a person
    ("We're hosting Easter at our house.", "Easter at our house is off this year.", "change:ended"),
]

# (old, new): the new fact does not retire the old one
KEPT = [
    # "Brooks" of "Daniel Brooks" is not the brand of "Brooks Ghosts"
    ("My hiking boots are Brooks Cascadias.", "Daniel Brooks left the company."),
    # a pronoun's "not my report anymore" is about the one named, not the speaker's manager
    ("I report to Hedda.", "Wim moved to Oslo, so he's not my report anymore."),
    # a slot that is a time is not a thing held
    ("Choir practice is at 8pm on Mondays.", "Standups are on Mondays now."),
    # the speaker's manager is not another person's title
    ("Femke was promoted to store manager.", "Bas left, and my new manager is Ruud."),
    # a person who is "off" is away, not ended
    ("I report to Hedda.", "Hedda is off this week; Joris approves my leave until Monday."),
    # a new place says nothing of when a club meets
    (
        "The chess club is the first Monday of the month.",
        "The chess club has relocated to the library.",
    ),
]


@pytest.mark.parametrize(("old", "new", "rule"), RETIRED)
def test_the_structure_read_retires_the_old_fact(old: str, new: str, rule: str) -> None:
    found = RESOLVER.explain(new, old)
    assert found is not None, (new, old)
    assert found.rule.startswith(rule), found


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_the_structure_read_leaves_the_other_fact(old: str, new: str) -> None:
    assert RESOLVER.explain(new, old) is None


def test_a_progressive_report_is_a_manager_claim() -> None:
    claims = [(c.subject, c.attribute, c.value) for c in parse_claims("I'm reporting to Joris.")]
    assert claims == [("user", "role:manager", "Joris")]
