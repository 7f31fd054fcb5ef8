"""The public names of the package, pinned: changing them is a decision, not an accident."""

from __future__ import annotations

import groundgraph


def test_public_names_are_pinned():
    assert sorted(groundgraph.__all__) == [
        "Analyzer",
        "BM25Params",
        "Document",
        "DocumentGraph",
        "Edge",
        "FormatError",
        "GroundgraphError",
        "Hit",
        "InputError",
        "InputTooLargeError",
        "Node",
        "NotFoundError",
        "Removal",
        "SQLiteStore",
        "SchemaVersionError",
        "Store",
        "StoreBusyError",
        "StoreError",
        "TermScore",
        "__version__",
    ]
    for name in groundgraph.__all__:
        assert hasattr(groundgraph, name)


def test_error_tree():
    assert issubclass(groundgraph.InputError, groundgraph.GroundgraphError)
    assert issubclass(groundgraph.InputError, ValueError)
    assert issubclass(groundgraph.NotFoundError, KeyError)
    assert issubclass(groundgraph.InputTooLargeError, groundgraph.InputError)
    assert issubclass(groundgraph.FormatError, groundgraph.InputError)
    assert issubclass(groundgraph.SchemaVersionError, groundgraph.StoreError)
    assert issubclass(groundgraph.StoreBusyError, groundgraph.StoreError)


def test_version_matches_the_package_metadata():
    from importlib.metadata import version

    assert groundgraph.__version__ == version("groundgraph")
