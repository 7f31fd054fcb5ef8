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
    # a decision on what was pending, a return to service, a ticket's code closed
    (
        "The visa application is under review.",
        "The embassy rejected the visa application.",
        "change:ended",
    ),
    (
        "The east entrance is closed for repairs.",
        "The east entrance is open again.",
        "",
    ),
    ("Grandpa is in the hospital.", "Grandpa was discharged yesterday.", "change:ended"),
    ("Case SR-2291 is waiting on the vendor.", "SR-2291 closed after the patch.", "change:ended"),
    # a quantity's change verbs, an adverb after the verb, a re- verb, a transition
    ("Our gas bill is about €60 a month.", "The gas bill climbed to €85 a month.", "change:moved"),
    (
        "The book fair is held in the old gym.",
        "The book fair has moved permanently to the library.",
        "change:moved",
    ),
    (
        "Our mail server is hosted in the Leeds rack.",
        "The mail server was re-homed to the Derby rack.",
        "change:moved",
    ),
    ("Ticket HR-77 is in review.", "HR-77 transitioned to Done.", "change:moved"),
    # a change said as a noun, and a number alone against a number alone
    (
        "The database runs Postgres 14.",
        "Database upgrade to 16 finished last night.",
        "change:moved",
    ),
    ("The worker pool size is 8.", "We raised the worker pool size to 12.", "change:moved"),
    # appointed: named, made, "our new …", started as; a contracted copula before a title
    ("Mr. Okafor is the deputy head.", "Mr. Okafor was appointed head last term.", "change:holder"),
    (
        "Lena is a junior associate.",
        "Lena did well and the firm made her a senior associate.",
        "change:holder",
    ),
    ("Femi is a sales manager.", "Say hello to Femi, our new Head of Sales!", "change:holder"),
    (
        "The user is a trainee nurse.",
        "The user qualified and started as a ward sister.",
        "change:holder",
    ),
    ("Joao is a waiter at the bistro.", "Joao's the head chef at the bistro now.", "change:holder"),
    # a successor names the one succeeded
    (
        "Our bookkeeper is Greet Maes.",
        "We hired Telos Finance to take over from Greet.",
        "change:holder",
    ),
    ("Our card processor is Mollie.", "Stripe replaced Mollie last quarter.", "change:holder"),
    # the old value named as left
    (
        "Our issue tracker is Linear.",
        "We finished moving off Linear to YouTrack.",
        "change:instead",
    ),
    (
        "The flat is heated with a gas boiler.",
        "We got a heat pump and the old gas boiler went to the tip.",
        "change:instead",
    ),
    (
        "The status page is Statuspage.",
        "Statuspage got too pricey so we moved to Instatus.",
        "change:instead",
    ),
    # a lasting new date still retires the old one
    (
        "The quiz night is on Fridays.",
        "From next month the quiz night is on Saturdays.",
        "single-valued",
    ),
    # "bucks" is a currency
    ("Lunch costs $9 at the canteen.", "The canteen raised lunch to eleven bucks.", "change:moved"),
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
    # a decision on another thing; a return to service of another thing
    ("The visa application is under review.", "The embassy rejected my parking permit."),
    ("The east entrance is closed for repairs.", "The west entrance is open again."),
    # an award is no job; another person; the same title; "Belle" is not "Bell"
    ("Tom is a nurse.", "Tom was named employee of the month."),
    ("Femi is a sales manager.", "Mr. Okafor was appointed head last term."),
    ("Lena is a senior associate.", "The firm made Lena a senior associate."),
    ("Jon Bell is the project lead.", "Jon Belle, the new QA contractor, joins next week."),
    # a successor in another role; the old value as the fact's subject; a complaint alone
    ("Bob is our treasurer.", "Ana replaced Bob as goalkeeper."),
    ("Linear sends us weekly digests.", "We finished moving off Linear to YouTrack."),
    ("The status page is Statuspage.", "Statuspage got too pricey."),
    ("The flat is heated with a gas boiler.", "The old gas boiler is noisy."),
    # "every" counts, it is no thing both name; a date of one occasion ("This month …")
    ("We meet the landlord every Monday.", "We've switched to paying rent every other Thursday."),
    ("The quiz night is the first Friday of the month.", "This month quiz night is on Saturday."),
    # a number alone that is the same, or against a number with a unit
    ("The worker pool size is 8.", "We raised the worker pool size to 8."),
    # a number of a code is not a count; a verb after a code is not a slot
    ("Jira: OPS-1120 transitioned to Done.", "Jira: OPS-1102 transitioned to Done."),
    # the subject of a move is the one moved, not the team they moved to
    ("The sales team reports into finance.", "Ruth transferred to the Madrid team."),
    # a name in a reason is not what the fact is about
    ("Choir is on Monday because of Easter.", "Easter at our house is off."),
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
