"""RuleConflictResolver: updates of single-valued attributes and negations conflict,
complements and look-alikes do not; every input is checked."""

from __future__ import annotations

import time

import pytest

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.memory import (
    ConflictResolver,
    Contradiction,
    RuleConflictResolver,
    parse_claims,
)
from groundgraph.memory.conflicts import MAX_CANDIDATES
from groundgraph.memory.conflicts.rules import MAX_CLAIM_TEXT

RESOLVER = RuleConflictResolver()

# (old, new, the rule that must fire): facts written for these tests
UPDATES = [
    ("Ilse lives in Graz.", "Ilse moved to Linz last spring.", "single-valued:location"),
    (
        "Corvid Labs is based in Leeds.",
        "Corvid Labs is now based in York.",
        "single-valued:location",
    ),
    (
        "The spare router is located in Cabinet 4.",
        "The spare router is located in Cabinet 9.",
        "single-valued:location",
    ),
    ("Teo's manager is Wanda.", "Teo's new manager is Rolf.", "single-valued:role:manager"),
    ("Teo reports to Wanda.", "Rolf manages Teo.", "single-valued:role:manager"),
    ("Kim Ito is the CEO of Parcelo.", "Parcelo's CEO is Dev Rao.", "single-valued:role:ceo"),
    (
        "The kiln is owned by the art club.",
        "The kiln was bought by the school.",
        "single-valued:role:owner",
    ),
    (
        "The pier repair is in progress.",
        "The pier repair is on hold.",
        "single-valued:status:lifecycle",
    ),
    (
        "The pier repair is active.",
        "The pier repair was cancelled.",
        "single-valued:status:lifecycle",
    ),
    ("The mail server is up.", "The mail server is down.", "single-valued:status:availability"),
    (
        "The loan request was approved.",
        "The loan request was rejected.",
        "single-valued:status:approval",
    ),
    (
        "The board meeting is scheduled for May 3.",
        "The board meeting was moved to May 10.",
        "single-valued:date:event",
    ),
    ("The essay is due on Friday.", "The essay is due on Monday.", "single-valued:date:deadline"),
    ("The course starts on 2 March.", "The course starts on 9 March.", "single-valued:date:start"),
    ("A lift pass costs 40 euros.", "A lift pass now costs 46 euros.", "single-valued:price"),
    ("Parcelo has 85 employees.", "Parcelo employs 120 people.", "single-valued:count:employee"),
    (
        "The travel budget is $9,000.",
        "The travel budget was cut to $6,500.",
        "single-valued:budget",
    ),
    ("Ilse is 29 years old.", "Ilse turned 30.", "single-valued:age"),
    ("Teo works at Parcelo.", "Teo left Parcelo.", "no-longer:employer"),
    ("Teo works at Parcelo.", "Teo now works for Corvid Labs.", "single-valued:employer"),
    ("Ilse lives in Graz.", "Ilse no longer lives in Graz.", "negation"),
    ("The ferry runs on Sundays.", "The ferry does not run on Sundays.", "negation"),
    ("The ferry does not run on Sundays.", "The ferry runs on Sundays.", "negation"),
    ("Teo eats fish.", "Teo never eats fish.", "negation"),
    ("Teo eats fish.", "Teo doesn't eat fish anymore.", "negation"),
    ("Ilse used to live in Graz.", "Ilse lives in Graz.", "negation"),
    ("Ilse wohnt in Graz.", "Ilse wohnt jetzt in Wien.", "single-valued:location"),
    ("Ilse habite à Lyon.", "Ilse habite à Nice.", "single-valued:location"),
    ("Ilse vive en Cádiz.", "Ilse vive ahora en Vigo.", "single-valued:location"),
    ("Ilse woont in Delft.", "Ilse woont nu in Breda.", "single-valued:location"),
    ("Ilse wohnt in Graz.", "Ilse wohnt nicht mehr in Graz.", "negation"),
]

