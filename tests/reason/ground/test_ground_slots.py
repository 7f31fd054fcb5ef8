"""Substitutions (another value in the claim's place in its closest sentence) and negation
in scope: the two rules that read a claim word by word against its closest sentence."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.reason.anchors import Token, tokenize
from groundgraph.reason.negated import negation_in_scope
from groundgraph.reason.slots import exchanges, statements, substitutions
from groundgraph.reason.verifiers import negation_mismatch_verifier

STOP = {"the", "a", "an", "in", "of", "by", "at", "to", "was", "is", "it", "he", "who", "and"}
STOP |= {"not", "never", "no", "wasn't", "your", "did", "does"}


def _analyse(text: str) -> list[str]:
    word = text.lower()
    if word in STOP:
        return []
    return [word[:-1] if word.endswith("s") and len(word) > 3 else word]


def _tokens(text: str) -> list[Token]:
    return tokenize(text, _analyse)


def _replaced(claim: str, sentence: str) -> list[str]:
    tokens = _tokens(claim)
    other = _tokens(sentence)
    found = sorted({*substitutions(tokens, other), *exchanges(tokens, other)})
    return [claim[tokens[i].start : tokens[j - 1].end] for i, j in found]


def test_a_changed_number_or_date_is_a_substitution() -> None:
    evidence = "The company was founded in 1959 and is based in Detroit."
    assert _replaced("The company was founded in 1958 and is based in Detroit.", evidence) == [
        "1958"
    ]
    assert _replaced("It aired on October 22, 1999.", "It aired on October 27, 1999.") == ["22"]
    assert _replaced("The company was founded in 1959 and is based in Detroit.", evidence) == []


def test_a_swapped_name_and_an_exchange_of_two_names() -> None:
    evidence = "The band formed when James Hetfield answered an advert by drummer Lars Ulrich."
    swapped = "The band formed when Lars Ulrich answered an advert by drummer Lars Ulrich."
    assert _replaced(swapped, evidence) == ["Lars Ulrich"]
    # subject and object exchanged around an asymmetric verb: two substitutions
    assert _replaced("Carla Mendes defeated Rui Costa in the final.",
                     "Rui Costa defeated Carla Mendes in the final.") == [
        "Carla Mendes", "Rui Costa"
    ]  # fmt: skip
    # the passive voice says the same with the names the other way round
    assert _replaced("Carla Mendes was defeated by Rui Costa in the final.",
                     "Rui Costa defeated Carla Mendes in the final.") == []  # fmt: skip
    # two names in the other order with no word in common between them: a list, not a verb
    assert _replaced("Carla Mendes and Rui Costa played the final.",
                     "Rui Costa and Carla Mendes played the final.") == []  # fmt: skip


def test_a_name_written_twice_is_no_exchange() -> None:
    text = "Blue Road: Songs for Ann Vale is the album of the film Blue Road."
    assert _replaced(text, text) == []


def test_added_words_lower_case_changes_and_sentence_starts_are_not() -> None:
    # a name given in full, or words added around the shared text
    assert _replaced("Nolan directed Inception in 2010.",
                     "Christopher Nolan directed Inception in 2010.") == []  # fmt: skip
    # a change of ordinary words is the share's business, not a value's
    assert _replaced("Cotula is a genus of flowering plants.",
                     "Cotula is a species of flowering plants.") == []  # fmt: skip
    # an imperative, capitalised only for starting the sentence, and a capitalised pronoun
    assert _replaced("Edit the config to change ports.", "Open the config to change ports.") == []
    assert _replaced("The ferry stops at Ayr.", "It stops at Ayr.") == []
    # with nothing framing it, a difference is no substitution
    assert _replaced("Born 1950.", "Died 1960.") == []


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="Ab c1 2.,;", max_size=60))
def test_a_sentence_never_contradicts_itself(text: str) -> None:
    tokens = _tokens(text)
    assert substitutions(tokens, tokens) == []
    assert not negation_in_scope(tokens, tokens)


def test_negation_of_a_shared_word_differs() -> None:
    plain = _tokens("Lin was born in Ulm.")
    assert negation_in_scope(_tokens("Lin was not born in Ulm."), plain)
    assert negation_in_scope(plain, _tokens("Lin was never born in Ulm."))
    assert negation_in_scope(_tokens("Lin wasn't born in Ulm."), plain)
    assert not negation_in_scope(_tokens("Lin was not born in Ulm."),
                                 _tokens("Lin was not born in Ulm."))  # fmt: skip


def test_a_negation_in_a_clause_the_claim_does_not_state_is_out_of_scope() -> None:
    claim = "Lin was born in Ulm."
    evidence = "Lin, who never married, was born in Ulm."
    assert not negation_in_scope(_tokens(claim), _tokens(evidence))
    # the whole-sentence verifier sees a "never" and disagrees
    assert negation_mismatch_verifier(claim, evidence) == 0.0


TOWN = (
    "Harwick station opened in 1872 and closed in 1964. A museum of the line opened in "
    "1988. The station does not stop express trains. Mayor Ines Ford reopened the hall."
)


def _graph() -> DocumentGraph:
    graph = DocumentGraph(entities=None, relations=None)
    graph.add_document(TOWN, "Harwick", "harwick", format="text")
    graph.add_document("Ines Ford is a politician from Leeds.", "Ines Ford", "ford", format="text")
    graph.add_document("Tom Reed is a painter from York.", "Tom Reed", "reed", format="text")
    return graph


def test_ground_refuses_substitutions_and_negations_by_default() -> None:
    graph = _graph()
    ids = ["harwick", "ford", "reed"]
    changed = "Harwick station opened in 1988 and closed in 1964."
    claim = graph.ground(changed, node_ids=ids).claims[0]
    assert not claim.supported and claim.substituted == ("1988",)
    assert "substitutions" in claim.rejected_by and claim.to_dict()["substituted"] == ["1988"]
    off = graph.ground(changed, node_ids=ids, check_substitutions=False, check_anchors=False)
    assert off.claims[0].supported  # 1988 is held, in another sentence
    renamed = graph.ground("Mayor Tom Reed reopened the hall.", node_ids=ids).claims[0]
    assert renamed.substituted == ("Tom Reed",) and not renamed.supported
    denied = "The station stops express trains."
    claim = graph.ground(denied, node_ids=ids).claims[0]
    assert claim.rejected_by == ("negation",) and claim.to_dict()["negated"] == [
        "The station stops express trains"
    ]
    assert graph.ground(denied, node_ids=ids, check_negation=False).claims[0].supported
    assert (
        graph.ground("The station does not stop express trains.", node_ids=ids).claims[0].supported
    )
    assert graph.ground("Harwick station opened in 1872.", node_ids=ids).claims[0].supported


def test_statements_split_at_semicolons_outside_brackets() -> None:
    text = "Lisbon ( ; Portuguese: Lisboa) is a capital; Porto is a city."
    parts = statements(_tokens(text), text)
    assert [[t.text for t in p] for p in parts] == [
        ["Lisbon", "Portuguese", "Lisboa", "is", "a", "capital"],
        ["Porto", "is", "a", "city"],
    ]


def test_a_negated_number_is_in_scope() -> None:
    assert negation_in_scope(_tokens("The first draft was not 1976."),
                             _tokens("The first draft was 1976."))  # fmt: skip
