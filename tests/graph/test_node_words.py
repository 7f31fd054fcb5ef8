"""Kept node words tell a title named in a node as reading the node's text would."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.graph.linking import contains_sequence
from groundgraph.graph.node_words import NodeWords, holds_words
from groundgraph.text import words

PIECES = ["Harbour", "log", "tide", "tide-tables", "ferry_night", "Ünïcode", "[a](b c)", "x1"]
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=6)), max_size=12).map(" ".join)
sequences = st.lists(st.sampled_from(["harbour", "log", "tide", "tables", "ferry"]), max_size=3)


@given(texts, sequences)
def test_holds_words_agrees_with_contains_sequence(text: str, seq: list[str]) -> None:
    assert holds_words(" ".join(words(text)), seq) == contains_sequence(text, seq)


def test_kept_words_go_with_their_document_and_stay_under_the_limit() -> None:
    kept = NodeWords(limit=10)
    kept.keep("a", ["a", "a#1"], ["one", "two"])
    assert kept.get("a#1") == "two" and kept.chars == 6
    kept.keep("a", ["a"], ["three"])  # a new version replaces the old one's words
    assert kept.get("a#1") is None and kept.get("a") == "three" and kept.chars == 5
    kept.keep("b", ["b"], ["too long"])  # over the limit: not kept
    assert kept.get("b") is None and kept.chars == 5
    kept.forget("a")
    assert kept.get("a") is None and kept.chars == 0


def test_a_title_named_in_an_earlier_node_links_it_with_or_without_kept_words() -> None:
    def references(keep: bool) -> set[tuple[str, str]]:
        graph = DocumentGraph()
        if not keep:
            graph.indexes.node_words.limit = 0
        graph.add_document("# Intro\n\nSee the Tide Tables for times.", "Guide", "guide")
        graph.add_document("# Times\n\nHigh water at noon.", "Tide Tables", "tides")
        return {(e.source, e.target) for e in graph.store.reads.iter_edges(["reference"])}

    assert ("guide#1", "tides") in references(keep=True)
    assert references(keep=True) == references(keep=False)
