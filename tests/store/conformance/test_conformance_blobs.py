"""Blobs conformance: bytes in, the same bytes out, tagged with their generation."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph.store import Blobs, ChangeLog

REQUIRES = (Blobs,)


def test_a_blob_round_trips_with_its_generation(store):
    assert store.blobs.load_blob("bm25") is None
    store.blobs.save_blob("bm25", 4, b"\x00\x01data\xff")
    assert store.blobs.load_blob("bm25") == (4, b"\x00\x01data\xff")
    store.blobs.save_blob("bm25", 5, b"newer")
    assert store.blobs.load_blob("bm25") == (5, b"newer")
    store.blobs.save_blob("empty", 0, b"")
    assert store.blobs.load_blob("empty") == (0, b"")
    assert store.blobs.load_blob("bm25") == (5, b"newer")  # names are kept apart


def test_a_large_blob_round_trips(store):
    data = bytes(range(256)) * 8192  # 2 MiB
    store.blobs.save_blob("big", 7, data)
    assert store.blobs.load_blob("big") == (7, data)


def test_a_blob_is_not_a_graph_change(store):
    store.blobs.save_blob("bm25", 3, b"x")
    if isinstance(store, ChangeLog):
        assert store.changes.generation() == 0 and store.changes.changed_documents(0) == []


@settings(max_examples=50, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from("xyz"), st.integers(0, 2**62), st.binary()), max_size=6))
def test_blobs_keep_the_last_write_of_each_name(new_store, writes):
    store = new_store()
    for name, generation, data in writes:
        store.blobs.save_blob(name, generation, data)
    last = {name: (generation, data) for name, generation, data in writes}
    for name in "xyz":
        assert store.blobs.load_blob(name) == last.get(name)
