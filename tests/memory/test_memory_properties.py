"""The promises of memory, as properties over random facts, scopes and queries.

- Isolation: an isolated read shows nothing of a fact outside its scopes, anywhere; and
  it answers exactly as a memory holding only the facts it may read would.
- ``as_of`` replays the past exactly: a read at T equals the same read on a memory that
  only ever held the facts valid at T, with the scopes they had then.
- ``what_if`` leaves the store byte for byte as it was.
- ``delete(..., purge_orphans=True)`` leaves no node, edge, posting, entity, event or
  ledger line of the fact.
"""

from __future__ import annotations

import contextlib
import hashlib
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph, InputError
from groundgraph.memory.scopes import ScopeReader
from groundgraph.memory.timeline import seen_since

SPANS = ["heavy rain", "flooding", "power outages", "road closures", "crop losses", "price rises"]
PEOPLE = ["Alice Moreau", "Bob Lindqvist", "Chen Wei"]
PLACES = ["Berlin", "Lisbon", "Osaka"]
ORGS = ["Acme Foods", "Globex"]
TEXTS = (
    [f"{a.capitalize()} caused {b}." for a in SPANS for b in SPANS if a != b][:18]
    + [f"{p} works at {o} in {c}." for p in PEOPLE for o in ORGS for c in PLACES][:10]
    + [f"{o} sells {s} insurance in {c}." for o in ORGS for s in SPANS[:2] for c in PLACES[:2]]
    # Spans that name the same thing in other words: linked by same_span at read time.
    + [
        "Heavy rain caused long power outages.",
        "Long power outages led to heavy crop losses.",
        "Sharp price rises were caused by heavy crop losses.",
    ]
)
SCOPES = ["acme", "acme/red", "acme/red/alice", "acme/blue", "globex", "globex/ops"]
READERS = [*SCOPES, "acme/red/alice/s1", "globex/ops/s2", "nobody"]
WORDS = sorted({w.strip(".").lower() for t in TEXTS for w in t.split()} | {"insurance costs"})

fact_scopes = st.lists(st.sampled_from(SCOPES), max_size=2).map(lambda s: sorted(set(s)))
facts = st.lists(st.tuples(st.sampled_from(TEXTS), fact_scopes), min_size=2, max_size=10)
queries = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
readers = st.lists(st.sampled_from(READERS), min_size=1, max_size=2).map(lambda s: sorted(set(s)))


def _graph(path: str = ":memory:", **options: Any) -> DocumentGraph:
    return DocumentGraph(path, dedup_threshold=None, conflict_resolver=False, **options)


def _ranked(rows: list[dict[str, Any]]) -> list[tuple[str, float]]:
    return [(r["factId"], round(r["score"], 9)) for r in rows]


# ----------------------------------------------------------------- isolation
def _visible_text(graph: DocumentGraph, reader: ScopeReader) -> str:
    states = graph.memory.context.memory().states
    return "\n".join(s.text for s in states.values() if reader.reads(s.scopes))


def _check_path(path: list[dict[str, Any]], reader: ScopeReader, visible: str) -> None:
    for step in path:
        if "factId" in step:
            assert reader.reads(step["scopes"]) and not step["crossScope"]
        else:
            name = step.get("entity", step.get("span", ""))
            assert name.casefold() in visible.casefold(), name


