"""The change rules read structure: what changed (its head word, names, codes, owner),
whose it is, its old and new value, and the marks of a change or of none. Each case pairs
an update with a look-alike that shares words but not the thing. Facts written for these
tests."""

from __future__ import annotations

import pytest

from groundgraph import DocumentGraph
from groundgraph.memory import RuleConflictResolver

RULES = RuleConflictResolver()

# (new, the old fact it retires, a look-alike old fact it must leave alone)
UPDATES = [
    # the head of the changed thing, not a word that only modifies another noun
    (
        "We upgraded the repo to Node 22.",
        "The repo targets Node 18.",
        "Mira is the Hydra repo owner.",
    ),
    # a code in the theme names one release
    (
        "Release 4.1 slipped to May 9.",
        "The v4.1 release is planned for May 2.",
        "Release 4.0 is planned for May 2.",
    ),
    # a person's move is about that person
    ("Ilka moved to Ghent.", "Ilka lives in Leuven.", "Bruno lives in Leuven."),
    # a time frame that differs is another setting
    (
        "I turned the evening heating down to 18 degrees.",
        "The evening heating is set to 20 degrees.",
        "In the morning the heating is set to 21 degrees.",
    ),
    # a holder who leaves: the facts that name them as holder
    (
        "Pieter retired, so Anouk is my supervisor now.",
        "My supervisor is Pieter.",
        "Pieter lives in Breda.",
    ),
    # an event that resolves a lasting state
    ("The plumber fixed the boiler.", "The boiler is broken.", "The boiler is in the attic."),
    # from one value to another
    (
        "My dentist changed from Dr. Vos to Dr. Smit.",
        "My dentist is Dr. Vos.",
        "My dentist's office is in Zwolle.",
    ),
    # a value belongs to its owner
    (
        "Your train now leaves at 09:10.",
        "Your train leaves at 08:40.",
        "Koen's train leaves at 08:40.",
    ),
    # codes of one shape, in a value's place
    (
        "The Redis cluster now lives in eu-central-1.",
        "The Redis cluster runs in us-west-2.",
        "INC-204 is open.",
    ),
    # a thing that ended, named by its provider
    (
        "Exported the photos to Ente and closed the Flickr account.",
        "I keep my photos on Flickr.",
        "The Flickr group meets on Thursdays.",
    ),
]


@pytest.mark.parametrize(("new", "old", "other"), UPDATES)
def test_an_update_retires_its_fact_and_not_the_look_alike(new: str, old: str, other: str) -> None:
    assert RULES.explain(new, old) is not None
    assert RULES.explain(new, other) is None


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "Starting Friday, the interns report to Lena instead of Joe.",
            "The sprint review is on Monday.",
        ),
        ("We submitted the grant report.", "The user's visa is pending."),
        ("This week's stand-up moves to Tuesday.", "Stand-up is every Monday."),
        ("Ilka also moved her studio to Ghent.", "Ilka is also a part-time DJ."),
        ("Saw Dr. Vos at the clinic for a cough.", "My dentist is Dr. Smit."),
        ("The library closed early on Friday.", "The library is open until 8pm."),
        ("I left the choir in June.", "Wim is a tenor in the choir."),
        ("Our Kestrel plan rose to $20 a month.", "The Q3 planning meeting is on July 2."),
    ],
)
def test_look_alikes_are_not_updates(new: str, old: str) -> None:
    assert RULES.explain(new, old) is None


def test_the_change_rules_are_on_by_default_and_can_be_turned_off() -> None:
    old, new = "Our wiki runs on Confluence.", "We migrated the wiki to BookStack."
    default = DocumentGraph()
    default.add_text(old)
    default.add_text(new)
    assert [line["rule"] for line in default.conflicts()] == ["change:moved"]
    without = DocumentGraph(conflict_resolver=RuleConflictResolver(changes=False))
    without.add_text(old)
    without.add_text(new)
    assert without.conflicts() == []


MEMORY = [
    "The repo targets Node 18.",
    "Mira is the Hydra repo owner.",
    "Ilka lives in Leuven.",
    "Bruno lives in Leuven.",
    "My supervisor is Pieter.",
    "Pieter lives in Breda.",
    "The boiler is broken.",
    "The boiler is in the attic.",
    "In the morning the heating is set to 21 degrees.",
    "Koen's train leaves at 08:40.",
    "INC-204 is open.",
]
NEWS = {
    "We upgraded the repo to Node 22.": {"The repo targets Node 18."},
    "Ilka moved to Ghent.": {"Ilka lives in Leuven."},
    "Pieter retired, so Anouk is my supervisor now.": {"My supervisor is Pieter."},
    "The plumber fixed the boiler.": {"The boiler is broken."},
    "Your train now leaves at 09:10.": set(),
}


def test_in_one_memory_each_update_retires_only_its_own_fact() -> None:
    graph = DocumentGraph()
    graph.add_texts(MEMORY)
    for new, expected in NEWS.items():
        before = {line["old"]["content"] for line in graph.conflicts()}
        graph.add_text(new)
        after = {line["old"]["content"] for line in graph.conflicts()}
        assert after - before == expected, new
