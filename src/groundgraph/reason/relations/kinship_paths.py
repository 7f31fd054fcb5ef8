"""Kinship as paths of four primitive links, and the readings of a composed path.

A path from x is a sequence of steps ``(link, gender)``: ``P`` to a parent, ``C`` to a
child, ``S`` to the spouse, ``B`` to a sibling, each with the gender of the person reached.
Each kinship word is a set of such paths (``TERM_PATHS``): x's uncle is P·B(male) or
P·B(female)·S(male). A word that names two kinds of kin has a *term* for each kind:
"uncle (parent's brother)", "uncle (aunt's husband)".

The world is one of nuclear families: a family is a couple (a man and a woman) and their
children; everyone is a child in one family (``P`` and ``B`` stay in it) and a parent in
at most one (``C`` and ``S`` stay in it), and nobody marries a relative, so families form a
tree. Two steps in a row inside one family can be one step or none: x's son's mother is x
herself or x's wife. ``readings`` rewrites a path until no two steps in a row share a
family, along every branch; what is left is a shortest path in the family tree, so its
length is the number of links from x to the person reached.

The person a path ends at is someone new when its last two steps are a sibling's sibling
or a parent's child (there are others), and may be the person before them when they are
a spouse's spouse (there is no other) or a child's parent (the parent the path came down
through: the line of descent). Steps before the last may meet anyone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from groundgraph.reason.relations.kinship_model import FEMALE, MALE

GENDERS = (MALE, FEMALE)
Step = tuple[str, str]
Path = tuple[Step, ...]


def _other(gender: str) -> str:
    return FEMALE if gender == MALE else MALE


#: Links that arrive at a parent of the family they use (the others arrive at a child).
_TO_PARENT = {"P": True, "S": True, "C": False, "B": False}
#: Links that leave from the family where the person is a child (the others: a parent).
_FROM_CHILDHOOD = {"P": True, "B": True, "C": False, "S": False}

#: Each relation: its link patterns, each with what it is called when the word names more
#: than one (the male and female qualifier); the last step's gender is the word's.
_PATTERNS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "parent": (("P", "", ""),),
    "child": (("C", "", ""),),
    "spouse": (("S", "", ""),),
    "sibling": (("B", "", ""),),
    "grandparent": (("PP", "", ""),),
    "grandchild": (("CC", "", ""),),
    "parent's sibling": (
        ("PB", "parent's brother", "parent's sister"),
        ("PBS", "aunt's husband", "uncle's wife"),
    ),
    "sibling's child": (
        ("BC", "sibling's son", "sibling's daughter"),
        ("SBC", "spouse's sibling's son", "spouse's sibling's daughter"),
    ),
    "parent-in-law": (("SP", "", ""),),
    "child-in-law": (("CS", "", ""),),
    "sibling-in-law": (
        ("SB", "spouse's brother", "spouse's sister"),
        ("BS", "sister's husband", "brother's wife"),
    ),
}

#: The male and female word of each relation.
SURFACE: dict[str, tuple[str, str]] = {
    "parent": ("father", "mother"),
    "child": ("son", "daughter"),
    "spouse": ("husband", "wife"),
    "sibling": ("brother", "sister"),
    "grandparent": ("grandfather", "grandmother"),
    "grandchild": ("grandson", "granddaughter"),
    "parent's sibling": ("uncle", "aunt"),
    "sibling's child": ("nephew", "niece"),
    "parent-in-law": ("father-in-law", "mother-in-law"),
    "child-in-law": ("son-in-law", "daughter-in-law"),
    "sibling-in-law": ("brother-in-law", "sister-in-law"),
}


def _expand(pattern: str, last: str) -> frozenset[Path]:
    paths = (
        tuple(zip(pattern, (*genders, last), strict=True))
        for genders in product(GENDERS, repeat=len(pattern) - 1)
    )
    return frozenset(path for path in paths if _walkable(path, None)[0])


def _term_paths() -> dict[str, frozenset[Path]]:
    """Every word, and every kind of a word that names more than one (its *terms*)."""
    paths: dict[str, frozenset[Path]] = {}
    for relation, patterns in _PATTERNS.items():
        for index, (word, gender) in enumerate(zip(SURFACE[relation], GENDERS, strict=True)):
            for links, *qualifiers in patterns:
                walks = _expand(links, gender)
                kind = f"{word} ({qualifiers[index]})" if qualifiers[index] else word
                for term in {word, kind}:
                    paths[term] = paths.get(term, frozenset()) | walks
    return paths


def _walkable(path: Path, x_gender: str | None) -> tuple[bool, str | None]:
    """Whether someone can walk the path (a spouse is of the other gender), and x's gender
    it needs (None: either)."""
    before = needed = x_gender
    for link, gender in path:
        if link == "S":
            if before is None:
                needed = _other(gender)
            elif before == gender:
                return False, None
        before = gender
    return True, needed


#: Every term and the paths it names: a word names all its kinds ("uncle": a parent's
#: brother or an aunt's husband), a kind one ("uncle (aunt's husband)").
TERM_PATHS = _term_paths()
#: The words.
WORDS = tuple(dict.fromkeys(word for pair in SURFACE.values() for word in pair))
_TERM_OF = {path: term for term, paths in TERM_PATHS.items() for path in paths if term not in WORDS}
_TERM_OF.update({path: w for w in WORDS for path in TERM_PATHS[w] if path not in _TERM_OF})


def term_of(path: Path) -> str | None:
    """The narrowest term a shortest path names, None if none does (x's cousin)."""
    return _TERM_OF.get(path)


def word_of(term: str) -> str:
    """The word of a term: "uncle (aunt's husband)" is an uncle."""
    return term.split(" (", 1)[0]


@dataclass(frozen=True, slots=True)
class PathReading:
    """One way a path can end: the shortest path left, and x's gender if it needs one."""

    path: Path
    x_gender: str | None


def readings(path: Path, x_gender: str | None = None) -> set[PathReading]:
    """Every shortest path the composed ``path`` can be, and x's gender each one needs."""
    walkable, needed = _walkable(path, x_gender)
    return _rewrite(path, needed) if walkable else set()


def _rewrite(path: Path, x_gender: str | None) -> set[PathReading]:
    for i in range(len(path) - 1):
        first, second = path[i], path[i + 1]
        if _TO_PARENT[first[0]] == _FROM_CHILDHOOD[second[0]]:
            continue  # the second step leaves the family the first one arrived in
        here = path[i - 1][1] if i else x_gender
        found: set[PathReading] = set()
        for merged, here_gender in _merge(first, second, here):
            if not merged and i + 2 == len(path) and first[0] + second[0] in ("BB", "PC"):
                continue  # a sibling's sibling, a parent's child: someone new, not "here"
            # a requirement on "here" is new only when here is x of unknown gender
            needed = here_gender if i == 0 and x_gender is None else x_gender
            found |= readings(path[:i] + merged + path[i + 2 :], needed)
        return found
    return {PathReading(path, x_gender)}


def _merge(first: Step, second: Step, here: str | None) -> Iterator[tuple[Path, str | None]]:
    """What two steps inside one family can be from the person ``here`` (gender or None).

    Yields the step (or none, back at that person) and the gender that person must have
    (None when nothing is required).
    """
    as_child = _FROM_CHILDHOOD[first[0]]  # is "here" a child of the family both steps use?
    y_parent, t_parent = _TO_PARENT[first[0]], _TO_PARENT[second[0]]
    gender = second[1]
    if t_parent and y_parent and not as_child:
        # here, y and t all parents of one couple: t, not y, is here
        if here in (None, gender):
            yield (), gender
        return
    if t_parent and y_parent and first[1] == gender:
        return  # a couple is a man and a woman
    if t_parent == (not as_child) and here in (None, gender):
        yield (), gender  # back at "here"
    if t_parent and not as_child:
        if here != gender:  # the other parent of here's children: here's spouse
            yield ((("S", gender),), None if here is not None else _other(gender))
    else:
        link = ("P" if t_parent else "B") if as_child else "C"
        yield ((link, gender),), None
