"""ground(): claims, verdicts, rules, cited spans, the verify veto, and hostile input."""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph, InputError, InputTooLargeError, NotFoundError
from groundgraph.reason.ground import MAX_ANSWER_CHARS, ground
from groundgraph.text import sentence_spans

RECIPES = """# Recipes

Notes from the bakery.

## Bread

Dough rises overnight in the cold room. Bake the loaves at 230 degrees for 40 minutes.
Dr. Weber checks every batch.

## Pantry

Flour, salt and yeast live in the pantry. Order flour when 2 sacks remain.
"""

GAMES = {
    "arcade": "Formula Arcade is a racing game developed by Studio Nine for the Orbit console.",
    "kart": "Kart Racer is a kart game released for the Wii in 2009.",
    "studio": "Studio Nine is a game developer based in Leeds.",
    "weather": "Rain fell on the coast all week and the harbour stayed closed.",
    "river": "The river carries salt to the delta every spring.",
}


@pytest.fixture(scope="module")
def bakery() -> DocumentGraph:
    graph = DocumentGraph(entities=None, relations=None)
    graph.add_document(RECIPES, "Recipes", "recipes")
    graph.add_document(
        "Tomatoes grow in the greenhouse in July.", "Garden", "garden", format="text"
    )
    return graph


@pytest.fixture(scope="module")
def games() -> DocumentGraph:
    graph = DocumentGraph(entities=None, relations=None)
    for doc_id, text in GAMES.items():
        graph.add_document(text, doc_id.title(), doc_id, format="text")
    return graph


def section(graph: DocumentGraph, title: str) -> str:
    return next(n.node_id for n in graph.store.reads.document_nodes("recipes") if n.title == title)


def test_each_sentence_is_a_claim_with_its_span_in_the_answer(bakery):
    answer = (
        "## Summary\n\n"
        "- Dough rises overnight in the cold room.\n"
        "- Dr. Weber checks every batch. Bake the loaves at 230 degrees.\n"
        "It is.\n"
    )
    found = bakery.ground(answer, node_ids=[section(bakery, "Bread")])
    # The heading and "It is." (stopwords only: no mass) are not claims.
    assert [c.text for c in found.claims] == [
        "Dough rises overnight in the cold room.",
        "Dr. Weber checks every batch.",
        "Bake the loaves at 230 degrees.",
    ]
    for claim in found.claims:
        assert answer[claim.start : claim.end] == claim.text
        assert claim.supported and claim.share == 1.0 and claim.rejected_by == ()
    assert found.share == 1.0 and found.citations == (section(bakery, "Bread"),)


def test_evidence_spans_slice_the_section_and_the_source(bakery):
    bread = section(bakery, "Bread")
    node = bakery.node(bread)
    found = bakery.ground("Bake the loaves at 230 degrees for 40 minutes.", node_ids=[bread])
    (claim,) = found.claims
    (best, *_) = claim.evidence
    assert best.node_id == bread
    assert node.content[best.start : best.end] == best.text
    assert RECIPES[best.source_start : best.source_end] == best.text
    assert best.text == "Bake the loaves at 230 degrees for 40 minutes."


def test_a_second_sentence_is_cited_only_when_it_adds_weight(bakery):
    bread = section(bakery, "Bread")
    found = bakery.ground("Dough rises in the cold room and Dr. Weber checks it.", node_ids=[bread])
    texts = [e.text for e in found.claims[0].evidence]
    assert texts == ["Dough rises overnight in the cold room.", "Dr. Weber checks every batch."]
    one = bakery.ground("Dough rises in the cold room.", node_ids=[bread])
    assert [e.text for e in one.claims[0].evidence] == ["Dough rises overnight in the cold room."]


def test_evidence_from_a_search_for_the_query_or_for_each_claim(bakery):
    answer = "Order flour when 2 sacks remain. Tomatoes grow in the greenhouse."
    per_claim = bakery.ground(answer)
    assert [c.node_ids for c in per_claim.claims] == [(section(bakery, "Pantry"),), ("garden",)]
    assert all(c.supported for c in per_claim.claims)
    # One search for the query: the garden note is not among its hits.
    by_query = bakery.ground(answer, query="flour pantry", max_candidates=1)
    assert [c.supported for c in by_query.claims] == [True, False]
    assert by_query.claims[1].rejected_by == ("share",)


