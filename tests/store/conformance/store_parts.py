"""Which part of a store implements each store protocol."""

from __future__ import annotations

from groundgraph.store import (
    Blobs,
    ChangeLog,
    DocumentWrites,
    FactLedger,
    GraphReads,
    NodeVectors,
    Settings,
    StorePacking,
)

# The attribute of a store that holds each protocol's part.
PARTS: dict[type, str] = {
    DocumentWrites: "writes",
    GraphReads: "reads",
    ChangeLog: "changes",
    Settings: "settings",
    Blobs: "blobs",
    FactLedger: "ledger",
    NodeVectors: "vectors",
    StorePacking: "packing",
}


def implements(store: object, protocol: type) -> bool:
    """Whether ``store`` has ``protocol``'s part (or is one, for ``Store`` itself)."""
    part = PARTS.get(protocol)
    return isinstance(store if part is None else getattr(store, part, None), protocol)
