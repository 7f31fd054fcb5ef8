"""Where the walk reads its arcs (search.walk_source): a search through the adjacency in
memory returns what a search through the store returns (rankings, scores, explanations),
and the adjacency is built once store walks have cost enough, and dropped on a write."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.search.walk_source import WalkSource

WORDS = ["harbor", "engine", "lambda", "capture", "socket", "buffer", "thread", "window"]


def markdown(sections: list[tuple[str, list[str]]]) -> str:
    return "\n\n".join(f"## {title}\n\n{' '.join(body)}." for title, body in sections)


documents = st.lists(
    st.lists(
        st.tuples(
            st.sampled_from(WORDS).map(str.title),
            st.lists(st.sampled_from(WORDS), min_size=1, max_size=12),
        ),
        min_size=1,
        max_size=5,
    ),
    min_size=1,
    max_size=6,
)


def in_memory(graph: DocumentGraph, yes: bool) -> None:
    """Walk through the adjacency (built on the next walk), or through the store only."""
    graph.reader.walks = WalkSource(graph.store, 0.0 if yes else math.inf)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    documents,
    st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3), min_size=1, max_size=4),
    st.integers(1, 2),
    st.integers(1, 30),
    st.integers(1, 10),
)
def test_searching_through_memory_changes_nothing(docs, queries, hops, cap, results):
    graph = DocumentGraph()
    for i, sections in enumerate(docs):
        graph.add_document(markdown(sections), f"Doc {i} {WORDS[i % len(WORDS)]}")
    for words in queries:
        query = " ".join(words)
        options = {"max_hops": hops, "max_activated": cap, "max_results": results}
        in_memory(graph, False)
        through_store = [h.to_dict() for h in graph.search(query, **options)]
        assert graph.reader.walks.adjacency() is None
        in_memory(graph, True)
        through_memory = [h.to_dict() for h in graph.search(query, **options)]
        assert graph.reader.walks.adjacency() is not None
        assert through_memory == through_store


def test_the_adjacency_is_built_after_enough_store_walks_and_dropped_on_a_write(guide):
    graph = DocumentGraph()
    graph.add_document(guide, "User Guide")
    walks = graph.reader.walks
    walks.seconds_per_node = 1.0  # an expensive build: a search alone never pays for it
    expected = [h.to_dict() for h in graph.search("config fails")]
    assert walks.adjacency() is None
    walks.seconds_per_node = 1e-12  # now the walks so far have paid for it
    assert [h.to_dict() for h in graph.search("config fails")] == expected
    assert walks.adjacency() is not None
    # A lexical search or a scoped one does not use it, and does not need it.
    graph.search("config fails", max_hops=0)
    graph.add_document("## Rollback\n\nWhen the config fails, roll back.", "Runbook")
    walks.seconds_per_node = 1.0
    after = [h.to_dict() for h in graph.search("config fails")]
    assert walks.adjacency() is None  # the write moved the generation on
    walks.seconds_per_node = 1e-12
    graph.search("deploy")  # pays for it again
    assert walks.adjacency() is not None
    assert walks.adjacency().generation == graph.store.changes.generation()
    assert [h.to_dict() for h in graph.search("config fails")] == after
    assert any(h["docId"] == "runbook" for h in after)


def test_an_adjacency_of_another_generation_is_dropped_and_not_built_again(guide):
    # The caller's indexes are at an older generation than the store it reads (a write
    # came between): the adjacency read is of the newer one, so it is not used, and no
    # second build is tried until the caller's generation moves.
    graph = DocumentGraph()
    graph.add_document(guide, "User Guide")
    store = graph.store
    reads = {"count": 0}
    read_columns = store.reads.edge_columns

    def counted():
        reads["count"] += 1
        return read_columns()

    store.reads.edge_columns = counted  # type: ignore[method-assign]
    source = WalkSource(store, build_share=0.0)
    now = store.changes.generation()
    for _ in range(3):
        arcs = source.arcs(now - 1, 10)
        assert arcs.prefetch and source.adjacency() is None  # through the store
    assert reads["count"] == 1
    arcs = source.arcs(now, 10)
    assert not arcs.prefetch and source.adjacency() is not None and reads["count"] == 2
    assert source.adjacency().generation == now
