"""add_texts writes its facts in batches, one transaction each: a crash in the middle of a
batch leaves the store as it was before the batch, an error leaves the facts before it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from groundgraph import DocumentGraph

FACTS = [f"Fact number {n} names the widget W{n}." for n in range(6)]


def _texts(graph: DocumentGraph) -> list[str]:
    return sorted(s.text for s in graph.memory.context.memory().states.values())


def _stored(path: Path) -> list[str]:
    graph = DocumentGraph(path)
    try:
        return _texts(graph)
    finally:
        graph.close()


def test_a_crash_mid_batch_leaves_the_store_as_before_it(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    graph = DocumentGraph(path)
    graph.add_text("An earlier fact stays.")
    graph.close()
    script = textwrap.dedent(
        f"""
        import os
        from groundgraph import DocumentGraph
        from groundgraph.graph import batches
        batches.BATCH_SECONDS = 600.0  # one batch for the six, however slow the machine
        calls = []
        def names(text):
            calls.append(text)
            if len(calls) == 4:
                os._exit(3)  # the process dies: no commit, no cleanup
            return []
        DocumentGraph({str(path)!r}).add_texts({FACTS!r}, extractor=names)
        """
    )
    src = Path(__file__).resolve().parents[2] / "src"
    env = os.environ | {"PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, "-c", script], env=env, check=False)
    assert done.returncode == 3
    assert _stored(path) == ["An earlier fact stays."]


def test_an_error_keeps_the_facts_before_it(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    graph = DocumentGraph(path)

    def names(text: str) -> list[str]:
        if text == FACTS[3]:
            raise RuntimeError("extractor failed")
        return []

    with pytest.raises(RuntimeError):
        graph.add_texts(FACTS, extractor=names)
    assert _texts(graph) == sorted(FACTS[:3])
    graph.close()
    assert _stored(path) == sorted(FACTS[:3])
