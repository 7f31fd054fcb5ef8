"""A model of nuclear families, and the kinship words defined on it.

People have a gender, parents, a spouse and children; ``family_model`` draws the world the
kinship table assumes (``kinship_paths``): couples share their children, siblings are full
siblings, nobody marries a relative, and two families are linked by at most one marriage.
``MODEL_WORDS`` defines each word on the model a second time, independently of the path
algebra, so tests can check every rule of the derived table on people.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

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


#: Each kinship relation on the model: who it reaches (any gender), its male and female
#: words. A second definition of the words, independent of ``kinship_paths``, to check
#: the derived table against.
MODEL_WORDS: dict[str, tuple[Kin, str, str]] = {
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


def reach(model: FamilyModel) -> dict[str, list[set[int]]]:
    """For each word, the people each person has by that word (index: the person)."""
    people = range(len(model.people))
    found: dict[str, list[set[int]]] = {}
    for kin, male, female in MODEL_WORDS.values():
        for word, gender in ((male, MALE), (female, FEMALE)):
            found[word] = [
                {z for z in kin(model, {x}) if model.gender(z) == gender} for x in people
            ]
    return found


def family_model(
    founders: int = 4, generations: int = 5, seed: int = 0, children: int = 3
) -> FamilyModel:
    """Nuclear families: each couple has ``children`` sons and as many daughters.

    Three of each by default, so that everyone has two brothers or sisters of each
    gender (with one, x's brother's brother would always be x). Nobody marries a
    relative, and two families are linked by at most one marriage (a brother and sister
    never marry a sister and brother of one other family: their in-laws would coincide).
    Partners are matched in a seeded random order.
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
            sons += [model.add(MALE, couple) for _ in range(children)]
            daughters += [model.add(FEMALE, couple) for _ in range(children)]
        rng.shuffle(sons)
        rng.shuffle(daughters)
        couples = []
        linked: set[frozenset[tuple[int, ...]]] = set()
        for son in sons:
            related = model.ancestors(son)
            for daughter in daughters:
                families = frozenset((model.people[son].parents, model.people[daughter].parents))
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
