"""The kinship table: every composition of two kinship words, derived from four links.

A table entry ``(r1, r2, g) -> r`` says: when y is the r1 of x and z, of gender g, is the
r2 of y, z is the r of x. ``derive_kinship_algebra`` reads each key on the path algebra of
``kinship_paths`` (words as paths of parent, child, spouse and sibling links, in a world
of nuclear families) and decides it by these rules, in order:

- **Different people.** z is not x, and a sibling's sibling or a parent's child is someone
  new, not the person the path came from (there are others): x's aunt's sister is x's
  aunt, not x's mother. A spouse's spouse is the person it came from (there is no
  other), and so is a child's parent: the *line of descent* rule, x's son's grandfather
  is reached through x.
- **One word in every reading: that word** (exact). x's father's brother is x's uncle.
- **Several words: the closest reading**, fewest links first, then fewest marriages
  among them. x's son's grandfather is x's father (1 link) or x's father-in-law (2):
  father. x's nephew's uncle is x's brother or x's husband (1 link each; the husband is
  one marriage away): brother. The closest reading assumes the fewest people and
  marriages the chain does not mention.
- **Left out** (``LeftOut``): ``no word``, the closest reading has no word here (x's
  uncle's son is a cousin); ``presumes x's gender``, the closest reading holds for one
  gender of x only, and the key carries the genders of y and z, not of x (x's daughter's
  father is x's husband, or x: a fold then combines the neighbouring steps first);
  ``no instance``, no chain of different people fits (x's husband's husband); ``tie``,
  two words equally close (none in this vocabulary).

Where a word names two kinds of kin and the readings tell which, the entry is the kind:
x's husband's sister is ``"sister-in-law (spouse's sister)"``, so that her daughter's
grandmother is x's mother-in-law. ``kinship_word`` gives the word of a kind.

The shipped table (``kinship_table.json``) is the output of ``derive_kinship_algebra()``; a
test checks that they agree. Nothing in it comes from any dataset.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from groundgraph.errors import InputError
from groundgraph.reason.relations.composition import RuleKey
from groundgraph.reason.relations.kinship_model import MALE, MODEL_WORDS
from groundgraph.reason.relations.kinship_paths import (
    GENDERS,
    TERM_PATHS,
    WORDS,
    Path,
    readings,
    term_of,
    word_of,
)

#: Every word of the table's vocabulary.
KINSHIP_RELATIONS: tuple[str, ...] = WORDS
#: The words and the kinds of the words that name two ("uncle (aunt's husband)").
KINSHIP_TERMS: tuple[str, ...] = tuple(TERM_PATHS)

NO_WORD, PRESUMES_GENDER, NO_INSTANCE, TIE = (
    "no word",
    "presumes x's gender",
    "no instance",
    "tie",
)


@dataclass(frozen=True, slots=True)
class LeftOut:
    """Why a key has no entry, and the words of its closest reading (none for no word)."""

    reason: str
    candidates: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KinshipAlgebra:
    """The derived table, the keys answered by their closest reading, the keys left out.

    ``closest`` maps a key to the farther words it also reads as (its answer is in
    ``rules``); every key whose r2 can end at a person of gender g is in ``rules`` or in
    ``left_out``. Read-only: ``kinship_table()`` gives a copy to extend.
    """

    rules: dict[RuleKey, str] = field(default_factory=dict)
    closest: dict[RuleKey, tuple[str, ...]] = field(default_factory=dict)
    left_out: dict[RuleKey, LeftOut] = field(default_factory=dict)


Distance = tuple[int, int]  # links, then marriages among them


@dataclass
class WordReading:
    """One word z can be to x: its distance, the genders of x it needs, its kinds."""

    distance: Distance
    x_genders: set[str] = field(default_factory=set)
    terms: set[str] = field(default_factory=set)


def derive_kinship_algebra() -> KinshipAlgebra:
    """Decide every key of the vocabulary by its readings (see the module docstring)."""
    algebra = KinshipAlgebra()
    for r1 in sorted(KINSHIP_TERMS):
        r1_x_genders = _x_genders(r1)
        for r2 in sorted(KINSHIP_TERMS):
            for gender in GENDERS:
                if any(path[-1][1] == gender for path in TERM_PATHS[r2]):
                    key = (r1, r2, gender)
                    _decide(key, key_readings(*key), r1_x_genders, algebra)
    return algebra


def derive_kinship_table() -> dict[RuleKey, str]:
    """The rules of ``derive_kinship_algebra`` (exact and closest readings)."""
    return derive_kinship_algebra().rules


def key_readings(r1: str, r2: str, gender: str) -> dict[str | None, WordReading]:
    """Every word z can be to x when y is x's r1 and z, of ``gender``, is y's r2.

    None stands for the people the vocabulary has no word for. An unknown term or gender
    is an InputError.
    """
    unknown = [term for term in (r1, r2) if term not in TERM_PATHS]
    if unknown or gender not in GENDERS:
        raise InputError(
            f"{unknown or gender!r}: not a kinship term (see KINSHIP_TERMS) or a gender "
            f"({' or '.join(GENDERS)})"
        )
    found: dict[str | None, WordReading] = {}
    for first in TERM_PATHS[r1]:
        for second in TERM_PATHS[r2]:
            if second[-1][1] != gender:
                continue
            for reading in readings(first + second):
                if not reading.path:
                    continue  # back at x
                term = term_of(reading.path)
                distance = _distance(reading.path)
                word = found.setdefault(term and word_of(term), WordReading(distance))
                word.distance = min(word.distance, distance)
                word.x_genders |= _either(reading.x_gender)
                word.terms |= {term} if term else set()
    return found


def _distance(path: Path) -> Distance:
    return (len(path), sum(link == "S" for link, _ in path))


def _either(gender: str | None) -> set[str]:
    return set(GENDERS) if gender is None else {gender}


def _x_genders(term: str) -> set[str]:
    return {g for path in TERM_PATHS[term] for r in readings(path) for g in _either(r.x_gender)}


def _decide(
    key: RuleKey,
    found: dict[str | None, WordReading],
    r1_x_genders: set[str],
    algebra: KinshipAlgebra,
) -> None:
    if not found:
        algebra.left_out[key] = LeftOut(NO_INSTANCE, ())
        return
    nearest = min(found, key=lambda word: found[word].distance)
    tied = [w for w, reading in found.items() if reading.distance == found[nearest].distance]
    if len(tied) > 1:  # none in this vocabulary; kept so a new word cannot slip a guess in
        algebra.left_out[key] = LeftOut(TIE, tuple(sorted(w for w in tied if w)))
    elif nearest is None:
        algebra.left_out[key] = LeftOut(NO_WORD, ())
    elif not found[nearest].x_genders >= r1_x_genders:
        algebra.left_out[key] = LeftOut(PRESUMES_GENDER, (nearest,))
    else:
        terms = found[nearest].terms
        algebra.rules[key] = next(iter(terms)) if len(terms) == 1 else nearest
        if len(found) > 1:
            algebra.closest[key] = tuple(sorted(w for w in found if w and w != nearest))


@cache
def _shipped() -> KinshipAlgebra:
    text = resources.files(__package__).joinpath("kinship_table.json").read_text("utf-8")
    data = json.loads(text)
    return KinshipAlgebra(
        rules={(r1, r2, g): result for r1, r2, g, result in data["rules"]},
        closest={(r1, r2, g): tuple(farther) for r1, r2, g, farther in data["closest"]},
        left_out={
            (r1, r2, g): LeftOut(reason, tuple(words))
            for r1, r2, g, reason, words in data["left_out"]
        },
    )


def kinship_table() -> dict[RuleKey, str]:
    """The built-in kinship composition table (a fresh copy you may extend)."""
    return dict(_shipped().rules)


def kinship_algebra() -> KinshipAlgebra:
    """The built-in table with its closest-reading choices and its left-out keys."""
    return _shipped()


def kinship_word(relation: str) -> str:
    """The word of a table relation: "uncle (aunt's husband)" is "uncle"."""
    return word_of(relation)


def inverse_relation(relation: str, gender: str) -> str | None:
    """If y is the ``relation`` of x, what x is to y, given x's gender; None if unknown."""
    word = word_of(relation)
    for kin_name, (_, male, female) in MODEL_WORDS.items():
        if word in (male, female):
            _, inv_male, inv_female = MODEL_WORDS[_INVERSES[kin_name]]
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


