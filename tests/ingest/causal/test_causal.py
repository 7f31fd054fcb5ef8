"""The cue pass of ingest.causal: direction, clause-bounded spans, languages, non-causal guards.

Every sentence here was written for these tests (none is from the benchmark set).
"""

from __future__ import annotations

import pytest

from groundgraph.ingest.causal import (
    CausalPair,
    extract_causal,
    guess_language,
    language_codes,
)


def pairs_of(text: str, language: str | None = None) -> list[tuple[str, str]]:
    return [(p.cause, p.effect) for p in extract_causal(text, language)]


# Cause-first and effect-first markers, in each language: (text, cause, effect).
DIRECTED = [
    ("en", "A worn brake pad caused the squeal.", "A worn brake pad", "the squeal"),
    ("en", "The squeal was caused by a worn brake pad.", "a worn brake pad", "The squeal"),
    ("en", "Cheap loans led directly to a housing bubble.", "Cheap loans", "a housing bubble"),
    (
        "en",
        "The ferry stopped running due to high winds.",
        "high winds",
        "The ferry stopped running",
    ),
    ("en", "Owing to the strike, no trains ran.", "the strike", "no trains ran"),
    (
        "en",
        "The vote was postponed because the hall flooded.",
        "the hall flooded",
        "The vote was postponed",
    ),
    ("de", "Das Glatteis führte zu vielen Unfällen.", "Das Glatteis", "vielen Unfällen"),
    (
        "de",
        "Der Umsatz sank, weil die Nachfrage fehlte.",
        "die Nachfrage fehlte",
        "Der Umsatz sank",
    ),
    (
        "de",
        "Wegen der Hitze blieben die Schulen geschlossen.",
        "der Hitze",
        "blieben die Schulen geschlossen",
    ),
    (
        "fr",
        "Le vent violent a provoqué des coupures de courant.",
        "Le vent violent",
        "des coupures de courant",
    ),
    ("fr", "La route est fermée à cause d'un éboulement.", "un éboulement", "La route est fermée"),
    ("es", "La niebla provocó varios accidentes.", "La niebla", "varios accidentes"),
    (
        "es",
        "El mercado cerró temprano debido a la tormenta.",
        "la tormenta",
        "El mercado cerró temprano",
    ),
    ("nl", "De hittegolf leidde tot een watertekort.", "De hittegolf", "een watertekort"),
    (
        "nl",
        "Omdat de brug openstond, stond het verkeer stil.",
        "de brug openstond",
        "stond het verkeer stil",
    ),
    ("tr", "Fırtına elektrik kesintisine yol açtı.", "Fırtına", "elektrik kesintisine"),
    ("tr", "Sis nedeniyle uçuşlar iptal edildi.", "Sis", "uçuşlar iptal edildi"),
    ("it", "Il gelo ha causato danni ai raccolti.", "Il gelo", "danni ai raccolti"),
    ("pt", "A seca provocou a perda da colheita.", "A seca", "a perda da colheita"),
]


@pytest.mark.parametrize(("language", "text", "cause", "effect"), DIRECTED)
def test_direction_and_spans_with_the_language_given(
    language: str, text: str, cause: str, effect: str
) -> None:
    assert pairs_of(text, language) == [(cause, effect)]


@pytest.mark.parametrize(("language", "text", "cause", "effect"), DIRECTED)
def test_the_language_is_guessed_when_not_given(
    language: str, text: str, cause: str, effect: str
) -> None:
    found = extract_causal(text)
    assert [(p.cause, p.effect) for p in found] == [(cause, effect)]
    assert found[0].language == language


def test_pair_offsets_point_into_the_text() -> None:
    text = "Intro line.\nA stuck valve caused the boiler to overheat."
    (pair,) = extract_causal(text)
    assert text[slice(*pair.cause_span)] == pair.cause == "A stuck valve"
    assert text[slice(*pair.effect_span)] == pair.effect == "the boiler to overheat"
    assert pair.cue == "causes" and pair.language == "en"
    assert pair.to_dict() == {
        "cause": "A stuck valve",
        "effect": "the boiler to overheat",
        "causeSpan": list(pair.cause_span),
        "effectSpan": list(pair.effect_span),
        "cue": "causes",
        "language": "en",
    }


def test_connective_inside_a_sentence_takes_the_clause_before() -> None:
    assert pairs_of("The lift was broken, so we took the stairs.") == [
        ("The lift was broken", "we took the stairs")
    ]
    assert pairs_of("The disk filled up; therefore, the backup failed.") == [
        ("The disk filled up", "the backup failed")
    ]


def test_connective_opening_a_sentence_takes_the_previous_sentence() -> None:
    text = "The supplier went bankrupt. Consequently, the factory ran out of parts."
    assert pairs_of(text) == [("The supplier went bankrupt", "the factory ran out of parts")]


def test_connective_after_a_causal_sentence_takes_its_effect() -> None:
    text = "A frost caused blossom loss. As a result, the orchard gave no fruit."
    assert pairs_of(text) == [
        ("A frost", "blossom loss"),
        ("blossom loss", "the orchard gave no fruit"),
    ]


def test_connective_after_a_plain_sentence_takes_its_last_clause() -> None:
    text = "We checked twice, and the gauge read zero. Therefore the tank was refilled."
    assert pairs_of(text) == [("the gauge read zero", "the tank was refilled")]


