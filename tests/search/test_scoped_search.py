"""Document search with scopes: nothing outside what the scopes may read is seeded,
walked through or returned."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph, InputError
from groundgraph.memory.scopes import ScopeReader

ALICE = ["Harbor Queue retries failed jobs three times.", "Harbor Queue runs on Riverton hosts."]
BOB = ["Harbor Queue drops jobs older than a week.", "Bob owns the Harbor Queue billing."]


def _graph() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_texts(ALICE, scopes=["acme/alice"])
    graph.add_texts(BOB, scopes=["acme/bob"])
    graph.add_text("Harbor Queue is the acme job system.", scopes=["acme"])
    graph.add_document("# Harbor Queue\nThe Harbor Queue manual for everyone.", "Manual")
    return graph


def _texts(hits: list) -> set[str]:
    return {hit.content for hit in hits}


def test_a_scope_reads_its_own_facts_and_its_ancestors_only() -> None:
    graph = _graph()
    hits = graph.search("Harbor Queue jobs", max_results=20, max_hops=4, scopes=["acme/alice"])
    found = _texts(hits)
    assert set(ALICE) <= found and "Harbor Queue is the acme job system." in found
    assert not found & set(BOB)
    assert "The Harbor Queue manual for everyone." not in found  # unscoped: not readable
    bob_ids = {f.fact_id for f in graph.add_texts(BOB, scopes=["acme/bob"])}  # same ids again
    for hit in hits:
        assert not set(hit.path) & bob_ids  # never walked through either


def test_without_scopes_everything_is_searched() -> None:
    graph = _graph()
    found = _texts(graph.search("Harbor Queue jobs", max_results=20))
    assert set(ALICE) | set(BOB) <= found


def test_scoped_search_refuses_ppr_and_empty_scopes() -> None:
    graph = _graph()
    with pytest.raises(InputError, match="bounded"):
        graph.search("Harbor Queue", scopes=["acme"], walker="ppr")
    with pytest.raises(InputError, match="empty list of scopes"):
        graph.search("Harbor Queue", scopes=[])


SCOPES = ["t1", "t2", "t1/a", "t2/b"]
WORDS = ["Lantern", "Orbit", "Pebble", "Quill", "ledger", "replica", "timeout", "shard"]


@settings(max_examples=25)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(WORDS), min_size=2, max_size=6), st.sampled_from(SCOPES)
        ),
        min_size=1,
        max_size=12,
    ),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    st.lists(st.sampled_from(SCOPES), min_size=1, max_size=2),
)
def test_isolation_never_leaks(facts, query, reader_scopes) -> None:
    graph = DocumentGraph(dedup_threshold=None)
    scope_of: dict[str, tuple[str, ...]] = {}
    for i, (words, scope) in enumerate(facts):
        fact = graph.add_text(f"{' '.join(words)} note {i}.", scopes=[scope])
        scope_of[fact.fact_id] = tuple(fact.scopes)
    reader = ScopeReader(tuple(sorted(set(reader_scopes))))

    def readable(node: str) -> bool:
        return node.startswith("entity:") or reader.reads(scope_of[node.split("#", 1)[0]])

    asserted: dict[frozenset[str], list[tuple[str, ...]]] = {}
    for edge in graph.store.reads.iter_edges():
        asserted.setdefault(frozenset((edge.source, edge.target)), []).append(edge.sources)
    for hit in graph.search(" ".join(query), max_results=20, max_hops=4, scopes=reader_scopes):
        assert reader.reads(scope_of[hit.doc_id])
        assert all(readable(node) for node in hit.path)
        for a, b in itertools.pairwise(hit.path):  # some edge of each step is readable
            assert any(all(readable(s) for s in sources) for sources in asserted[frozenset((a, b))])


def test_a_walk_never_steps_through_another_scope() -> None:
    graph = DocumentGraph()
    start = graph.add_text("Lantern Cache keeps hot keys in memory.", scopes=["alice"])
    bridge = graph.add_text("Lantern Cache feeds the Orbit Scheduler.", scopes=["bob"])
    beyond = graph.add_text("Orbit Scheduler plans nightly batches.", scopes=["alice"])
    # unscoped, the walk reaches the third fact only over what bob's fact asserts (its
    # mentions, or the co-occurrence of the two names in its sentence)
    opened = {h.node_id: h.path for h in graph.search("hot keys", max_hops=4)}
    assert beyond.fact_id in opened
    path = opened[beyond.fact_id]
    assert path[0] == start.fact_id and "entity:orbit scheduler" in path
    edges = {(e.source, e.target): e.sources for e in graph.store.reads.iter_edges()}
    steps = list(itertools.pairwise(path))
    assert any(
        bridge.fact_id in edges.get((a, b), edges.get((b, a), ())) or bridge.fact_id in (a, b)
        for a, b in steps
    )
    scoped = graph.search("hot keys", max_hops=4, scopes=["alice"])
    assert [h.node_id for h in scoped] == [start.fact_id]


@pytest.mark.slow
def test_cli_search_with_scopes(tmp_path) -> None:
    import json
    import subprocess
    import sys

    db = str(tmp_path / "cli.db")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "groundgraph", "--db", db, *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)

    assert run("memory", "add", ALICE[0], "--scope", "acme/alice").returncode == 0
    assert run("memory", "add", BOB[0], "--scope", "acme/bob").returncode == 0
    scoped = run("search", "Harbor Queue jobs", "--scope", "acme/alice", "--json")
    assert scoped.returncode == 0, scoped.stderr
    assert [h["content"] for h in json.loads(scoped.stdout)] == [ALICE[0]]
    everything = json.loads(run("search", "Harbor Queue jobs", "--json").stdout)
    assert {h["content"] for h in everything} == {ALICE[0], BOB[0]}
    bad = run("search", "Harbor Queue", "--scope", "../etc")
    assert bad.returncode == 2 and "scope" in bad.stderr


def test_a_scoped_search_scores_with_the_statistics_of_what_it_reads() -> None:
    """Another tenant's documents move no figure of a scoped search: each hit's score and
    per-term BM25 parts (tf, idf, part) are those of a graph that never held them."""
    crowded = _graph()
    # Bob's many facts with "jobs" would lower its idf store-wide, and make Harbor Queue an
    # entity too common to walk through (more than MAX_FANOUT edges) in the whole store
    bob = [f"Bob's Harbor Queue batch {i} holds jobs and retries." for i in range(70)]
    crowded.add_texts(bob, scopes=["acme/bob"])
    alone = DocumentGraph()
    alone.add_texts(ALICE, scopes=["acme/alice"])
    alone.add_text("Harbor Queue is the acme job system.", scopes=["acme"])

    def figures(graph: DocumentGraph) -> list[tuple]:
        hits = graph.search("Harbor jobs retries", max_results=20, scopes=["acme/alice"])
        return [(h.node_id, h.score, h.lexical_score, tuple(h.terms)) for h in hits]

    found = figures(crowded)
    assert found and found == figures(alone)
    assert any(term.idf for hit in found for term in hit[3])
    # unscoped, the same index scores with every node's statistics: the figures differ
    everything = crowded.search("Harbor jobs retries", max_results=20)
    ours = {h.node_id: tuple(h.terms) for h in everything}
    assert any(ours.get(node) != terms for node, _, _, terms in found)


def test_scoped_search_after_writes_reads_the_documents_as_they_are_now(tmp_path) -> None:
    # The documents a scoped search may read are kept between searches and re-read only
    # where writes changed them: scopes widened, facts removed, documents added.
    path = tmp_path / "memory.db"
    graph = DocumentGraph(path)
    graph.add_texts(ALICE, scopes=["acme/alice"])
    query = "Harbor Queue jobs"

    def same_as_fresh() -> None:
        fresh = DocumentGraph(path)
        for scopes in (["acme/alice"], ["acme/bob"], ["acme"]):
            kept = [(h.node_id, h.score) for h in graph.search(query, scopes=scopes)]
            assert kept == [(h.node_id, h.score) for h in fresh.search(query, scopes=scopes)]
        fresh.close()

    same_as_fresh()
    graph.add_texts(BOB, scopes=["acme/bob"])
    same_as_fresh()
    graph.add_text(ALICE[0], scopes=["acme/bob"])  # the same fact: now in both scopes
    same_as_fresh()
    graph.delete(BOB[0])
    graph.add_document("# Harbor Queue\nThe Harbor Queue manual for jobs.", "Manual")
    same_as_fresh()
    assert ALICE[0] in _texts(graph.search(query, scopes=["acme/bob"]))
    assert BOB[0] not in _texts(graph.search(query, scopes=["acme/bob"], max_results=20))
    graph.close()
