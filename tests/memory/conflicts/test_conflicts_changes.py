"""The change rules: an update announced by its shape (what ended, what moved, what replaced
what, who holds a thing now) retires the old fact only when the thing that changed is what
the old fact is about. Facts written for these tests."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.memory import RuleConflictResolver, parse_claims
from groundgraph.memory.conflicts.changes import change_conflict
from groundgraph.memory.conflicts.words import terms

RESOLVER = RuleConflictResolver(changes=True)
CHANGES_ONLY = RuleConflictResolver(single_valued=False, negation=False, changes=True)

# (old, new, the rule family that must fire)
ANNOUNCED = [
    ("Pim is enrolled in the pottery course.", "Pim dropped out of the pottery course.", "ended"),
    ("The Lisbon workshop is booked for June.", "We called off the Lisbon workshop.", "ended"),
    ("The studio rents a Fuji printer.", "The studio got rid of the Fuji printer.", "ended"),
    ("Orla chairs the garden committee.", "Orla stepped down as chair last spring.", "ended"),
    ("Brightwell Foods is a paying client.", "Brightwell Foods churned in May.", "ended"),
    ("Our wiki runs on Confluence.", "We migrated the wiki to BookStack.", "moved"),
    ("The night bus leaves at 23:10.", "The night bus was moved to 23:40.", "moved"),
    ("The shop's rent is €900 a month.", "The landlord raised the shop's rent to €980.", "moved"),
    ("Sprint reviews last 60 minutes.", "We cut sprint reviews to 45 minutes.", "moved"),
    ("The hackathon is on March 4.", "The hackathon has been pushed back to March 18.", "moved"),
    ("Ines is a junior analyst at Norvik.", "Ines got promoted to senior analyst.", "moved"),
    (
        "The ferry schedule is kept by Joost.",
        "Joost handed the ferry schedule over to Mara.",
        "moved",
    ),
    (
        "Rafa answers the support inbox.",
        "Rafa handles billing instead of the support inbox.",
        "instead",
    ),
    (
        "The choir practises with Sanne.",
        "The choir now practises with Lotte instead of Sanne.",
        "instead",
    ),
    ("Bram is Tessa's mentor.", "Bram isn't Tessa's mentor anymore.", "no-longer"),
    (
        "Wout maintains the CI scripts.",
        "Wout rotated off; Femke is the CI scripts maintainer now.",
        "holder",
    ),
    ("Anouk runs the book club.", "Jelle took over the book club.", "holder"),
    ("The yoga class is on Tuesdays.", "From next month the yoga class is on Thursdays.", "value"),
    ("The locker limit is 20 GB.", "The locker limit is now 50 GB.", "single-valued"),
    ("Kaat works in the Ghent office.", "Kaat now works from our Bruges office.", "value"),
]

# (old, new): both hold, or the new one does not say the old one ended
KEPT = [
    ("Corvo also has a kiosk in Delft.", "Corvo moved its headquarters to Breda."),
    (
        "Pim is enrolled in the pottery course.",
        "Pim is thinking about dropping the pottery course.",
    ),
    (
        "Pim is enrolled in the pottery course.",
        "Pim cancelled the yoga trial and kept the pottery course.",
    ),
    ("The Lisbon workshop is booked for June.", "We cancelled the Porto hotel for the trip."),
    ("Our wiki runs on Confluence.", "We are trialling BookStack as a possible wiki."),
    ("Our wiki runs on Confluence.", "We also added a BookStack site for the interns."),
    ("The heating is set to 20°C in the day.", "At night the heating drops to 16°C."),
    ("Mila drinks black tea.", "Mila switches to green tea after lunch."),
    (
        "The stand-up is every Monday at 9.",
        "This Monday's stand-up moves to Tuesday for the holiday.",
    ),
    ("Ines used to work in sales.", "Ines is a product owner now."),
    ("Teo works at Parcelo.", "Teo has not left Parcelo."),
    ("Anouk runs the book club.", "Anouk took over the newsletter too."),
    ("Reduced sleep leads to poor focus.", "Reduced blood flow causes dizziness."),
    ("No reptiles have fur.", "All snakes are reptiles."),
    ("Kaat works in the Ghent office.", "The Bruges office is open on Sundays."),
    ("The data team has a weekly sync.", "Greta handed the team over to Oskar."),
]


def ids(pairs: list[tuple[str, ...]]) -> list[str]:
    return [f"{p[0]} -> {p[1]}" for p in pairs]


@pytest.mark.parametrize(("old", "new", "family"), ANNOUNCED, ids=ids(ANNOUNCED))
def test_an_announced_change_retires_the_old_fact(old: str, new: str, family: str) -> None:
    assert RESOLVER.explain(new, old) is not None
    found = CHANGES_ONLY.explain(new, old)
    if family == "single-valued":
        assert RuleConflictResolver(changes=False).explain(new, old) is not None
    else:
        assert found is not None and found.rule == f"change:{family}" and found.detail


@pytest.mark.parametrize(("old", "new"), KEPT, ids=ids(KEPT))
def test_hedges_additions_habits_and_other_things_retire_nothing(old: str, new: str) -> None:
    assert RESOLVER.explain(new, old) is None


def test_the_change_says_what_changed() -> None:
    found = change_conflict("We migrated the wiki to BookStack.", "Our wiki runs on Confluence.")
    assert found is not None and found.kind == "moved"
    assert "wiki" in found.detail and "BookStack" in found.detail


def test_terms_compare_word_families_and_initials() -> None:
    assert terms("allergic to cats") & terms("an allergy test")
    assert "nyt" in terms("I read the New York Times daily.")
    assert "it" in terms("handed to IT") and "it" not in terms("it was late")


def test_first_person_facts_are_about_the_user() -> None:
    claims = parse_claims("I report to Wanda. After the merger my manager is Rolf.")
    assert {(c.subject, c.attribute, c.value) for c in claims} == {
        ("user", "role:manager", "Wanda"),
        ("user", "role:manager", "Rolf"),
    }


def test_an_arrow_states_the_new_status() -> None:
    found = RESOLVER.explain("Tracker: OPS-41 status changed Open -> Resolved.", "OPS-41 is open.")
    assert found is not None and found.rule == "single-valued:status:lifecycle"


def test_the_change_rules_can_be_switched_off() -> None:
    old, new = "Anouk runs the book club.", "Jelle took over the book club."
    assert RuleConflictResolver(changes=False).explain(new, old) is None
    assert RuleConflictResolver(changes=True).explain(new, old) is not None


# ---- promises over generated facts ------------------------------------------------------

THINGS = ["the pottery course", "the gym plan", "the chess club", "the Delft workshop"]
OTHERS = ["the choir", "the ferry pass", "the wine tasting", "the Utrecht retreat"]
ENDERS = ["cancelled", "dropped", "called off", "withdrew from", "quit"]
HEDGES = ["is thinking about", "might soon have", "would like to have", "is considering"]
NAMES = st.sampled_from(["Pim", "Orla", "Jelle", "Mara"])


@given(NAMES, st.sampled_from(THINGS), st.sampled_from(ENDERS))
def test_ending_the_thing_retires_the_fact_about_it(name: str, thing: str, verb: str) -> None:
    old = f"{name} is signed up for {thing}."
    assert RESOLVER.explain(f"{name} {verb} {thing}.", old) is not None


@given(NAMES, st.sampled_from(THINGS), st.sampled_from(OTHERS), st.sampled_from(ENDERS))
def test_ending_another_thing_retires_nothing(name: str, thing: str, other: str, verb: str) -> None:
    old = f"{name} is signed up for {thing}."
    assert RESOLVER.explain(f"{name} {verb} {other}.", old) is None


@given(NAMES, st.sampled_from(THINGS), st.sampled_from(ENDERS), st.sampled_from(HEDGES))
def test_a_hedged_change_retires_nothing(name: str, thing: str, verb: str, hedge: str) -> None:
    old = f"{name} is signed up for {thing}."
    assert RESOLVER.explain(f"{name} {hedge} {verb.replace('ed', 'ing')} {thing}.", old) is None
    assert RESOLVER.explain(f"{name} also {verb} {thing}.", old) is None


@given(st.text(max_size=300), st.text(max_size=300))
def test_any_text_is_read_without_error(new: str, old: str) -> None:
    change_conflict(new, old)


@pytest.mark.parametrize(
    "text",
    [
        "moved " * 3000,
        "We moved " + "the box to " * 1500 + "the shed.",
        "No " + "team " * 2000,
        "X is " + "now " * 2000 + "Y.",
        "instead of " * 2000,
    ],
)
def test_pathological_facts_are_read_in_bounded_time(text: str) -> None:
    started = time.perf_counter()
    change_conflict(text, "The box is in the shed.")
    change_conflict("The box is in the shed.", text)
    assert time.perf_counter() - started < 2
