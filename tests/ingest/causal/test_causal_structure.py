"""The structures the cue pass reads beyond single markers: opening participles, verb
families, split markers, a Turkish subject set off by a comma, "in turn" asides, an
afterthought cause at the sentence's end, and the guards that keep look-alikes quiet.

Every sentence here was written for these tests (none is from a benchmark set).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph.ingest.causal import extract_causal


def pairs_of(text: str, language: str) -> list[tuple[str, str]]:
    return [(p.cause, p.effect) for p in extract_causal(text, language)]


# (language, text, cause, effect)
READ = [
    ("en", "The old oak died from a fungus.", "a fungus", "The old oak died"),
    (
        "en",
        "Soaked by the storm, the hikers turned back.",
        "Soaked by the storm",
        "the hikers turned back",
    ),
    (
        "fr",
        "Fatiguée par le voyage, Lina a dormi dix heures.",
        "Fatiguée par le voyage",
        "Lina a dormi dix heures",
    ),
    (
        "es",
        "Cansado tras el partido, el portero se durmió en el autobús.",
        "Cansado tras el partido",
        "el portero se durmió en el autobús",
    ),
    (
        "it",
        "Bruciato l'arrosto, abbiamo ordinato una pizza.",
        "Bruciato l'arrosto",
        "abbiamo ordinato una pizza",
    ),
    (
        "pt",
        "Cansada da viagem, a professora cancelou a aula.",
        "Cansada da viagem",
        "a professora cancelou a aula",
    ),
    (
        "de",
        "Vom Regen überrascht, kehrten die Wanderer um.",
        "Vom Regen überrascht",
        "kehrten die Wanderer um",
    ),
    (
        "es",
        "La sequía produjo pérdidas enormes en el campo.",
        "La sequía",
        "pérdidas enormes en el campo",
    ),
    ("it", "Il guasto ha determinato un ritardo di due ore.", "Il guasto", "un ritardo di due ore"),
    ("fr", "Le froid favorise la propagation du virus.", "Le froid", "la propagation du virus"),
    (
        "de",
        "Der Sturm hatte einen langen Stromausfall zur Folge.",
        "Der Sturm",
        "einen langen Stromausfall",
    ),
    (
        "de",
        "Der Server war überlastet, weshalb die Seite langsam lud.",
        "Der Server war überlastet",
        "die Seite langsam lud",
    ),
    (
        "de",
        "Der Motor sprang nicht an, weshalb wir zu Fuß gingen.",
        "Der Motor sprang nicht an",
        "wir zu Fuß gingen",
    ),
    (
        "nl",
        "De storm zorgde ervoor dat de veerboot bleef liggen.",
        "De storm",
        "de veerboot bleef liggen",
    ),
    (
        "en",
        "The pump failed, which in turn caused a flood.",
        "The pump failed",
        "a flood",
    ),
    (
        "es",
        "Subió el precio, que a su vez provocó una caída de las ventas.",
        "Subió el precio",
        "una caída de las ventas",
    ),
    (
        "en",
        "The shop closed early, since the owner has fallen ill.",
        "the owner has fallen ill",
        "The shop closed early",
    ),
    (
        "es",
        "El conductor fue detenido por conducir sin carné.",
        "conducir sin carné",
        "El conductor fue detenido",
    ),
    (
        "pt",
        "O jogador foi expulso por agredir o árbitro.",
        "agredir o árbitro",
        "O jogador foi expulso",
    ),
    (
        "tr",
        "Şiddetli yağmur, köydeki yollarda büyük hasara neden oldu.",
        "Şiddetli yağmur",
        "köydeki yollarda büyük hasara",
    ),
    ("tr", "Geç kaldım, otobüsü kaçırdığım için.", "otobüsü kaçırdığım", "Geç kaldım"),
]

QUIET = [
    ("en", "The parcel came from Lisbon on Monday."),
    ("en", "Born in Leeds, the singer moved to London at twenty."),
    ("en", "I have worked here since the office has had a canteen."),
    ("fr", "Située au bord du lac, la maison a une grande terrasse."),
    ("es", "Como cada verano, fuimos a la playa."),
    ("es", "Nacido en Sevilla, el pintor vivió en Madrid."),
    ("it", "Nato a Torino, il pilota corre per una squadra francese."),
    ("pt", "Localizada no centro, a loja abre às nove."),
    ("de", "Im Jahr 1990 gegründet, hat die Firma heute vierzig Mitarbeiter."),
    ("tr", "Maç dün akşam 1-1 berabere sonuçlandı."),
]


@pytest.mark.parametrize(("language", "text", "cause", "effect"), READ, ids=[r[1] for r in READ])
def test_structures_are_read_in_the_right_direction(
    language: str, text: str, cause: str, effect: str
) -> None:
    assert (cause, effect) in pairs_of(text, language)


@pytest.mark.parametrize(("language", "text"), QUIET, ids=[q[1] for q in QUIET])
def test_look_alikes_give_no_pair(language: str, text: str) -> None:
    assert pairs_of(text, language) == []


def test_an_opening_adjective_yields_to_the_marker_in_its_phrase() -> None:
    found = pairs_of("Prolonged rain caused floods, which closed the road.", "en")
    assert ("Prolonged rain", "floods") in found
    assert all(cause != "Prolonged rain caused floods" for cause, _ in found)


# ---- promises over generated sentences -------------------------------------------------

PLACES = st.sampled_from(["in Leeds", "near the river", "by the old mill", "in 1990"])
CLAUSES = st.sampled_from(["the house has a garden", "the shop opens at nine"])


@given(st.sampled_from(["Born", "Located", "Founded", "Built", "Situated"]), PLACES, CLAUSES)
def test_a_descriptive_participle_never_reads_as_a_cause(
    participle: str, where: str, clause: str
) -> None:
    assert pairs_of(f"{participle} {where}, {clause}.", "en") == []


@given(st.sampled_from(["Soaked", "Exhausted", "Shaken", "Blinded"]), CLAUSES)
def test_an_opening_participle_is_the_cause_of_its_main_clause(
    participle: str, clause: str
) -> None:
    text = f"{participle} by the storm, {clause}."
    assert pairs_of(text, "en") == [(f"{participle} by the storm", clause)]
