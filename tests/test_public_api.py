"""The public names of the package, pinned: changing them is a decision, not an accident."""

from __future__ import annotations

import groundgraph


def test_public_names_are_pinned():
    assert sorted(groundgraph.__all__) == [
        "Analyzer",
        "AsyncDocumentGraph",
        "BM25Params",
        "BudgetExhaustedError",
        "Document",
        "DocumentGraph",
        "Edge",
        "FormatError",
        "GroundedGraphOfThought",
        "GroundedReasoner",
        "GroundgraphError",
        "Hit",
        "InputError",
        "InputTooLargeError",
        "LLMBudget",
        "LLMConflictResolver",
        "LLMConnectionError",
        "LLMError",
        "LLMResponseError",
        "NoStoreError",
        "Node",
        "NotFoundError",
        "OpenAICompatibleLLM",
        "Removal",
        "RuleConflictResolver",
        "SQLiteStore",
        "SchemaVersionError",
        "Store",
        "StoreBusyError",
        "StoreError",
        "TermScore",
        "__version__",
        "budgeted",
        "execute_tools",
        "got_tools",
    ]
    for name in groundgraph.__all__:
        assert hasattr(groundgraph, name)


def test_heavier_names_load_on_first_use():
    from groundgraph.llm import OpenAICompatibleLLM
    from groundgraph.reason.thought import GroundedGraphOfThought

    assert groundgraph.GroundedGraphOfThought is GroundedGraphOfThought
    assert groundgraph.OpenAICompatibleLLM is OpenAICompatibleLLM
    try:
        groundgraph.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("an unknown name must raise AttributeError")


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


def test_importing_the_package_loads_only_the_errors_and_its_hook():
    # `import groundgraph` costs milliseconds: numpy, the graph and the store load when a
    # name that needs them is first read (issue 12, cold start).
    import subprocess
    import sys

    code = (
        "import sys, groundgraph; mods = sys.modules; "
        "print(sorted(m for m in mods if m.startswith('groundgraph')), 'numpy' in mods)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = "['groundgraph', 'groundgraph.errors', 'groundgraph.lazy_names'] False"
    assert done.stdout.strip() == loaded  # lazy_names: the first-use hook, standard library only
    typed = "from groundgraph import DocumentGraph; print(DocumentGraph.__module__)"
    done = subprocess.run([sys.executable, "-c", typed], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "groundgraph.graph.document_graph"
