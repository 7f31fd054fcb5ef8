"""The embedding options of the command line that need no model."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow


def run(*args: str, db) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GROUNDGRAPH_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_dense_modes_on_a_store_without_an_embedder_say_what_to_do(tmp_path):
    db = tmp_path / "g.db"
    assert run("index", "--example", "--quiet", "--embedder", "none", db=db).returncode == 0
    keyword = run("search", "config fails", "--mode", "keyword", db=db)
    assert keyword.returncode == 0 and "troubleshooting#1" in keyword.stdout
    dense = run("search", "config fails", "--mode", "hybrid", db=db)
    assert dense.returncode != 0 and "--embedder minilm" in dense.stderr
    wrong = run("search", "config", "--mode", "dense", db=db)
    assert wrong.returncode != 0 and "keyword" in wrong.stderr
    unknown = run("index", "--example", "--embedder", "word2vec", db=db)
    assert unknown.returncode != 0 and "minilm" in unknown.stderr