# (old, new): they can both hold
COMPLEMENTS = [
    ("Corvid Labs is based in Leeds.", "Corvid Labs also has an office in York."),
    ("Ilse lives in Graz.", "Ilse also rents a flat in Vienna."),
    ("Teo likes chess.", "Teo likes rowing."),
    ("Teo visited Oslo.", "Teo visited Tromsø."),
    ("Teo speaks Finnish.", "Teo speaks Swedish."),
    ("Ilse lives in Graz.", "Ilse works in Vienna."),
    ("Ilse lives in Graz.", "Ilse lived in Salzburg as a child."),
    ("Ilse lives in Graz.", "Ilse is in Vienna this week."),
    ("Ilse lives in Graz.", "Ilse lives in Austria."),
    ("Ilse lives in Graz.", "Ilse lives in Graz, Austria."),
    ("The course starts on 2 March.", "The course ends on 9 March."),
    ("The course starts on 2 March.", "The course starts in March."),
    ("The board meeting is scheduled for May 3.", "The board meeting is scheduled for Friday."),
    ("Parcelo has 85 employees.", "Parcelo has 12 vans."),
    ("The travel budget is $9,000.", "The travel budget is about $9,200."),
    ("A lift pass costs 40 euros.", "A day ticket costs 12 euros."),
    ("Teo reports to Wanda.", "Ilse reports to Rolf."),
    ("Kim Ito is the CEO of Parcelo.", "Dev Rao is the CTO of Parcelo."),
    ("Kim Ito is the CEO of Parcelo.", "Kim Ito is the CEO of Corvid Labs."),
    ("The pier repair is in progress.", "The pier repair is over budget."),
    ("The ticket is resolved.", "The ticket is closed."),
    ("The mail server is up.", "The mail server was down last night."),
    ("Teo eats fish.", "Teo does not eat shellfish."),
    ("Teo likes Ilse.", "Ilse does not like Teo."),
    ("Teo likes food.", "Teo does not like spicy food."),
    ("Ilse owns a bike.", "Teo owns a bike."),
    ("Deforestation leads to soil erosion.", "Overgrazing leads to soil erosion."),
    ("Ilse lives in Graz.", "She moved to Linz."),
    ("Teo works at Parcelo.", "Teo works at Parcelo."),
    ("Teo works at Parcelo.", "Teo has not left Parcelo."),
    ("Teo works at Parcelo.", "Teo left the meeting early."),
]


def ids(pairs: list[tuple[str, ...]]) -> list[str]:
    return [f"{p[0]} -> {p[1]}" for p in pairs]


@pytest.mark.parametrize(("old", "new", "rule"), UPDATES, ids=ids(UPDATES))
def test_updates_contradict_with_the_rule_that_fired(old: str, new: str, rule: str) -> None:
    found = RESOLVER.contradictions(new, [old])
    assert found == [Contradiction(old, rule, found[0].detail if found else "")]
    assert found[0].detail


@pytest.mark.parametrize(("old", "new"), COMPLEMENTS, ids=ids(COMPLEMENTS))
def test_complements_do_not_contradict(old: str, new: str) -> None:
    assert RESOLVER.contradictions(new, [old]) == []
    assert RESOLVER.explain(new, old) is None


def test_detail_names_the_subject_and_both_values() -> None:
    found = RESOLVER.explain("Ilse moved to Linz.", "Ilse lives in Graz.")
    assert found is not None
    assert "ilse" in found.detail and "Graz" in found.detail and "Linz" in found.detail
    assert found.to_dict() == {
        "candidate": "Ilse lives in Graz.",
        "rule": "single-valued:location",
        "detail": found.detail,
    }


def test_only_the_contradicted_candidates_come_back_in_order_once() -> None:
    candidates = [
        "Ilse likes tea.",
        "Ilse lives in Graz.",
        "Teo lives in Graz.",
        "Ilse is based in Graz.",
        "Ilse lives in Graz.",
    ]
    found = RESOLVER.contradictions("Ilse moved to Linz.", candidates)
    assert [c.candidate for c in found] == ["Ilse lives in Graz.", "Ilse is based in Graz."]


def test_pronoun_takes_the_subject_named_before_it() -> None:
    new = "Ilse sold her flat. She moved to Linz."
    assert RESOLVER.explain(new, "Ilse lives in Graz.") is not None


def test_a_following_clause_keeps_the_subject() -> None:
    claims = parse_claims("Teo moved to Linz and now works at Parcelo.")
    assert {(c.subject, c.attribute, c.value) for c in claims} == {
        ("teo", "location", "Linz"),
        ("teo", "employer", "Parcelo"),
    }


