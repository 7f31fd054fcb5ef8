"""The conjunctive postings lookup agrees with a scan of the live nodes' terms."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph.index.all_terms import positions_with_every_term
from groundgraph.index.bm25 import LexicalIndex

TERMS = ["harbour", "tide", "ferry", "night", "log", "table"]
nodes = st.lists(
    st.tuples(st.integers(0, 4), st.lists(st.sampled_from(TERMS), min_size=1, max_size=6)),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(nodes, st.sets(st.integers(0, 4)), st.lists(st.sampled_from([*TERMS, "absent"]), max_size=3))
def test_every_term_lookup_is_a_scan_of_the_live_nodes(
    added: list[tuple[int, list[str]]], removed: set[int], terms: list[str]
) -> None:
    index = LexicalIndex()
    held: dict[int, set[str]] = {}
    for i, (doc, words) in enumerate(added):
        held[index.add_counts(f"n{i}", f"d{doc}", Counter(words), blank=False)] = set(words)
    for doc in removed:
        index.remove_doc(f"d{doc}")
    live = {p: t for p, t in held.items() if index.node_ids[p] in index.position}
    found = positions_with_every_term(index, terms)
    if any(term not in index.vocab for term in terms):
        assert found is None
        return
    assert found is not None
    assert found.tolist() == sorted(p for p, t in live.items() if set(terms) <= t)
