"""The kinship algebra: the table derived from parent, child, spouse and sibling links.

Checked against a second definition of the words on people (``kinship_model``): every
answer the table gives from exact readings is true of every family walk, every key is
decided or left out with a documented reason, and the algebra is symmetric under gender
swaps and inverses. The chains are written by hand; no dataset is used.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from functools import cache
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.errors import InputError
from groundgraph.reason.relations import (
    KINSHIP_RELATIONS,
    KINSHIP_TERMS,
    ChainStep,
    derive_kinship_algebra,
    fold,
    fold_chain,
    inverse_relation,
    kinship_algebra,
    kinship_table,
    kinship_word,
)
from groundgraph.reason.relations.kinship import (
    NO_INSTANCE,
    NO_WORD,
    PRESUMES_GENDER,
    TIE,
    key_readings,
    kinship_json,
)
from groundgraph.reason.relations.kinship_model import FEMALE, MALE, family_model, reach
from groundgraph.reason.relations.kinship_paths import TERM_PATHS

PRIMITIVES = ("father", "mother", "son", "daughter", "husband", "wife", "brother", "sister")
GENDER_OF = {word: MALE if i % 2 == 0 else FEMALE for i, word in enumerate(KINSHIP_RELATIONS)}
PARENTS, CHILDREN = {"father", "mother"}, {"son", "daughter"}


def steps(*words: str) -> list[ChainStep]:
    return [(word, GENDER_OF[word]) for word in words]


def word_fold(*words: str) -> str | None:
    found = fold(steps(*words), kinship_table())
    return kinship_word(found) if found is not None else None


# -- hand-written chains ------------------------------------------------------------------


def test_everyday_compositions() -> None:
    assert word_fold("father", "brother") == "uncle"
    assert word_fold("son", "wife") == "daughter-in-law"
    assert word_fold("husband", "mother") == "mother-in-law"
    assert word_fold("sister", "son") == "nephew"
    assert word_fold("mother", "mother") == "grandmother"
    assert word_fold("daughter", "son") == "grandson"
    assert word_fold("father", "brother", "wife") == "aunt"
    assert word_fold("mother", "father", "son") == "uncle"
    assert word_fold("husband", "father", "wife") == "mother-in-law"
    assert word_fold("son", "daughter", "brother") == "grandson"


def test_chains_to_people_without_a_word_have_no_answer() -> None:
    assert word_fold("wife", "sister", "husband") is None  # the wife's sister's husband
    assert word_fold("brother", "wife", "father") is None  # the brother's father-in-law
    assert word_fold("father", "mother", "daughter", "son") is None  # a cousin
    assert word_fold("son", "son", "sister", "husband") is None  # a granddaughter's husband


def test_long_chains_compose() -> None:
    assert word_fold("wife", "mother", "husband", "son", "son") == "nephew"
    # the aunt's sister is someone new: another aunt, not the mother the chain named
    assert word_fold("mother", "sister", "husband", "wife", "sister") == "aunt"
    assert word_fold("husband", "brother", "son", "grandfather") == "father-in-law"
    assert word_fold("grandmother", "son", "wife") == "aunt"
    assert word_fold("sister", "son", "sister", "mother") == "sister"


def test_closest_reading_decides_ambiguous_compositions() -> None:
    algebra = kinship_algebra()
    # x's son's grandfather: x's father (1 link) or x's father-in-law (2)
    assert kinship_word(algebra.rules["son", "grandfather", MALE]) == "father"
    assert algebra.closest["son", "grandfather", MALE] == ("father-in-law",)
    # x's nephew's uncle: x's brother or x's husband, one link each; fewer marriages wins
    assert algebra.rules["nephew", "uncle", MALE] == "brother"
    # different people: x's aunt's sister is another aunt, not x's mother
    assert kinship_word(algebra.rules["aunt", "sister", FEMALE]) == "aunt"
    # a spouse's spouse is the person we came from: x's aunt's husband's wife is the aunt
    assert kinship_word(algebra.rules["uncle (aunt's husband)", "wife", FEMALE]) == "aunt"


def test_kinds_of_a_word_keep_what_the_chain_said() -> None:
    table = kinship_table()
    assert table["husband", "sister", FEMALE] == "sister-in-law (spouse's sister)"
    assert table["brother", "wife", FEMALE] == "sister-in-law (brother's wife)"
    # x's husband's sister's daughter's grandmother: the husband's mother
    assert word_fold("husband", "sister", "daughter", "grandmother") == "mother-in-law"
    assert word_fold("brother", "daughter", "grandmother") == "mother"


def test_left_out_keys_say_why() -> None:
    left_out = kinship_algebra().left_out
    # x's daughter's father is x's husband only if x is a woman (else x himself)
    assert left_out["daughter", "father", MALE].reason == PRESUMES_GENDER
    assert left_out["daughter", "father", MALE].candidates == ("husband",)
    assert left_out["uncle", "son", MALE].reason == NO_WORD  # a cousin
    assert left_out["husband", "husband", MALE].reason == NO_INSTANCE
    assert ("daughter", "father", MALE) not in kinship_table()


def test_line_of_descent_reads_a_childs_grandparent_through_x() -> None:
    # (daughter, father) presumes x's gender, so father + father combine first
    folded = fold_chain(steps("daughter", "father", "father"), kinship_table())
    assert folded.relation == "father"
    assert [r.key for r in folded.reductions] == [
        ("father", "father", MALE),
        ("daughter", "grandfather", MALE),
    ]


def test_readings_of_unknown_words_are_refused() -> None:
    with pytest.raises(InputError, match="not a kinship term"):
        key_readings("colleague", "son", MALE)
    with pytest.raises(InputError, match="not a kinship term"):
        key_readings("father", "son", "m")


def test_the_table_is_a_fresh_copy() -> None:
    table = kinship_table()
    table["x", "y", MALE] = "z"
    assert ("x", "y", MALE) not in kinship_table()


# -- the shipped table and its vocabulary --------------------------------------------------


def test_the_shipped_table_is_what_the_algebra_derives() -> None:
    derived = derive_kinship_algebra()
    assert derived == kinship_algebra()
    text = kinship_json(derived)
    shipped = resources.files("groundgraph.reason.relations").joinpath("kinship_table.json")
    assert shipped.read_text("utf-8") == text


def test_every_key_is_decided_or_left_out_with_a_reason() -> None:
    algebra = kinship_algebra()
    for r1, r2, gender in itertools.product(KINSHIP_TERMS, KINSHIP_TERMS, (MALE, FEMALE)):
        key = (r1, r2, gender)
        if not any(path[-1][1] == gender for path in TERM_PATHS[r2]):
            continue  # r2 never ends at a person of that gender
        assert (key in algebra.rules) != (key in algebra.left_out), key
    assert {out.reason for out in algebra.left_out.values()} <= {
        NO_WORD,
        PRESUMES_GENDER,
        NO_INSTANCE,
        TIE,
    }
    assert all(kinship_word(r) in KINSHIP_RELATIONS for r in algebra.rules.values())
    assert set(algebra.closest) <= set(algebra.rules)


# -- against the family model --------------------------------------------------------------


@cache
def _family() -> tuple[int, dict[str, list[set[int]]]]:
    model = family_model(founders=8, seed=3)
    return len(model.people), reach(model)


def _walk_ends(words: tuple[str, ...]) -> dict[int, set[int]]:
    """For each x, whom the words lead to along walks of different people."""
    people, by_word = _family()
    ends: dict[int, set[int]] = defaultdict(set)
    for x in range(people):
        walks: list[tuple[int, ...]] = [(x,)]
        for word in words:
            walks = [(*w, z) for w in walks for z in by_word[word][w[-1]] if z not in w]
        for walk in walks:
            ends[x].add(walk[-1])
    return ends


def test_every_rule_between_words_holds_for_some_family() -> None:
    _, by_word = _family()
    for (r1, r2, _), relation in kinship_table().items():
        if r1 in KINSHIP_RELATIONS and r2 in KINSHIP_RELATIONS:
            word = kinship_word(relation)
            ends = _walk_ends((r1, r2))
            assert any(z in by_word[word][x] for x, zs in ends.items() for z in zs), (r1, r2)


def test_primitive_chains_up_to_three_compose_or_stop_at_documented_keys() -> None:
    """Every chain of up to three parent/child/spouse/sibling words a family allows.

    Exact answers are true of every walk; an answer from a closest reading is true of
    some walk, unless it reads a child's parent as the parent the chain came through
    (the line of descent: x's son's father's father is read as x's father).
    """
    _, by_word = _family()
    algebra = kinship_algebra()
    for n in (2, 3):
        for words in itertools.product(PRIMITIVES, repeat=n):
            ends = _walk_ends(words)
            if not any(ends.values()):
                continue  # no family has it (x's father's husband)
            folded = fold_chain(steps(*words), algebra.rules)
            if folded.relation is None:
                rest = folded.remaining
                assert all(
                    (a.relation, b.relation, b.tag) in algebra.left_out
                    for a, b in itertools.pairwise(rest)
                ), words
                continue
            word = kinship_word(folded.relation)
            true_of = [z in by_word[word][x] for x, zs in ends.items() for z in zs]
            if all(r.key not in algebra.closest for r in folded.reductions):
                assert all(true_of), words
            elif not any(true_of):
                assert any(a in CHILDREN and b in PARENTS for a, b in itertools.pairwise(words))


def test_every_key_the_family_reads_one_way_is_in_the_table() -> None:
    """Where the family model shows one word for a key, the table has it (or says why not)."""
    people, by_word = _family()
    model = family_model(founders=8, seed=3)
    words_of: list[dict[int, set[str]]] = [defaultdict(set) for _ in range(people)]
    for word, targets in by_word.items():
        for x in range(people):
            for z in targets[x]:
                words_of[x][z].add(word)
    seen: dict[tuple[str, str, str], set[str | None]] = defaultdict(set)
    for x in range(people):
        for r1 in KINSHIP_RELATIONS:
            for y in by_word[r1][x]:
                for r2 in KINSHIP_RELATIONS:
                    for z in by_word[r2][y] - {x}:
                        seen[r1, r2, model.gender(z)] |= words_of[x][z] or {None}
    algebra = kinship_algebra()
    for key, found in seen.items():
        if len(found) == 1 and None not in found:
            if key in algebra.rules:
                assert kinship_word(algebra.rules[key]) in found, key
            else:
                assert algebra.left_out[key].reason == PRESUMES_GENDER, key


# -- properties ------------------------------------------------------------------------------


def _swap(gender: str) -> str:
    return FEMALE if gender == MALE else MALE


def _swap_term(term: str) -> str:
    mirrored = {tuple((link, _swap(g)) for link, g in path) for path in TERM_PATHS[term]}
    return next(t for t, paths in TERM_PATHS.items() if paths == mirrored)


KEYS = sorted(kinship_algebra().rules.keys() | kinship_algebra().left_out.keys())


@given(st.sampled_from(KEYS))
def test_swapping_every_gender_swaps_the_answer(key: tuple[str, str, str]) -> None:
    algebra = kinship_algebra()
    r1, r2, gender = key
    mirror = (_swap_term(r1), _swap_term(r2), _swap(gender))
    if key in algebra.rules:
        assert algebra.rules[mirror] == _swap_term(algebra.rules[key])
    else:
        assert algebra.left_out[mirror].reason == algebra.left_out[key].reason


@given(st.sampled_from(KINSHIP_RELATIONS), st.sampled_from((MALE, FEMALE)))
def test_composing_with_the_inverse_gives_back_the_relation(relation: str, gender: str) -> None:
    """y is x's relation, z is y's inverse relation (as x is): y is z's relation too."""
    inverse = inverse_relation(relation, gender)
    assert inverse is not None
    assert inverse_relation(inverse, GENDER_OF[relation]) == relation
    back = kinship_table().get((relation, inverse, gender))
    if back is not None:
        assert relation in key_readings(back, relation, GENDER_OF[relation])


@given(
    st.lists(st.sampled_from(PRIMITIVES), min_size=1, max_size=3),
    st.lists(st.sampled_from(PRIMITIVES), min_size=1, max_size=3),
)
def test_two_primitive_chains_compose_to_a_word_or_a_documented_key(
    first: list[str], second: list[str]
) -> None:
    algebra = kinship_algebra()
    folded = fold_chain(steps(*first, *second), algebra.rules)
    if folded.relation is not None:
        assert kinship_word(folded.relation) in KINSHIP_RELATIONS
    else:
        assert all(
            (a.relation, b.relation, b.tag) in algebra.left_out
            for a, b in itertools.pairwise(folded.remaining)
        )


def test_inverse_relation() -> None:
    assert inverse_relation("father", FEMALE) == "daughter"
    assert inverse_relation("uncle", MALE) == "nephew"
    assert inverse_relation("uncle (aunt's husband)", FEMALE) == "niece"
    assert inverse_relation("sister-in-law", MALE) == "brother-in-law"
    assert inverse_relation("wife", MALE) == "husband"
    assert inverse_relation("colleague", MALE) is None
