"""Store conformance: a backend holds a part per protocol, and a closed store refuses work."""

from __future__ import annotations

import pytest
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
        Store,
    ):
        assert implements(store, protocol), protocol.__name__
    assert sorted(PARTS.values()) == [
        "blobs",
        "changes",
        "ledger",
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
