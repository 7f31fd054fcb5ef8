"""What a CLI user sees when things go wrong: one line and an exit code, never a traceback."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from groundgraph import DocumentGraph

pytestmark = pytest.mark.slow

# A command whose search has a bug: what a user would meet in an unknown defect.
BUGGY = """
import functools, sys
from groundgraph.graph.reader import GraphReader
@functools.wraps(GraphReader.search)
def search(self, *args, **kwargs):
    raise ZeroDivisionError("a defect")
GraphReader.search = search
from groundgraph.cli import main
main(prog_name="groundgraph", args=sys.argv[1:], obj={})
"""


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "s.db"
    with DocumentGraph(path) as graph:
        text = "\n\n".join(f"## Part {i}\n\nThe config part {i} loads." for i in range(300))
        graph.add_document("# Config\n\n" + text, "Config", "config")
    return path


def _run(*args: str, db: Path, code: str | None = None) -> subprocess.CompletedProcess[str]:
    command = (
        [sys.executable, "-c", code, *args]
        if code
        else [sys.executable, "-m", "groundgraph", *args]
    )
    env = {**os.environ, "GROUNDGRAPH_DB": str(db)}
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)


def test_an_unexpected_error_is_a_bug_line_and_debug_shows_it(store: Path):
    result = _run("search", "config", db=store, code=BUGGY)
    assert result.returncode == 70
    assert "internal error (ZeroDivisionError: a defect)" in result.stderr
    assert "--debug" in result.stderr and "Traceback" not in result.stderr
    shown = _run("--debug", "search", "config", db=store, code=BUGGY)
    assert (
        shown.returncode != 0
        and "Traceback" in shown.stderr
        and "ZeroDivisionError" in shown.stderr
    )


def test_a_closed_pipe_ends_quietly(store: Path):
    env = {**os.environ, "GROUNDGRAPH_DB": str(store)}
    process = subprocess.Popen(
        [sys.executable, "-m", "groundgraph", "export"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(64)
    process.stdout.close()  # as `| head -c 64` does
    assert process.wait(timeout=60) == 141
    errors = process.stderr.read().decode()
    process.stderr.close()
    assert "Broken pipe" not in errors and "Traceback" not in errors and "Exception" not in errors


def test_a_damaged_store_is_one_line(store: Path):
    conn = sqlite3.connect(store)
    conn.execute("DROP TABLE edges")
    conn.commit()
    conn.close()
    result = _run("search", "config", db=store)
    assert result.returncode == 2
    assert "is damaged or unreadable" in result.stderr and "Traceback" not in result.stderr
