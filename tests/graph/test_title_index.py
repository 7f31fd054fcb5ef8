"""TitleIndex finds the titles named in a text as a scan of every title would."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from groundgraph.graph.linking import TitleIndex, contains_sequence, title_words
from groundgraph.model import Document
from groundgraph.text import words

WORDS = ["harbour", "log", "tide", "tables", "ferry", "night"]
titles = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
# Each step adds (or re-adds) a document under a title, or removes one.
steps = st.lists(
    st.tuples(st.integers(0, 5), st.one_of(titles, st.none())), min_size=1, max_size=25
)
texts = st.lists(st.sampled_from([*WORDS, "other"]), max_size=30)


def _named_by_scan(added: list[tuple[str, tuple[str, ...]]], seq: list[str]) -> list[str]:
    """Every title tried at every word, titles by document id."""
    found: dict[str, None] = {}
    for i in range(len(seq)):
        for doc_id, title in sorted(added):
            if tuple(seq[i : i + len(title)]) == title:
                found.setdefault(doc_id, None)
    return list(found)


@given(steps, texts)
def test_titles_named_in_a_text_come_in_text_order_then_by_document_id(steps, seq):
    index = TitleIndex()
    added: list[tuple[str, tuple[str, ...]]] = []
    for number, title in steps:
        doc_id = f"d{number}"
        added = [entry for entry in added if entry[0] != doc_id]
        if title is None:
            index.remove(doc_id)
            continue
        index.add(Document(doc_id, title))
        if title_words(title):
            added.append((doc_id, title_words(title)))
    assert index.named_in_words(seq) == _named_by_scan(added, seq)
    assert index.named_in(" ".join(seq)) == _named_by_scan(added, seq)


def test_a_removed_title_leaves_no_words_behind():
    index = TitleIndex.build([Document("a", "Night Ferry Log"), Document("b", "Night Ferry")])
    index.remove("a")
    index.remove("b")
    assert index.first == {}
    assert index.named_in("night ferry log") == []


# Text with links, URLs, punctuation and letters whose lower case is longer ("İ").
pieces = st.sampled_from(
    [*WORDS, "Harbour", "İtide", "[ferry](http://x/tide)", "https://log.example/night", ",", "-"]
)


@given(st.lists(pieces, max_size=25).map(" ".join), st.lists(st.sampled_from(WORDS), max_size=3))
def test_contains_sequence_is_a_scan_of_the_texts_words(text, seq):
    hay = words(text)
    n = len(seq)
    scanned = any(hay[i : i + n] == seq for i in range(len(hay) - n + 1))
    assert contains_sequence(text, seq) == scanned