@settings(max_examples=40)
@given(facts=facts, query=queries, scopes=readers)
@example(  # a sentence the reader's scope got after another fact: it comes second for it
    facts=[
        ("Heavy rain caused flooding.", []),
        ("Heavy rain caused power outages.", ["acme"]),
        ("Heavy rain caused flooding.", ["acme"]),
    ],
    query="acme",
    scopes=["acme"],
)
def test_isolation_never_leaks(facts, query, scopes):
    graph = DocumentGraph()  # rule-based resolver and dedup on: the default memory
    for text, fact_scopes_ in facts:
        graph.add_text(text, scopes=fact_scopes_ or None)
    reader = ScopeReader(tuple(scopes))
    visible = _visible_text(graph, reader)
    states = graph.memory.context.memory().states
    readable = {f for f, s in states.items() if reader.reads(s.scopes)}
    options = {"scopes": scopes, "isolate": True}

    rows = graph.query_detailed(query, top_k=10, **options)
    for row in rows:
        assert row["factId"] in readable and reader.reads(row["scopes"])
        _check_path(row["explanation"]["path"], reader, visible)
    for row in graph.discover(query, max_results=20, **options):
        assert row["factId"] in readable
        _check_path(row["path"], reader, visible)
        for pair in row["causes"]:
            assert pair["cause"] in row["content"] and pair["effect"] in row["content"]
    answer = graph.answer(query, **options)
    assert {f["factId"] for f in answer["facts"]} <= readable
    for sentence in answer["sentences"]:
        assert set(sentence["factIds"]) <= readable
    states = graph.memory.context.memory().states
    for fact in sorted(f for f in readable if states[f].invalid_at is None):
        trace = graph.trace_effects(fact, **options)
        assert all(h["factId"] in readable for h in trace["chain"])
        assert all(t.casefold() in visible.casefold() for t in trace["terminals"])
        assert all(h["factId"] in readable for h in graph.trace_causes(fact, **options)["chain"])
        counter = graph.what_if(fact, **options)
        for item in counter["collapsed"] + counter["survived"]:
            assert item["factId"] in readable
        history = graph.supersession_history(fact, scopes=scopes)
        for other in history["supersedes"] + history["supersededBy"]:
            assert other["factId"] in readable
    for line in graph.conflicts(scopes=scopes):
        assert line["new"]["factId"] in readable or reader.reads(line["new"]["scopes"])
        assert reader.reads(line["old"]["scopes"])

    # Stronger: the isolated read is the read of a memory holding only the readable facts,
    # added in the order the reader's scopes got them (``timeline.seen_since``).
    alone = _graph()
    for fact in sorted(readable, key=lambda f: seen_since(states[f], reader.reads)):
        if states[fact].invalid_at is None:
            alone.add_text(states[fact].text, scopes=list(states[fact].scopes) or None)
    assert _ranked(rows) == _ranked(alone.query_detailed(query, top_k=10, scopes=scopes))


# ----------------------------------------------------------------- time travel
operations = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.sampled_from(TEXTS), fact_scopes),
        st.tuples(st.just("supersede"), st.integers(0, 50), st.sampled_from(TEXTS)),
    ),
    min_size=2,
    max_size=9,
)


@settings(max_examples=30)
@given(ops=operations, query=queries, scopes=st.one_of(st.none(), readers), isolate=st.booleans())
def test_as_of_replays_the_past_exactly(ops, query, scopes, isolate):
    graph = _graph()
    # The test's own account of the memory: text -> [scopes, valid], in creation order.
    model: dict[str, list[Any]] = {}
    moments: list[tuple[datetime, list[tuple[str, tuple[str, ...]]]]] = []
    for op in ops:
        if op[0] == "add":
            _, text, fact_scopes_ = op
            graph.add_text(text, scopes=fact_scopes_ or None)
            key = graph.fact(text).text
            entry = model.setdefault(key, [set(), True])
            entry[0] |= set(fact_scopes_)
            entry[1] = True
        else:
            _, pick, new_text = op
            live = [t for t, (_, valid) in model.items() if valid]
            fresh = graph.memory.context.find(new_text) is None
            if not live or not fresh:
                continue
            old = live[pick % len(live)]
            graph.supersede(old, new_text)
            model[old][1] = False
            model[new_text] = [set(model[old][0]), True]
        time.sleep(0.001)
        moments.append(
            (datetime.now(UTC), [(t, tuple(sorted(s))) for t, (s, v) in model.items() if v])
        )
        time.sleep(0.001)
    for moment, valid in moments:
        past = _graph()
        for text, fact_scopes_ in valid:
            past.add_text(text, scopes=list(fact_scopes_) or None)
        read = {"scopes": scopes, "isolate": isolate}
        then = graph.query_detailed(query, top_k=8, as_of=moment, **read)
        assert _ranked(then) == _ranked(past.query_detailed(query, top_k=8, **read))
        for text, _ in valid[:2]:
            if scopes is None:
                was = graph.trace_effects(text, as_of=moment)["chain"]
                assert was == past.trace_effects(text)["chain"]


# ----------------------------------------------------------------- what-if
def _file_bytes(path: Path) -> dict[str, str]:
    out = {}
    for suffix in ("", "-wal"):
        part = Path(str(path) + suffix)
        if part.exists():
            out[suffix] = hashlib.sha256(part.read_bytes()).hexdigest()
    return out


