"""Store conformance: a backend is the whole union, and a closed store refuses work."""

from __future__ import annotations

import pytest

from groundgraph.errors import StoreError
from groundgraph.store import (
    Blobs,
    ChangeLog,
    DocumentWrites,
    FactLedger,
    GraphReads,
    Settings,
    Store,
)

REQUIRES = (Store,)


def test_a_store_is_every_protocol(store):
    for protocol in (DocumentWrites, GraphReads, ChangeLog, Settings, Blobs, FactLedger, Store):
        assert isinstance(store, protocol), protocol.__name__


def test_a_closed_store_refuses_work_and_closes_twice(store):
    store.close()
    for call in (store.generation, store.documents, lambda: store.blobs.load_blob("x")):
        with pytest.raises(StoreError, match="closed"):
            call()
    store.close()


def test_an_object_missing_a_method_is_no_store():
    class Partial:
        def load_blob(self, name):
            return None

        def save_blob(self, name, generation, data):
            pass

    assert isinstance(Partial(), Blobs) and not isinstance(Partial(), Store)