def test_numbers_must_be_in_the_sections(bakery):
    bread = [section(bakery, "Bread")]
    wrong = bakery.ground("Bake the loaves at 230 degrees for 45 minutes.", node_ids=bread)
    (claim,) = wrong.claims
    assert claim.share >= 0.5 and not claim.supported  # the share alone would pass
    # the closest sentence writes another number there: a substitution too
    assert claim.missing_numbers == ("45",) and claim.rejected_by == ("numbers", "substitutions")
    assert claim.grounded == 0.0 and wrong.share == 0.0
    # A single digit is no index term, so only the number rule sees it.
    pantry = [section(bakery, "Pantry")]
    digit = bakery.ground("Order flour when 3 sacks remain.", node_ids=pantry).claims[0]
    assert digit.share == 1.0 and digit.missing_numbers == ("3",) and not digit.supported
    lenient = bakery.ground(
        "Order flour when 3 sacks remain.",
        node_ids=pantry,
        check_numbers=False,
        check_substitutions=False,
    )
    assert lenient.claims[0].supported and lenient.claims[0].missing_numbers == ("3",)


def test_code_spans_must_be_written_in_the_sections() -> None:
    graph = DocumentGraph()
    graph.add_document(
        "# Config\n\nHarbor reads `harbor.toml` from the working folder. "
        "Run `harbor check` to validate it.",
        "Config",
    )
    wrong = "Harbor reads `harbor.yaml` from the working folder; run `harbor check` to validate it."
    renamed = graph.ground(wrong, node_ids=["config"])
    (claim,) = renamed.claims
    assert claim.share >= 0.5 and not claim.supported  # the share alone would pass
    assert claim.missing_code == ("harbor.yaml",) and claim.rejected_by == ("code",)
    assert claim.to_dict()["missingCode"] == ["harbor.yaml"]
    kept = graph.ground("Run `harbor check` to validate `harbor.toml`.", node_ids=["config"])
    assert kept.claims[0].supported and kept.claims[0].missing_code == ()
    lenient = graph.ground(wrong, node_ids=["config"], check_code=False)
    assert lenient.claims[0].supported and lenient.claims[0].missing_code == ("harbor.yaml",)


def test_names_must_be_in_the_sections(bakery):
    bread = [section(bakery, "Bread")]
    claim = bakery.ground("Dr. Fischer checks every batch of dough.", node_ids=bread).claims[0]
    assert claim.share >= 0.5 and claim.missing_names == ("Fischer",)
    assert claim.rejected_by == ("names", "substitutions")
    assert (
        bakery.ground("Dr. Weber checks every batch of dough.", node_ids=bread).claims[0].supported
    )
    off = bakery.ground(
        "Dr. Fischer checks every batch.",
        node_ids=bread,
        check_names=False,
        check_substitutions=False,
    )
    assert off.claims[0].supported


def test_a_section_that_only_adds_a_name_must_link_to_the_others(games):
    ids = list(GAMES)
    # Studio Nine made Formula Arcade; the Kart Racer section only vouches for the name.
    swapped = games.ground("Kart Racer is a racing game developed by Studio Nine.", node_ids=ids)
    (claim,) = swapped.claims
    assert claim.node_ids == ("arcade", "kart") and claim.share == 1.0
    assert claim.unlinked == ("kart",) and "links" in claim.rejected_by
    # the anchors rule sees the same swap from the other side: the name is out of place
    assert claim.misplaced == ("Kart Racer",) and claim.rejected_by == (
        "links",
        "anchors",
        "substitutions",
    )
    # Two sections joined by a name the claim gives, each adding facts: supported.
    joined = games.ground(
        "Formula Arcade was developed by Studio Nine, a developer based in Leeds.", node_ids=ids
    )
    assert joined.claims[0].node_ids == ("arcade", "studio")
    assert joined.claims[0].unlinked == () and joined.claims[0].supported
    off = games.ground(
        "Kart Racer is a racing game developed by Studio Nine.",
        node_ids=ids,
        check_links=False,
        check_anchors=False,
        check_substitutions=False,
    )
    assert off.claims[0].supported


def test_verify_vetoes_claims_the_words_support(bakery):
    bread = [section(bakery, "Bread")]
    asked: list[tuple[str, str]] = []

    def nli(claim: str, evidence: str) -> float:
        asked.append((claim, evidence))
        return 0.2 if "never" in claim else 0.9

    found = bakery.ground(
        "Dough never rises in the cold room. Bake the loaves at 230 degrees. Tomatoes are red.",
        node_ids=bread,
        verify=nli,
        check_negation=False,  # the rule would refuse "never" first; here verify does
    )
    first, second, third = found.claims
    assert (first.supported, first.vetoed, first.nli) == (False, True, 0.2)
    assert first.rejected_by == ("verify",) and first.grounded == 0.0
    assert (second.supported, second.vetoed, second.nli) == (True, False, 0.9)
    assert (third.supported, third.nli) == (False, None)  # not supported by words: not asked
    assert [c for c, _ in asked] == [first.text, second.text]
    assert asked[0][1] == "Dough rises overnight in the cold room."


@pytest.mark.parametrize("bad", [1.5, -0.1, math.nan, "yes", None, True])
def test_verify_must_return_a_probability(bakery, bad):
    with pytest.raises(InputError, match="probability between 0 and 1"):
        bakery.ground("Dough rises.", node_ids=[section(bakery, "Bread")], verify=lambda c, e: bad)