@settings(max_examples=15)
@given(
    facts=facts,
    pick=st.integers(0, 20),
    origin=st.integers(0, 20),
    direction=st.sampled_from(["effects", "causes"]),
    scopes=st.one_of(st.none(), readers),
)
def test_what_if_leaves_the_store_byte_identical(facts, pick, origin, direction, scopes):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.db"
        graph = DocumentGraph(path)
        for text, fact_scopes_ in facts:
            graph.add_text(text, scopes=fact_scopes_ or None)
        states = graph.memory.context.memory().states
        reader = ScopeReader(None if scopes is None else tuple(scopes))
        ids = sorted(
            f for f, s in states.items() if s.invalid_at is None and reader.reads(s.scopes)
        )
        if not ids:
            graph.close()
            return
        before = _file_bytes(path)
        dump = list(graph.store._conn.iterdump())  # type: ignore[attr-defined]
        result = graph.what_if(
            ids[pick % len(ids)], origin=ids[origin % len(ids)], direction=direction, scopes=scopes
        )
        assert set(result) >= {"pruned", "origin", "prunedEdges", "collapsed", "survived"}
        assert list(graph.store._conn.iterdump()) == dump  # type: ignore[attr-defined]
        assert _file_bytes(path) == before
        graph.close()


# ----------------------------------------------------------------- purge
@settings(max_examples=25)
@given(facts=facts, pick=st.integers(0, 20))
def test_purge_leaves_nothing_of_the_fact(facts, pick):
    graph = DocumentGraph()
    for text, fact_scopes_ in facts:
        graph.add_text(text, scopes=fact_scopes_ or None)
    states = graph.memory.context.memory().states
    fact = sorted(states)[pick % len(states)]
    text = states[fact].text
    own_terms = set(graph.index.counter.counts("", text))
    other_terms = {
        t for f, s in states.items() if f != fact for t in graph.index.counter.counts("", s.text)
    }
    touched = {e.target for e in graph.store.reads.edges_touching([fact])} | {
        end
        for e in graph.store.reads.iter_edges()
        if fact in e.sources
        for end in (e.source, e.target)
    }
    graph.delete(fact, purge_orphans=True)

    store = graph.store
    assert store.reads.get_document(fact) is None and store.reads.get_nodes([fact]) == {}
    for edge in store.reads.iter_edges():
        assert fact not in edge.sources and fact not in (edge.source, edge.target)
    entities = {n.node_id for n in store.reads.entity_nodes()}
    for node in touched - {fact}:
        if node in entities:  # a surviving entity is still used by another edge
            assert store.reads.edges_touching([node])
    assert fact not in graph.index.position and fact not in graph.index.node_ids
    assert not (own_terms - other_terms) & set(graph.index.vocab)
    memory = graph.memory.context.memory()
    # Issue 11: facts are in the one lexical index (checked above); the memory keeps only
    # the term counts of retired facts, and none of this one.
    assert fact not in memory.states and fact not in memory.retired
    assert store.ledger.fact_events([fact]) == [] and store.ledger.access_times([fact]) == {}
    assert store.ledger.conflict_records(fact) == []
    assert text not in graph.query(text, top_k=20)


_HOMES = [f"Ana lives in {city}." for city in ("Lisbon", "Porto", "Braga", "Faro")]


@settings(max_examples=20, deadline=None)
@given(
    ops=st.lists(
        st.tuples(st.sampled_from(["add", "other scope", "supersede"]), st.integers(0, 3)),
        min_size=1,
        max_size=6,
    )
)
def test_a_reused_view_never_outlives_a_write(ops):
    # Reads with the same options reuse one view until the next write (memory_core.py):
    # every read must answer as a graph that never read before.
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.db"
        graph = DocumentGraph(path)
        for op, i in ops:
            if op == "add":
                graph.add_text(_HOMES[i], scopes=["team/a"])
            elif op == "other scope":
                graph.add_text(_HOMES[i], scopes=["team/b"])
            else:
                with contextlib.suppress(InputError):  # no such fact, or the same text again
                    graph.supersede(_HOMES[0], _HOMES[i] + " Now.")
            for scopes in (["team/a"], ["team/b"], None):
                for superseded in (False, True):
                    got = graph.query(
                        "Where does Ana live?", scopes=scopes, include_superseded=superseded
                    )
                    with DocumentGraph(path) as fresh:
                        assert got == fresh.query(
                            "Where does Ana live?", scopes=scopes, include_superseded=superseded
                        ), (op, i, scopes, superseded)
        graph.close()
