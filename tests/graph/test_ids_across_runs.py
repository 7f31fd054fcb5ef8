"""Two different files never get the same document id silently, across separate runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from groundgraph import DocumentGraph
from groundgraph.ingest import plan_folder
from groundgraph.ingest.folder import SkippedFile


def _tree(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "README.md").write_text("# Alpha\n\nAlpha keeps the queue.\n", "utf-8")
    (tmp_path / "b" / "README.md").write_text("# Beta\n\nBeta drains the queue.\n", "utf-8")
    return tmp_path / "a", tmp_path / "b"


def _index(graph: DocumentGraph, folder):
    return list(graph.index_files(plan_folder([folder]).files, workers=0))


def test_a_second_folder_does_not_replace_the_first_ones_file(tmp_path) -> None:
    a, b = _tree(tmp_path)
    graph = DocumentGraph(tmp_path / "g.db")
    (first,) = _index(graph, a)
    assert not isinstance(first[1], SkippedFile)
    generation = graph.stats().generation
    (second,) = _index(graph, b)
    skipped = second[1]
    assert isinstance(skipped, SkippedFile)
    assert "'readme' is taken by" in skipped.reason and str(a / "README.md") in skipped.reason
    assert graph.store.reads.get_document("readme").title == "Alpha"
    assert graph.stats().generation == generation  # nothing was written


def test_the_same_file_again_or_a_common_parent_still_works(tmp_path) -> None:
    a, _ = _tree(tmp_path)
    graph = DocumentGraph()
    _index(graph, a)
    (again,) = _index(graph, a)  # re-indexing a folder replaces its own documents
    assert not isinstance(again[1], SkippedFile)
    (a / "README.md").write_text("# Alpha\n\nAlpha now drains too.\n", "utf-8")
    (changed,) = _index(graph, a)  # so does an edited file
    assert not isinstance(changed[1], SkippedFile)
    both = _index(DocumentGraph(), tmp_path)  # one run over both: ids include the folder
    assert sorted(d.doc_id for _, docs in both for d in docs) == ["a-readme", "b-readme"]


@pytest.mark.slow
def test_the_cli_lists_the_file_it_did_not_index(tmp_path) -> None:
    a, b = _tree(tmp_path)
    db = str(tmp_path / "cli.db")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "groundgraph", "--db", db, *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    assert run("index", str(a)).returncode == 0
    done = run("index", str(b), "--json")
    assert done.returncode == 5, done.stderr  # a file was skipped
    report = json.loads(done.stdout)
    assert report["documents"] == 0 and report["store"]["documents"] == 1
    (skipped,) = report["skipped"]
    assert skipped["path"] == str(b / "README.md") and "is taken by" in skipped["reason"]