def test_json_form_uses_camel_case(bakery):
    found = bakery.ground("Bake the loaves at 230 degrees for 45 minutes.").to_dict()
    assert set(found) == {
        "share", "grounded", "mass", "minSupport", "supported", "unsupported", "citations",
        "claims",
    }  # fmt: skip
    claim = found["claims"][0]
    assert {"nodeIds", "rejectedBy", "missingNumbers", "missingNames", "unsupportedWords"} <= set(
        claim
    )
    assert claim["rejectedBy"] == ["numbers", "substitutions"] and claim["unsupportedWords"] == [
        "45"
    ]
    assert {"nodeId", "start", "end", "text", "sourceStart", "sourceEnd"} == set(
        claim["evidence"][0]
    )


class DictCorpus:
    """A corpus that knows only the four protocol methods (no source spans)."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts

    def node_texts(self, node_ids):
        return {i: self.texts[i] for i in node_ids if i in self.texts}

    def idf(self, term):
        return 1.0

    def terms(self, text):
        return [w.strip(".,").lower() for w in text.split() if len(w.strip(".,")) > 2]

    def candidate_nodes(self, text, limit):
        return list(self.texts)[:limit]


def test_any_corpus_with_the_four_methods_works():
    corpus = DictCorpus({"a": "Cats sleep all day. Dogs bark at night.", "b": "Owls hunt mice."})
    found = ground(corpus, "Dogs bark at night. Owls hunt rats.")
    first, second = found.claims
    assert first.supported and first.evidence[0].text == "Dogs bark at night."
    assert first.evidence[0].source_start is None
    assert second.share == pytest.approx(2 / 3) and second.unsupported_words == ("rats",)


def test_hostile_input_says_what_to_fix(bakery):
    bread = [section(bakery, "Bread")]
    with pytest.raises(InputTooLargeError, match="the answer"):
        bakery.ground("x" * (MAX_ANSWER_CHARS + 1))
    with pytest.raises(InputError, match="must be text"):
        bakery.ground(b"Dough rises.")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="must be text"):
        bakery.ground(None)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="list of node id strings"):
        bakery.ground("Dough rises.", node_ids="recipes#1")
    with pytest.raises(NotFoundError):
        bakery.ground("Dough rises.", node_ids=["no-such-node"])
    for bad in (1.5, -1, math.nan, True, "0.5"):
        with pytest.raises(InputError, match="min_support"):
            bakery.ground("Dough rises.", node_ids=bread, min_support=bad)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="max_nodes"):
        bakery.ground("Dough rises.", max_nodes=51)
    with pytest.raises(InputError, match="max_candidates"):
        bakery.ground("Dough rises.", max_candidates=0)
    with pytest.raises(InputError, match="verify must be a callable"):
        bakery.ground("Dough rises.", verify=5)  # type: ignore[arg-type]
    with pytest.raises(InputTooLargeError, match="query"):
        bakery.ground("Dough rises.", query="q" * 10_001)
    with pytest.raises(InputTooLargeError, match="sentence count"):
        bakery.ground("Dough rises. " * 2_001)


@pytest.mark.parametrize(
    "answer",
    [
        "\x00\x01\x02 dough \ufffd rises \U0001f600.",
        "." * MAX_ANSWER_CHARS,
        "> " * (MAX_ANSWER_CHARS // 2),
        "dough " * (MAX_ANSWER_CHARS // 6),
        "[" * 49_000 + "dough" + "]" * 49_000,
    ],
)
def test_odd_and_large_answers_finish(bakery, answer):
    started = time.perf_counter()
    found = bakery.ground(answer, node_ids=[section(bakery, "Bread")])
    assert time.perf_counter() - started < 20
    for claim in found.claims:
        assert answer[claim.start : claim.end] == claim.text


@settings(max_examples=40)
@given(st.sampled_from(["Bread", "Pantry"]), st.data())
def test_a_sentence_copied_from_a_section_is_fully_supported_by_it(bakery, title, data):
    node = bakery.node(section(bakery, title))
    spans = sentence_spans(node.content)
    start, end = data.draw(st.sampled_from(spans))
    sentence = node.content[start:end]
    found = bakery.ground(sentence, node_ids=[node.node_id])
    (claim,) = found.claims
    assert claim.supported and claim.share == 1.0
    assert claim.evidence[0].text == sentence


def test_the_graph_itself_is_a_corpus_with_source_spans(bakery):
    bread = section(bakery, "Bread")
    found = ground(bakery, "Dr. Weber checks every batch.", node_ids={bread})
    (evidence,) = found.claims[0].evidence
    assert RECIPES[evidence.source_start : evidence.source_end] == "Dr. Weber checks every batch."
    assert found == bakery.ground("Dr. Weber checks every batch.", node_ids=[bread])
