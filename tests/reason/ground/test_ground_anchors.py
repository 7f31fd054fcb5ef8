"""The anchors rule (numbers, units, dates, names placed where the claim puts them) and the
sentence-initial capitalisation the names rule learns from the sentence."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.reason.anchors import clause_context, context_of, tokenize, unit_of
from groundgraph.reason.claims import ordinary_first_word
from groundgraph.text import sentences

LIGHTHOUSES = {
    "keel": (
        "Keel Point lighthouse was built in 1871 by the harbour board. Its lamp was "
        "electrified later, and a museum opened beside it (1994). The tower stands 4 km "
        "north of the village and 9 m above the tide line. Its keeper Ruth Mayer served "
        "from 12 March 1903 until her death."
    ),
    "orla": (
        "Orla Sands lighthouse is a stone tower on the southern cape. It was rebuilt after "
        "the storm of 28 November 1911 and painted red."
    ),
    "vance": (
        "Tobias Vance is a painter from Lisbon. He painted harbours and coastal villages "
        "for four decades."
    ),
}


def _analyse(text: str) -> list[str]:
    return [w.lower() for w in text.split() if w.lower() not in {"the", "in", "of", "by", "a"}]


@pytest.fixture(scope="module")
def coast() -> DocumentGraph:
    return _graph()


def _verdict(graph: DocumentGraph, claim: str, **kwargs: bool) -> tuple[bool, tuple[str, ...]]:
    found = graph.ground(claim, query="lighthouse keeper tower painter", **kwargs)
    assert len(found.claims) == 1
    return found.claims[0].supported, found.claims[0].misplaced


def test_a_true_sentence_and_its_paraphrase_pass(coast: DocumentGraph) -> None:
    assert _verdict(coast, "Keel Point lighthouse was built in 1871 by the harbour board.")[0]
    assert _verdict(coast, "In 1871 the harbour board built Keel Point lighthouse.")[0]


def test_a_year_held_elsewhere_in_another_context_is_misplaced(coast: DocumentGraph) -> None:
    supported, misplaced = _verdict(coast, "Keel Point lighthouse was built in 1994.")
    assert not supported and misplaced == ("1994",)
    # the same claim with the rule off: every word and number is in the sections
    assert _verdict(
        coast,
        "Keel Point lighthouse was built in 1994.",
        check_anchors=False,
        check_substitutions=False,
    )[0]


def test_a_number_with_another_unit_is_misplaced(coast: DocumentGraph) -> None:
    assert _verdict(coast, "The tower stands 4 km north of the village.")[0]
    supported, misplaced = _verdict(coast, "The tower stands 9 km north of the village.")
    assert not supported and "9" in misplaced


def test_a_day_with_another_month_is_misplaced(coast: DocumentGraph) -> None:
    assert _verdict(coast, "Ruth Mayer served as keeper from 12 March 1903.")[0]
    supported, misplaced = _verdict(coast, "Ruth Mayer served as keeper from 28 March 1903.")
    assert not supported and "28" in misplaced


def test_a_name_swapped_in_from_its_own_article_is_misplaced(coast: DocumentGraph) -> None:
    supported, misplaced = _verdict(coast, "Its keeper Tobias Vance served from 12 March 1903.")
    assert not supported and misplaced == ("Tobias Vance",)


def test_a_subject_swapped_for_another_subject_is_misplaced(coast: DocumentGraph) -> None:
    claim = "Orla Sands lighthouse was built in 1871 by the harbour board."
    supported, misplaced = _verdict(coast, claim)
    assert not supported and "Orla Sands" in misplaced


def test_unit_of_reads_the_word_after_and_the_month_before() -> None:
    text = "It is 7 mi away, born June 28, 1936 and 5 of them"
    tokens = tokenize(text, _graph().terms)
    at = {t.text: i for i, t in enumerate(tokens)}
    assert unit_of(text, tokens, at["7"]) == "mi"
    assert unit_of(text, tokens, at["28"]) == "jun"
    assert unit_of(text, tokens, at["1936"]) is None  # a comma stands between


def test_clause_context_stops_at_punctuation() -> None:
    text = "Harbour Lights, released in 2006, is the third album by Ana Ruiz."
    tokens = tokenize(text, _analyse)
    i = next(k for k, t in enumerate(tokens) if t.text == "2006")
    assert clause_context(text, tokens, i) == {"released"}
    assert "third" in context_of(tokens, i, i + 1, frozenset())


@pytest.mark.parametrize(
    "sentence",
    [
        "Edit the config before you deploy",
        "Open your terminal and run the tests",
        "Release notes list each release since May",
    ],
)
def test_a_sentence_initial_ordinary_word_is_not_a_name(sentence: str) -> None:
    assert ordinary_first_word(sentence.split())


@pytest.mark.parametrize("sentence", ["Brazzaville is the capital", "Nolan directed it"])
def test_a_sentence_initial_name_stays_a_name(sentence: str) -> None:
    assert not ordinary_first_word(sentence.split())


def test_an_imperative_is_not_a_missing_name() -> None:
    graph = DocumentGraph()
    graph.add_document(
        "# Setup\n\n## Configuration\n\nThe server reads its port from config.json at start.\n",
        "Setup",
        "setup",
    )
    found = graph.ground("Change the port in config.json before the server starts.")
    assert found.claims and found.claims[0].missing_names == ()


SENTENCES = [s for text in LIGHTHOUSES.values() for s in sentences(text)]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SENTENCES), st.sampled_from(SENTENCES))
def test_sentences_of_the_documents_are_never_misplaced(first: str, second: str) -> None:
    """A promise: a sentence the documents write, alone or joined to another, has
    nothing out of place against the documents (node ids given, so search cannot miss)."""
    graph = _graph()
    ids = [n.node_id for d in LIGHTHOUSES for n in graph.store.reads.document_nodes(d)]
    for answer in (first, f"{first} {second}"):
        for claim in graph.ground(answer, node_ids=ids, max_nodes=3).claims:
            assert claim.misplaced == ()


@settings(max_examples=30, deadline=None)
@given(st.integers(2000, 9999).filter(lambda n: str(n) not in "".join(LIGHTHOUSES.values())))
def test_a_number_the_sections_lack_is_missing_not_misplaced(year: int) -> None:
    graph = _graph()
    ids = [n.node_id for n in graph.store.reads.document_nodes("keel")]
    (claim,) = graph.ground(f"Keel Point lighthouse was built in {year}.", node_ids=ids).claims
    assert str(year) not in claim.misplaced
    assert str(year) in claim.missing_numbers
    assert not claim.supported


_GRAPH: list[DocumentGraph] = []


def _graph() -> DocumentGraph:
    if not _GRAPH:
        graph = DocumentGraph()
        for doc_id, text in LIGHTHOUSES.items():
            graph.add_document(text, doc_id.title(), doc_id, format="text")
        _GRAPH.append(graph)
    return _GRAPH[0]


def test_negation_is_checked_per_statement() -> None:
    from groundgraph.reason.verifiers import negation_mismatch_verifier

    evidence = "The ferry runs on Sundays. The bridge was not opened in winter."
    # each half agrees with its own sentence; read as one, the claim aligns to one only
    assert (
        negation_mismatch_verifier(
            "The ferry runs on Sundays; the bridge was not opened in winter.", evidence
        )
        == 1.0
    )
    assert (
        negation_mismatch_verifier(
            "The ferry runs on Sundays; the bridge was opened in winter.", evidence
        )
        == 0.0
    )
