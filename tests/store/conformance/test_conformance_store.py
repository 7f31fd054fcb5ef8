"""Store conformance: a backend holds a part per protocol, and a closed store refuses work."""

from __future__ import annotations

import pytest
from store_data import everything, write
from store_parts import PARTS, implements

from groundgraph.errors import StoreError
from groundgraph.store import (
    Blobs,
    ChangeLog,
    DocumentWrites,
    FactLedger,
    GraphReads,
    NodeVectors,
    Settings,
    Store,
    StorePacking,
)

REQUIRES = (Store,)


def test_a_store_has_a_part_per_protocol(store):
    for protocol in (
        DocumentWrites,
        GraphReads,
        ChangeLog,
        Settings,
        Blobs,
        FactLedger,
        NodeVectors,
        StorePacking,
        Store,
    ):
        assert implements(store, protocol), protocol.__name__
    assert sorted(PARTS.values()) == [
        "blobs",
        "changes",
        "ledger",
        "packing",
        "reads",
        "settings",
        "vectors",
        "writes",
    ]


def test_a_closed_store_refuses_work_and_closes_twice(store):
    store.close()
    for call in (
        store.changes.generation,
        store.reads.documents,
        lambda: store.blobs.load_blob("x"),
    ):
        with pytest.raises(StoreError, match="closed"):
            call()
    store.close()


def test_packing_keeps_the_graph_and_is_refused_inside_a_batch(store):
    for name in ("alpha", "beta", "gamma"):
        write(store, name, 4, entities=(f"entity:{name}",))
    store.writes.remove_document("beta")
    before = everything(store)
    assert store.packing.stored_bytes() >= 0
    assert store.packing.pack() in (True, False)
    assert everything(store) == before
    with store.writes.batch(), pytest.raises(StoreError, match="batch"):
        store.packing.pack()
    write(store, "delta", 2)  # the store goes on as before
    assert sorted(d.doc_id for d in store.reads.documents()) == ["alpha", "delta", "gamma"]
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.packing.pack()


def test_an_object_missing_a_part_is_no_store():
    class PartialBlobs:
        def load_blob(self, name):
            return None

        def save_blob(self, name, generation, data):
            pass

    class Partial:
        blobs = PartialBlobs()

        def close(self):
            pass

    assert implements(Partial(), Blobs) and not implements(Partial(), Store)
    assert not implements(Partial(), GraphReads)
