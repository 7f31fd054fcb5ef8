"""A kinship composition table, written from the everyday meaning of family words.

Each word is defined on a family model (``KINSHIP_WORDS``): "x's uncle" is a brother of a
parent of x or the husband of a parent's sister, and so on. A table entry
``(r1, r2, g) -> r`` says: whenever y is the r1 of x and z, of gender g, is the r2 of y
(and z is not x), z is the r of x. ``derive_kinship_table`` finds these entries by
enumerating models of nuclear families (married couples, each with two sons and two
daughters, over five generations; nobody marries a relative and no two marriages join the
same two families) and keeps a key only when one word holds in every instance. Ambiguous
keys stay out: "x's nephew's father" may be x's brother or x's brother-in-law, so the
table has no answer for it.

The shipped table (``kinship_table.json``) is the output of ``derive_kinship_table()``; a
test checks that they agree. Nothing in it comes from any dataset.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from groundgraph.reason.relations.composition import RuleKey

MALE, FEMALE = "male", "female"


@dataclass
class _Person:
    gender: str
    parents: tuple[int, ...] = ()
    spouse: int | None = None
    children: list[int] = field(default_factory=list)


class FamilyModel:
    """People with a gender, parents, a spouse and children."""

    def __init__(self) -> None:
        self.people: list[_Person] = []

    def add(self, gender: str, parents: tuple[int, ...] = ()) -> int:
        self.people.append(_Person(gender, parents))
        for parent in parents:
            self.people[parent].children.append(len(self.people) - 1)
        return len(self.people) - 1

    def marry(self, a: int, b: int) -> None:
        self.people[a].spouse, self.people[b].spouse = b, a

    def gender(self, x: int) -> str:
        return self.people[x].gender

    def parents(self, xs: set[int]) -> set[int]:
        return {p for x in xs for p in self.people[x].parents}

    def children(self, xs: set[int]) -> set[int]:
        return {c for x in xs for c in self.people[x].children}

    def spouses(self, xs: set[int]) -> set[int]:
        return {s for x in xs if (s := self.people[x].spouse) is not None}

    def siblings(self, xs: set[int]) -> set[int]:
        return {s for x in xs for s in self.children(self.parents({x})) if s != x}

    def ancestors(self, x: int) -> set[int]:
        found, todo = {x}, [x]
        while todo:
            for p in self.people[todo.pop()].parents:
                if p not in found:
                    found.add(p)
                    todo.append(p)
        return found


Kin = Callable[[FamilyModel, set[int]], set[int]]


def _uncles(m: FamilyModel, x: set[int]) -> set[int]:
    return m.siblings(m.parents(x)) | m.spouses(m.siblings(m.parents(x)))


def _nephews(m: FamilyModel, x: set[int]) -> set[int]:
    return m.children(m.siblings(x) | m.siblings(m.spouses(x)))


#: Each kinship relation: who it reaches (any gender), then its male and female words.
KINSHIP_WORDS: dict[str, tuple[Kin, str, str]] = {
    "parent": (lambda m, x: m.parents(x), "father", "mother"),
    "child": (lambda m, x: m.children(x), "son", "daughter"),
    "spouse": (lambda m, x: m.spouses(x), "husband", "wife"),
    "sibling": (lambda m, x: m.siblings(x), "brother", "sister"),
    "grandparent": (lambda m, x: m.parents(m.parents(x)), "grandfather", "grandmother"),
    "grandchild": (lambda m, x: m.children(m.children(x)), "grandson", "granddaughter"),
    "parent's sibling": (_uncles, "uncle", "aunt"),
    "sibling's child": (_nephews, "nephew", "niece"),
    "parent-in-law": (lambda m, x: m.parents(m.spouses(x)), "father-in-law", "mother-in-law"),
    "child-in-law": (lambda m, x: m.spouses(m.children(x)), "son-in-law", "daughter-in-law"),
    "sibling-in-law": (
        lambda m, x: m.siblings(m.spouses(x)) | m.spouses(m.siblings(x)),
        "brother-in-law",
        "sister-in-law",
    ),
}

#: Every word of the table's vocabulary.
KINSHIP_RELATIONS: tuple[str, ...] = tuple(
    word for _, male, female in KINSHIP_WORDS.values() for word in (male, female)
)


def family_model(founders: int = 8, generations: int = 5, seed: int = 0) -> FamilyModel:
    """Nuclear families: each couple has two sons and two daughters.

    Nobody marries a relative, and two families are linked by at most one marriage (so
    two brothers never marry two sisters, which would make every such pair look like a
    rule). Partners are matched in a seeded random order.
    """
    rng = random.Random(seed)
    model = FamilyModel()
    couples = []
    for _ in range(founders):
        husband, wife = model.add(MALE), model.add(FEMALE)
        model.marry(husband, wife)
        couples.append((husband, wife))
    for _ in range(generations - 1):
        sons, daughters = [], []
        for couple in couples:
            sons += [model.add(MALE, couple) for _ in range(2)]
            daughters += [model.add(FEMALE, couple) for _ in range(2)]
        rng.shuffle(sons)
        rng.shuffle(daughters)
        couples = []
        linked: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
        for son in sons:
            related = model.ancestors(son)
            for daughter in daughters:
                families = (model.people[son].parents, model.people[daughter].parents)
                if (
                    model.people[daughter].spouse is None
                    and families not in linked
                    and not related & model.ancestors(daughter)
                ):
                    model.marry(son, daughter)
                    couples.append((son, daughter))
                    linked.add(families)
                    break
    return model


def derive_kinship_table(models: Iterable[FamilyModel] | None = None) -> dict[RuleKey, str]:
    """Every (r1, r2, gender) whose composition is the same word in every instance.

    By default the instances come from three family models (seeds 0, 1, 2).
    """
    holding: dict[RuleKey, set[str]] = {}
    for model in models if models is not None else (family_model(seed=s) for s in range(3)):
        _collect(model, holding)
    return {key: next(iter(words)) for key, words in sorted(holding.items()) if len(words) == 1}


def _collect(model: FamilyModel, holding: dict[RuleKey, set[str]]) -> None:
    people = range(len(model.people))
    reach: dict[str, list[set[int]]] = {}
    for kin, male, female in KINSHIP_WORDS.values():
        for word, gender in ((male, MALE), (female, FEMALE)):
            reach[word] = [
                {z for z in kin(model, {x}) if model.gender(z) == gender} for x in people
            ]
    for x in people:
        words_of: dict[int, set[str]] = {}
        for word, targets in reach.items():
            for z in targets[x]:
                words_of.setdefault(z, set()).add(word)
        for r1 in KINSHIP_RELATIONS:
            for y in reach[r1][x]:
                for r2 in KINSHIP_RELATIONS:
                    for z in reach[r2][y]:
                        if z == x:
                            continue
                        key = (r1, r2, model.gender(z))
                        found = words_of.get(z, set())
                        holding[key] = holding[key] & found if key in holding else set(found)


@cache
def _shipped() -> dict[RuleKey, str]:
    text = resources.files(__package__).joinpath("kinship_table.json").read_text("utf-8")
    return {(r1, r2, g): result for r1, r2, g, result in json.loads(text)["rules"]}


def kinship_table() -> dict[RuleKey, str]:
    """The built-in kinship composition table (a fresh copy you may extend)."""
    return dict(_shipped())


def inverse_relation(relation: str, gender: str) -> str | None:
    """If y is the ``relation`` of x, what x is to y, given x's gender; None if unknown."""
    for kin_name, (_, male, female) in KINSHIP_WORDS.items():
        if relation in (male, female):
            inverse = _INVERSES.get(kin_name)
            if inverse is None:
                return None
            _, inv_male, inv_female = KINSHIP_WORDS[inverse]
            return inv_male if gender == MALE else inv_female
    return None


_INVERSES = {
    "parent": "child",
    "child": "parent",
    "spouse": "spouse",
    "sibling": "sibling",
    "grandparent": "grandchild",
    "grandchild": "grandparent",
    "parent's sibling": "sibling's child",
    "sibling's child": "parent's sibling",
    "parent-in-law": "child-in-law",
    "child-in-law": "parent-in-law",
    "sibling-in-law": "sibling-in-law",
}
