"""The resolver's promises, over generated facts, and the value rules it compares with."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.memory import RuleConflictResolver, parse_claims
from groundgraph.memory.conflicts.values import date_parts, parse_number, place_level, values_differ

RESOLVER = RuleConflictResolver()

NAMES = ["Ilse", "Teo", "Wanda", "Rolf", "Kim Ito", "Dev Rao", "Parcelo", "Corvid Labs"]
CITIES = ["Graz", "Linz", "Leeds", "York", "Delft", "Breda", "Cádiz", "Tromsø"]
TEMPLATES = [
    "{s} lives in {v}.",
    "{s} is based in {v}.",
    "{s} moved to {v}.",
    "{s} is now located in {v}.",
]
names = st.sampled_from(NAMES)
cities = st.sampled_from(CITIES)
templates = st.sampled_from(TEMPLATES)


@given(names, cities, cities, templates, templates)
def test_one_location_per_subject(
    subject: str, old_city: str, new_city: str, old_t: str, new_t: str
) -> None:
    old, new = old_t.format(s=subject, v=old_city), new_t.format(s=subject, v=new_city)
    found = RESOLVER.contradictions(new, [old])
    assert bool(found) == (old_city != new_city)
    if found:
        assert found[0].candidate == old and found[0].rule == "single-valued:location"


@given(names, names, cities, cities)
def test_different_subjects_never_conflict(a: str, b: str, x: str, y: str) -> None:
    if a != b:
        assert RESOLVER.contradictions(f"{a} lives in {x}.", [f"{b} lives in {y}."]) == []


@given(names, cities, cities, st.sampled_from(["likes", "visited", "photographed", "knows"]))
def test_multi_valued_relations_never_conflict(s: str, x: str, y: str, verb: str) -> None:
    assert RESOLVER.contradictions(f"{s} {verb} {x}.", [f"{s} {verb} {y}."]) == []


ADDITIVE = ["{s} also lives in {v}.", "{s} lives in {v} as well.", "{s} lives in {v} too."]


@given(names, cities, cities, st.sampled_from(ADDITIVE))
def test_additive_statements_never_conflict(s: str, x: str, y: str, template: str) -> None:
    new = template.format(s=s, v=y)
    assert RESOLVER.contradictions(new, [f"{s} lives in {x}."]) == []


@given(st.text(max_size=200))
def test_a_fact_never_contradicts_itself(text: str) -> None:
    assert RESOLVER.contradictions(text, [text]) == []


@given(st.text(max_size=120), st.lists(st.text(max_size=120), max_size=6))
def test_answers_are_candidates_in_order_and_deterministic(new: str, candidates: list[str]) -> None:
    first = RESOLVER.contradictions(new, candidates)
    assert first == RESOLVER.contradictions(new, candidates)
    positions = [candidates.index(c.candidate) for c in first]
    assert positions == sorted(set(positions))


@given(st.text(max_size=300))
def test_claims_parse_any_text_and_keep_their_shape(text: str) -> None:
    for claim in parse_claims(text):
        assert claim.subject and claim.value and claim.attribute
        assert claim.kind in ("name", "place", "status", "date", "number")


@given(names, st.sampled_from(["lives in Graz", "likes tea", "is active", "owns the kiln"]))
def test_a_negation_contradicts_its_statement_both_ways(s: str, rest: str) -> None:
    verb, _, tail = rest.partition(" ")
    negated = {
        "lives": f"{s} does not live {tail}.",
        "likes": f"{s} does not like {tail}.",
        "is": f"{s} is not {tail}.",
        "owns": f"{s} does not own {tail}.",
    }[verb]
    positive = f"{s} {rest}."
    assert [c.rule for c in RESOLVER.contradictions(negated, [positive])] == ["negation"]
    assert [c.rule for c in RESOLVER.contradictions(positive, [negated])] == ["negation"]


# ---- values, checked by hand ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$1.2 million", (1_200_000.0, "usd", False)),
        ("1,200,000 dollars", (1_200_000.0, "usd", False)),
        ("about 40", (40.0, "", True)),
        ("6.1%", (6.1, "%", False)),
        ("twelve", (12.0, "", False)),
        ("no", (0.0, "", False)),
        ("€250k", (250_000.0, "eur", False)),
        ("more than 5", None),
        ("between 5 and 10", None),
        ("several", None),
        ("", None),
    ],
)
def test_numbers(text: str, expected: tuple[float, str, bool] | None) -> None:
    assert parse_number(text) == expected


@pytest.mark.parametrize(
    ("a", "b", "differ"),
    [
        ("$1.2 million", "1,200,000 dollars", False),
        ("about 40", "43", False),
        ("about 40", "46", True),
        ("40", "41", True),
        ("$10", "9 euros", False),
    ],
)
def test_numbers_differ(a: str, b: str, differ: bool) -> None:
    assert values_differ("number", a, b) is differ


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("May 3", {"month": 5, "day": 3, "quarter": 2}),
        ("3 May 2026", {"month": 5, "day": 3, "year": 2026, "quarter": 2}),
        ("2026-11-30", {"year": 2026, "month": 11, "day": 30, "quarter": 4}),
        ("Friday", {"weekday": 4}),
        ("Q3", {"quarter": 3}),
        ("5pm", {"hour": 17, "minute": 0}),
        ("next week", {"relative": "next week"}),
        ("the blue room", {}),
    ],
)
def test_date_parts(text: str, parts: dict[str, object]) -> None:
    assert date_parts(text) == parts


@pytest.mark.parametrize(
    ("a", "b", "differ"),
    [
        ("May 3", "May 10", True),
        ("May", "May 10", False),
        ("May 3", "Friday", False),
        ("Q2", "June", False),
        ("Q2", "July", True),
        ("next week", "tomorrow", True),
        ("9am", "10am", True),
    ],
)
def test_dates_differ(a: str, b: str, differ: bool) -> None:
    assert values_differ("date", a, b) is differ


@pytest.mark.parametrize(
    ("a", "b", "differ"),
    [
        ("Graz", "Graz, Austria", False),
        ("Graz", "Austria", False),
        ("Austria", "Europe", False),
        ("Austria", "Spain", True),
        ("the United States", "Canada", True),
        ("Graz", "Linz", True),
        ("New York", "New York City", False),
    ],
)
def test_places_differ(a: str, b: str, differ: bool) -> None:
    assert values_differ("place", a, b) is differ
    assert place_level("europe") == 2 and place_level("united state") == 1


def test_statuses_in_one_group_or_compatible_agree() -> None:
    assert not values_differ("status", "lifecycle/done", "lifecycle/retired")
    assert values_differ("status", "lifecycle/active", "lifecycle/paused")