def kinship_json(algebra: KinshipAlgebra) -> str:
    """The JSON form of an algebra, as shipped in ``kinship_table.json``."""
    about = (
        "Kinship composition rules (r1, r2, gender of r2's end person) -> relation, derived by "
        "groundgraph.reason.relations.kinship.derive_kinship_algebra() from parent, child, "
        "spouse and sibling links in a world of nuclear families; no dataset. x's r1 is y and "
        "y's r2 is z (of that gender): z is the relation of x. 'closest': the keys answered "
        "by their closest reading, with the farther words; 'left_out': the keys without an "
        "entry, the reason and the closest words."
    )
    sections: dict[str, list[list[object]]] = {
        "rules": [[*key, word] for key, word in sorted(algebra.rules.items())],
        "closest": [[*key, list(words)] for key, words in sorted(algebra.closest.items())],
        "left_out": [
            [*key, out.reason, list(out.candidates)]
            for key, out in sorted(algebra.left_out.items())
        ],
    }
    lines = ["{", f'  "about": {json.dumps(about)},']
    for i, (name, entries) in enumerate(sections.items()):
        lines.append(f'  "{name}": [')
        lines += [f"    {json.dumps(entry)}," for entry in entries]
        lines[-1] = lines[-1].rstrip(",")
        lines.append("  ]" + ("," if i < len(sections) - 1 else ""))
    return "\n".join([*lines, "}"]) + "\n"
