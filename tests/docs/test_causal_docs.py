"""The examples in docs/causal.md run and say what the page says they say."""

from __future__ import annotations

import re
from typing import Any

import pytest

from repo_paths import ROOT

PAGE = ROOT / "docs" / "causal.md"


@pytest.fixture(scope="module")
def namespace() -> dict[str, Any]:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), flags=re.DOTALL)
    assert len(blocks) >= 6
    names: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), names)  # our own page, run as a doctest would
    return names


def test_first_example(namespace: dict[str, Any]) -> None:
    first = namespace["first"]
    assert (first.cause, first.effect, first.cue, first.language) == (
        "A burst main flooded the street",
        "the bus was rerouted",
        "so",
        "en",
    )
    assert (first.cause_span, first.effect_span) == ((0, 31), (36, 56))


def test_reading_examples(namespace: dict[str, Any]) -> None:
    assert [(p.cause, p.effect, p.cue) for p in namespace["chain"]] == [
        ("A pipe burst", "a leak", "causes"),
        ("a leak", "mould", "leads to"),
    ]
    assert [(p.cause, p.effect) for p in namespace["across"]] == [
        ("The supplier went bankrupt", "the factory ran out of parts")
    ]
    (german,) = namespace["german"]
    assert (german.cause, german.effect, german.language) == (
        "der Hitze",
        "blieben die Schulen geschlossen",
        "de",
    )
    (turkish,) = namespace["turkish"]
    assert (turkish.cause, turkish.effect, turkish.cue, turkish.language) == (
        "Kar yağdığı",
        "yollar kapandı",
        "-dığı için",
        "tr",
    )
    assert namespace["quiet"] == [[]] * 7


def test_languages_and_cues(namespace: dict[str, Any]) -> None:
    assert namespace["codes"] == ["en", "de", "fr", "es", "nl", "tr", "it", "pt"]
    assert {"because", "leads to", "therefore", "caused by"} <= set(namespace["english_cues"])


def test_span_matching_examples(namespace: dict[str, Any]) -> None:
    assert namespace["key"] == "power outag citi"
    assert (namespace["close"], namespace["near"], namespace["apart"]) == (True, True, False)


def test_extractor_slot_examples(namespace: dict[str, Any]) -> None:
    (pair,) = namespace["modelled"]
    assert (pair.cause, pair.effect, pair.cue, pair.language) == (
        "the frost",
        "the harvest failed",
        "llm",
        "en",
    )
    german = namespace["german_only"]("Weil es regnete, blieben wir zu Hause.")
    assert [(p.cause, p.effect) for p in german] == [("es regnete", "blieben wir zu Hause")]


def test_span_model_example(namespace: dict[str, Any]) -> None:
    (pair,) = namespace["tagged"]
    assert (pair.cause, pair.effect, pair.cue) == ("Heavy rainfall", "severe flooding", "model")
    assert namespace["tagged_fact"].causes == (("Heavy rainfall", "severe flooding"),)


def test_lists_relatives_and_new_connectives(namespace: dict[str, Any]) -> None:
    assert [(p.cause, p.effect) for p in namespace["listed"]] == [
        ("The storm", "floods, landslides and power cuts")
    ]
    assert [(p.cause, p.effect) for p in namespace["relative"]] == [
        ("Die Dürre", "einem Fichtensterben"),
        ("einem Fichtensterben", "eine hohe Waldbrandgefahr"),
    ]
    assert [(p.cause, p.effect, p.cue) for p in namespace["sanctioned"]] == [
        ("faute grave", "Il a été licencié", "pour + faute")
    ]
    assert [(p.cause, p.effect, p.cue) for p in namespace["tensed"]] == [
        ("Fırtına", "büyük hasara", "yol açtı")
    ]
