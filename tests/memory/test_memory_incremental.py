"""The memory kept current across writes answers as a freshly opened one.

A graph that has read between its writes keeps what it loaded (the edges around the
nodes it walked, its views of the facts, where the facts sit in the lexical index, the
links between similar spans) and after each write drops or moves only what the write
touched. Whatever the writes were (facts added, superseded, deleted, linked, a document
added), every read must answer exactly as a graph opened afresh on the same file.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph, GroundgraphError
from groundgraph.memory import spans
from groundgraph.memory.spans import SpanIndex

SPANS = ["heavy rain", "flooding", "power outages", "road closures", "crop losses", "price rises"]
TEXTS = [
    *[f"{a.capitalize()} caused {b}." for a in SPANS for b in SPANS if a != b][:14],
    "Heavy rain caused long power outages.",
    "Long power outages led to heavy crop losses.",
    "Alice Moreau works at Acme Foods in Berlin.",
    "Alice Moreau works at Globex in Lisbon.",
    "Acme Foods sells flooding insurance in Berlin.",
    "Sharp price rises were caused by heavy crop losses in Berlin.",
]
SCOPES = ["acme", "acme/red", "acme/blue", "globex"]
QUERIES = ["heavy rain", "power outages crop losses", "Alice Moreau Berlin", "price rises"]
READS = [
    {},
    {"scopes": ["acme/red"], "isolate": True},
    {"scopes": ["acme"]},
    {"include_superseded": True},
]

fact_scopes = st.lists(st.sampled_from(SCOPES), max_size=2).map(lambda s: sorted(set(s)) or None)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.sampled_from(TEXTS), fact_scopes),
        st.tuples(st.just("supersede"), st.integers(0, 50), st.sampled_from(TEXTS)),
        st.tuples(st.just("delete"), st.integers(0, 50), st.booleans()),
        st.tuples(st.just("link"), st.integers(0, 50), st.integers(0, 50)),
        st.tuples(st.just("cause"), st.integers(0, 50), st.sampled_from(SPANS)),
        st.tuples(st.just("document"), st.integers(0, 2), st.sampled_from(TEXTS)),
    ),
    min_size=1,
    max_size=8,
)


def _live(graph: DocumentGraph) -> list[str]:
    states = graph.memory.context.memory().states
    return sorted(f for f, s in states.items() if s.invalid_at is None)


def _apply(graph: DocumentGraph, op: tuple[Any, ...]) -> None:
    kind = op[0]
    live = _live(graph)
    try:
        if kind == "add":
            graph.add_text(op[1], scopes=op[2])
        elif kind == "document":
            graph.add_document(f"notes-{op[1]}", f"# Notes\n\n{op[2]}\n")
        elif not live:
            return
        elif kind == "supersede":
            graph.supersede(live[op[1] % len(live)], op[2])
        elif kind == "delete":
            graph.delete(live[op[1] % len(live)], purge_orphans=op[2])
        elif kind == "link":
            a, b = live[op[1] % len(live)], live[op[2] % len(live)]
            if a != b:
                graph.add_edges([(a, b)])
        elif kind == "cause":
            graph.add_edges([(live[op[1] % len(live)], op[2], "causes")])
    except GroundgraphError:  # e.g. a supersede by the same fact: refused, nothing written
        pass


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(v) for v in value]
    return value


def _answers(graph: DocumentGraph) -> list[Any]:
    out: list[Any] = []
    for read in READS:
        for query in QUERIES:
            out.append(_rounded(graph.query_detailed(query, top_k=6, **read)))
            out.append(_rounded(graph.discover(query, max_results=6, **read)))
    for fact in _live(graph)[:3]:
        out.append(_rounded(graph.trace_effects(fact)))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.lists(st.tuples(st.sampled_from(TEXTS), fact_scopes), max_size=6), ops=operations)
def test_a_memory_kept_across_writes_answers_as_a_fresh_one(start, ops):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.db"
        graph = DocumentGraph(path)
        for text, scopes in start:
            graph.add_text(text, scopes=scopes)
        _answers(graph)  # load edges, views and span links before the writes
        for op in ops:
            _apply(graph, op)
            kept = _answers(graph)
            fresh = DocumentGraph(path)
            try:
                assert kept == _answers(fresh), op
            finally:
                fresh.close()
        graph.close()


words = st.sampled_from(["the", "power", "outages", "long", "heavy", "rain", "crop", "losses"])
span_ids = st.lists(words, min_size=1, max_size=4).map(lambda w: "entity:" + " ".join(w))


@settings(max_examples=60, deadline=None)
@given(
    batches=st.lists(st.lists(span_ids, max_size=6), min_size=1, max_size=6), cap=st.integers(2, 8)
)
def test_span_links_kept_across_additions_are_those_found_afresh(batches, cap):
    # A small candidate cap, so that some spans weigh every candidate and some do not.
    spans.MAX_CANDIDATES, was = cap, spans.MAX_CANDIDATES
    try:
        _check_span_links(batches)
    finally:
        spans.MAX_CANDIDATES = was


def _check_span_links(batches: list[list[str]]) -> None:

    def same(a: str, b: str) -> bool:  # a cheap stand-in: the same last word
        return a.split()[-1] == b.split()[-1]

    kept = SpanIndex(same)
    for batch in batches:
        kept.add(batch)
        added = sorted(kept.spans)
        fresh = SpanIndex(same)
        fresh.add(added)
        assert [kept.similar(s) for s in added] == [fresh.similar(s) for s in added]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    batches=st.lists(
        st.tuples(st.lists(st.sampled_from(TEXTS), min_size=1, max_size=5), fact_scopes),
        min_size=1,
        max_size=4,
    ),
    source=st.sampled_from(["", "agent-1"]),
)
def test_facts_kept_as_written_are_the_facts_read_back(batches, source):
    # The memory takes a fact this process adds as written, without reading it back: its
    # state (text, date, scopes, source, events) and span nodes are what a fresh read gives.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.db"
        graph = DocumentGraph(path)
        for texts, scopes in batches:
            graph.memory.context.memory()  # current before the write: the kept path
            graph.add_texts(texts, scopes=scopes, source=source)
        kept = graph.memory.context.memory()
        fresh = DocumentGraph(path)
        try:
            read = fresh.memory.context.memory()
            assert kept.states == read.states
            assert kept.spans.spans == read.spans.spans
        finally:
            fresh.close()
            graph.close()
