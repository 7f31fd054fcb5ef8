"""ChangeLog conformance: one generation per write, and the log of what each touched.
Written through DocumentWrites."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_data import write

from groundgraph.model import Edge
from groundgraph.store import ChangeLog, DocumentWrites

REQUIRES = (DocumentWrites, ChangeLog)


def test_a_new_store_is_at_generation_zero(store):
    assert store.changes.generation() == 0
    assert store.changes.changed_documents(0) == []


def test_the_log_names_each_changed_document_once(store):
    write(store, "a")
    write(store, "b")
    write(store, "a")
    store.writes.add_edges("b", [Edge("b#1", "a#1", "semantic", 0.3)])
    store.writes.remove_document("a")
    assert store.changes.generation() == 5
    assert store.changes.changed_documents(0) == ["a", "b"]
    assert store.changes.changed_documents(2) == ["a", "b"]
    assert store.changes.changed_documents(3) == ["b", "a"]
    assert store.changes.changed_documents(4) == ["a"]
    assert store.changes.changed_documents(5) == []


def test_the_generation_a_write_returns_is_the_stores(store):
    generation, _ = write(store, "a")
    assert generation == store.changes.generation()
    assert (
        store.writes.add_edges("a", [Edge("a#1", "a#2", "next", 0.4)]) == store.changes.generation()
    )


_OPS = st.lists(
    st.tuples(st.sampled_from(["add", "remove", "edge"]), st.sampled_from("abc")),
    max_size=25,
)


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_OPS)
def test_the_log_replays_any_mix_of_writes(new_store, ops):
    store = new_store()
    log: list[str] = []
    present: set[str] = set()
    for op, doc_id in ops:
        if op == "add":
            write(store, doc_id, n=1)
            present.add(doc_id)
        elif op == "edge" and doc_id in present:
            store.writes.add_edges(doc_id, [Edge(f"{doc_id}#1", doc_id, "next", 0.1)])
        elif op == "remove" and doc_id in present:
            store.writes.remove_document(doc_id)
            present.discard(doc_id)
        else:
            continue
        log.append(doc_id)
        assert store.changes.generation() == len(log)
    for since in range(len(log) + 1):
        assert store.changes.changed_documents(since) == list(dict.fromkeys(log[since:]))