def test_additive_and_negated_clauses_make_no_plain_claims() -> None:
    (claim,) = parse_claims("Ilse also lives in Vienna.")
    assert claim.additive
    assert parse_claims("Ilse does not live in Vienna.") == ()
    assert [c.positive for c in parse_claims("Teo left Parcelo.")] == [False, False]


def test_rules_can_be_switched_off() -> None:
    update = ("Ilse moved to Linz.", "Ilse lives in Graz.")
    negation = ("Ilse no longer lives in Graz.", "Ilse lives in Graz.")
    only_negation = RuleConflictResolver(single_valued=False, changes=False)
    assert only_negation.explain(*update) is None
    assert only_negation.explain(*negation) is not None
    moved = RuleConflictResolver(single_valued=False, changes=True).explain(*update)
    assert moved is not None and moved.rule == "change:moved"
    no_negation = RuleConflictResolver(negation=False, changes=False)
    assert no_negation.explain(*negation) is None
    assert no_negation.explain(*update) is not None
    assert (
        RuleConflictResolver(changes=False).explain(
            "Teo cancelled the pottery course.", "Teo takes a pottery course."
        )
        is None
    )


def test_it_is_a_conflict_resolver() -> None:
    assert isinstance(RESOLVER, ConflictResolver)


# ---- hostile input ---------------------------------------------------------------------


@pytest.mark.parametrize("new", [None, 3, b"Ilse lives in Graz.", ["Ilse"], {"a": 1}])
def test_a_new_fact_that_is_not_text_is_refused(new: object) -> None:
    with pytest.raises(InputError, match="must be a string"):
        RESOLVER.contradictions(new, ["Ilse lives in Graz."])  # type: ignore[arg-type]


@pytest.mark.parametrize("candidates", ["Ilse lives in Graz.", b"x", None, 7, {"a"}])
def test_candidates_that_are_not_a_list_are_refused(candidates: object) -> None:
    with pytest.raises(InputError, match="list of strings"):
        RESOLVER.contradictions("Ilse lives in Linz.", candidates)  # type: ignore[arg-type]


def test_a_candidate_that_is_not_text_is_named() -> None:
    with pytest.raises(InputError, match="candidate 1 is a int"):
        RESOLVER.contradictions("Ilse lives in Linz.", ["Ilse lives in Graz.", 5])  # type: ignore[list-item]


def test_too_many_candidates_is_a_size_error() -> None:
    with pytest.raises(InputTooLargeError, match="nearest facts"):
        RESOLVER.contradictions("x", ["y"] * (MAX_CANDIDATES + 1))


@pytest.mark.parametrize("new", ["", "   ", "\x00\x01\x02", "🙂🙂", "." * 50])
def test_empty_or_wordless_facts_contradict_nothing(new: str) -> None:
    assert RESOLVER.contradictions(new, ["Ilse lives in Graz.", "", "\x00"]) == []


def test_only_the_head_of_a_huge_fact_is_read_and_quickly() -> None:
    # Capitalised filler: the one sentence splitter (text.sentence_spans) does not end a
    # sentence at a period followed by a lower-case word, so with "word " the head would be
    # one long sentence "Ilse moved to Linz. word word ..." and make no claim.
    filler = "Word " * 400_000  # 2 MB
    head = "Ilse moved to Linz. " + filler
    tail = "Rain fell. " + filler[:MAX_CLAIM_TEXT] + " Ilse moved to Linz."
    started = time.perf_counter()
    assert RESOLVER.explain(head, "Ilse lives in Graz.") is not None
    assert RESOLVER.explain(tail, "Ilse lives in Graz.") is None
    assert RESOLVER.explain("Ilse moved to Linz.", filler) is None
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize(
    "text",
    [
        "is " * 3000,
        "The " + "very " * 2000 + "old server is in",
        ("Ilse's manager's " * 300) + "is Rolf.",
        "a, " * 3000 + "lives in Graz",
        "X moved from " + "A to " * 1500 + "B.",
    ],
)
def test_pathological_sentences_parse_in_bounded_time(text: str) -> None:
    started = time.perf_counter()
    parse_claims(text)
    RESOLVER.explain(text, "Ilse lives in Graz.")
    assert time.perf_counter() - started < 2
