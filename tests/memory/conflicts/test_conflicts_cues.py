"""The cue prefilter of the change rules: reading a new fact only by the rules its clauses
cue gives the same verdict as reading it by every rule, on facts generated from the rules'
own vocabulary; a rule with no cue in a clause never fires on it; a plain statement is
compared with no old fact."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.memory.conflicts.appointed import appointed
from groundgraph.memory.conflicts.changes import change_conflict
from groundgraph.memory.conflicts.cues import RULE_CUES, read_cues
from groundgraph.memory.conflicts.ended import ended, instead, no_longer, resolved
from groundgraph.memory.conflicts.handover import handed_over
from groundgraph.memory.conflicts.holders import (
    confirmed,
    from_to,
    hired,
    holder,
    new_title,
    promoted,
    took_over,
)
from groundgraph.memory.conflicts.moved import moved, new_home
from groundgraph.memory.conflicts.replaced import replaced
from groundgraph.memory.conflicts.words import terms
from memory.conflicts.test_conflicts_changes import ANNOUNCED, KEPT

# the words of the rules: who, what they did (every rule's cue and its look-alikes), to
# what, when, and the marks that hold a change back or announce one
WHO = ["Pim", "Orla", "Jelle Bos", "We", "I", "The team", "Dr. Vos", "Our landlord", "Wei"]
DID = [
    "cancelled",
    "called off",
    "dropped out of",
    "withdrew from",
    "left",
    "quit",
    "stepped down as",
    "was cancelled",
    "has been scrapped",
    "churned",
    "closed down",
    "let",
    "lapse",
    "pulled",
    "out of",
    "moved",
    "moved to",
    "relocated",
    "switched",
    "switched from",
    "migrated",
    "pushed back to",
    "was moved to",
    "got promoted to",
    "got promoted",
    "raised",
    "cut",
    "took over",
    "is taking over as",
    "handed",
    "over to",
    "rotated off",
    "retired",
    "resigned",
    "was let go",
    "fixed",
    "sorted out",
    "approved",
    "finished",
    "hired a new",
    "appointed a permanent",
    "confirmed",
    "as permanent",
    "is now the",
    "is now a",
    "is the",
    "now",
    "instead of",
    "negative for",
    "no longer",
    "anymore",
    "isn't",
    "no",
    "No",
    "has been changed",
    "is",
    "are",
    "works at",
    "lives in",
    "runs",
    "manages",
    "is maintained by",
    "reports to",
    "is serving as acting",
    "is on",
    "is every",
    "is pending",
    "is leaking",
    "is broken",
    "bought a house in",
    "my new place in",
    "kept",
    "also",
    "might",
    "is thinking about",
    "used to",
    "this Monday's",
    "just this once",
    "from next week",
    "going forward",
    "these days",
    "starting Monday,",
    "at night",
    "in the daytime",
    "on weekdays",
    "causes",
    "a raised",
    "to",
    "from",
    "into",
    "with",
    "and",
    ",",
    ";",
    "but",
]
WHAT = [
    "the pottery course",
    "the wiki",
    "BookStack",
    "Confluence",
    "the book club",
    "the support inbox",
    "the Lisbon workshop",
    "the kitchen tap",
    "senior analyst",
    "an intern",
    "CFO",
    "head of design",
    "sommelier",
    "the billing dashboard",
    "Manchester",
    "Leeds",
    "Acme",
    "Parcelo",
    "eu-west-1",
    "us-east-1",
    "B214",
    "PAY-812",
    "Thursdays",
    "Mondays",
    "March 18",
    "May 3",
    "€980",
    "€900 a month",
    "45 minutes",
    "60 minutes",
    "20 GB",
    "the 12th",
    "the company",
    "the night bus",
    "23:40",
    "Lotte",
    "Sanne",
    "Femke",
    "my manager",
    "the CI scripts",
    "the gym plan",
    "the account",
]
PIECES = WHO + DID + WHAT
ends = st.sampled_from(["", ".", "!", " now.", " anymore.", " instead."])
facts = st.builds(
    lambda words, end: " ".join(words) + end,
    st.lists(st.sampled_from(PIECES), min_size=2, max_size=9),
    ends,
)
templated = st.builds(
    lambda who, did, what, more, end: f"{who} {did} {what}{more}{end}",
    st.sampled_from(WHO),
    st.sampled_from(DID),
    st.sampled_from(WHAT),
    st.sampled_from(["", " to " + WHAT[0], " instead of Confluence", ", and Lotte is the lead"]),
    ends,
)
any_fact = st.one_of(facts, templated)


# an old fact about the new fact's thing, so that more pairs are changes
OLD_SAID = ["is", "runs", "is booked for", "lives in", "works at", "is enrolled in", "uses"]
related = st.builds(
    lambda new_who, did, what, old_who, said, end: (
        f"{new_who} {did} {what}{end}",
        f"{old_who} {said} {what}.",
    ),
    st.sampled_from(WHO),
    st.sampled_from(DID),
    st.sampled_from(WHAT),
    st.sampled_from(WHO + WHAT),
    st.sampled_from(OLD_SAID),
    ends,
)


@settings(max_examples=600, deadline=None)
@given(any_fact, any_fact)
def test_the_prefiltered_verdict_is_the_full_verdict(new: str, old: str) -> None:
    assert change_conflict(new, old) == change_conflict(new, old, prefilter=False)


@settings(max_examples=600, deadline=None)
@given(related)
def test_the_prefiltered_verdict_is_the_full_verdict_on_one_thing(pair: tuple[str, str]) -> None:
    new, old = pair
    assert change_conflict(new, old) == change_conflict(new, old, prefilter=False)


@pytest.mark.parametrize(("old", "new"), [(o, n) for o, n, _ in ANNOUNCED] + KEPT)
def test_the_prefilter_keeps_the_written_verdicts(old: str, new: str) -> None:
    assert change_conflict(new, old) == change_conflict(new, old, prefilter=False)


def test_an_announced_change_is_cued() -> None:
    for _, new, family in ANNOUNCED:
        if family != "single-valued":
            assert read_cues(new).may_change, new


@pytest.mark.parametrize(
    "text",
    [
        "The compiler emits a warning when a variable is unused.",
        "Visual Studio includes a C++ compiler and a debugger.",
        "Use this option to enable the feature.",
    ],
)
def test_a_plain_statement_is_compared_with_nothing(text: str) -> None:
    assert not read_cues(text).may_change


# each rule as ``change_conflict`` calls it, on (clause, its sentence, old, new)
RULES: dict[str, Callable[[str, str, str, str], object]] = {
    "no-longer": lambda c, s, old, new: no_longer(c, old, new),
    "ended": lambda c, s, old, new: ended(c, s, old, new),
    "instead": lambda c, s, old, new: instead(c, new, terms(old)),
    "replaced": lambda c, s, old, new: replaced(c, s, old),
    "moved": lambda c, s, old, new: moved(c, s, old, new),
    "took-over": lambda c, s, old, new: took_over(c, old, new),
    "new-home": lambda c, s, old, new: new_home(c, s, old),
    "handed-over": lambda c, s, old, new: handed_over(c, old),
    "resolved": lambda c, s, old, new: resolved(c, old, new),
    "from-to": lambda c, s, old, new: from_to(c, old),
    "promoted": lambda c, s, old, new: promoted(c, old),
    "appointed": lambda c, s, old, new: appointed(c, s, old),
    "hired": lambda c, s, old, new: hired(c, old),
    "confirmed": lambda c, s, old, new: confirmed(c, old),
    "holder": lambda c, s, old, new: holder(c, old, terms(old)),
    "new-title": lambda c, s, old, new: new_title(c, s, old),
}


def test_every_rule_has_cues() -> None:
    assert set(RULES) == set(RULE_CUES)


@settings(max_examples=400, deadline=None)
@given(any_fact, any_fact)
def test_a_rule_never_fires_on_a_clause_without_its_cue(new: str, old: str) -> None:
    for sentence in read_cues(new, prefilter=False).sentences:
        for clause in sentence.clauses:
            for rule, patterns in RULE_CUES.items():
                if not any(p.search(clause.text) for p in patterns):
                    assert RULES[rule](clause.text, sentence.text, old, new) is None, rule