def test_a_chain_inside_one_sentence_links_through_which() -> None:
    assert pairs_of("A pipe burst, which caused a leak, which led to mould.") == [
        ("A pipe burst", "a leak"),
        ("a leak", "mould"),
    ]


def test_markers_end_each_others_spans() -> None:
    assert pairs_of("Ice caused delays because the gritters broke down.") == [
        ("Ice", "delays"),
        ("the gritters broke down", "delays"),
    ]


def test_adverb_inside_its_clause_takes_the_whole_clause() -> None:
    text = "The vote failed. The plan was therefore shelved."
    assert pairs_of(text) == [("The vote failed", "The plan was therefore shelved")]


def test_relative_clause_before_the_marker_is_skipped() -> None:
    text = "The levee, which was built in 1950, caused the river to rise downstream."
    assert pairs_of(text) == [("The levee", "the river to rise downstream")]


def test_sentence_opening_effect_first_markers() -> None:
    assert pairs_of("Because the oven was cold, the bread stayed flat.") == [
        ("the oven was cold", "the bread stayed flat")
    ]
    # No comma: the noun phrase ends where its clause's subject starts.
    assert pairs_of("Due to heavy snow the school was closed.") == [
        ("heavy snow", "the school was closed")
    ]


def test_demonstrative_cause_points_to_the_previous_sentence() -> None:
    text = "The vendor raised prices twice. This led to a wave of cancellations."
    assert pairs_of(text) == [("The vendor raised prices twice", "a wave of cancellations")]


def test_german_verb_final_and_split_markers() -> None:
    assert pairs_of("Zu viel Lärm kann Kopfschmerzen verursachen.", "de") == [
        ("Zu viel Lärm", "Kopfschmerzen")
    ]
    assert pairs_of("Die Dürre hat zu hohen Preisen geführt.", "de") == [
        ("Die Dürre", "hohen Preisen")
    ]
    assert pairs_of("Der Brand wurde durch einen Blitz verursacht.", "de") == [
        ("einen Blitz", "Der Brand")
    ]


def test_turkish_suffix_and_verb_final_markers() -> None:
    assert pairs_of("Kar yağdığı için yollar kapandı.", "tr") == [("Kar yağdığı", "yollar kapandı")]
    assert pairs_of("Sel, bir baraj taşmasından kaynaklandı.", "tr") == [
        ("bir baraj taşmasından", "Sel")
    ]
    assert pairs_of("Trafik yoğundu, bu yüzden geç kaldık.", "tr") == [
        ("Trafik yoğundu", "geç kaldık")
    ]


def test_effect_first_conjunction_opening_a_sentence_links_back() -> None:
    assert pairs_of("Wir gingen früh. Denn es wurde kalt.", "de") == [
        ("es wurde kalt", "Wir gingen früh")
    ]


NON_CAUSAL = [
    "We have worked here since the spring of 2019.",
    "Since I was a boy, I have loved trains.",
    "After the concert we took a taxi home.",
    "The sunset was so lovely.",
    "The library fine is due on Friday.",
    "The parcel is due to arrive tomorrow.",
    "He makes pancakes for the twins every weekend.",
    "The narrow trail leads to a hidden waterfall.",
    "Did the outage cause the data loss?",
    "The heater did not cause the fire.",
    "The storm caused no damage at all.",
    "The cause of the blackout is still unknown.",
    "Many thanks to the volunteers.",
    "Da vorne wartet der Bus.",
    "Der Pfad führt zu einer alten Mühle.",
    "Comme prévu, la réunion a commencé à neuf heures.",
    "Como siempre, el tren salió puntual.",
    "Bu kitabı senin için aldım.",
    "Het pad leidt naar het strand.",
]


@pytest.mark.parametrize("text", NON_CAUSAL)
def test_cue_like_words_used_otherwise_give_no_pair(text: str) -> None:
    assert extract_causal(text) == []


def test_language_guess_keeps_german_die_and_dutch_want_out_of_english() -> None:
    assert guess_language("Die Katze schläft auf dem Sofa, und der Hund auch.") == "de"
    assert guess_language("Plants die without water, and the soil dries out.") == "en"
    english = extract_causal("I want to leave early because the roads will be icy.")
    assert [(p.cause, p.effect, p.language) for p in english] == [
        ("the roads will be icy", "I want to leave early", "en")
    ]
    dutch = extract_causal("Ik bleef thuis, want het was erg koud buiten.")
    assert [(p.cause, p.effect, p.language) for p in dutch] == [
        ("het was erg koud buiten", "Ik bleef thuis", "nl")
    ]


def test_a_text_without_function_words_is_read_with_every_table() -> None:
    assert guess_language("Regen verursachte Hochwasser.") is None
    assert pairs_of("Regen verursachte Hochwasser.") == [("Regen", "Hochwasser")]


def test_language_codes_cover_the_six_required_languages() -> None:
    assert {"en", "de", "fr", "es", "nl", "tr"} <= set(language_codes())


def test_pairs_are_frozen_records() -> None:
    pair = extract_causal("Dust caused the jam.")[0]
    assert isinstance(pair, CausalPair)
    with pytest.raises(AttributeError):
        pair.cause = "x"  # type: ignore[misc]


def test_every_letter_that_marks_a_language_is_outside_ascii():
    # language_scores skips counting them in an ASCII text: none can be there.
    from groundgraph.ingest.causal.language import TABLES, language_scores

    assert all(not letter.isascii() for t in TABLES.values() for letter in t.letters)
    assert language_scores("la niña")["es"] == language_scores("la")["es"] + 1
