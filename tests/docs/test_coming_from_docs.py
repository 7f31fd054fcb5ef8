"""docs/coming-from.md: GraphRack's README commands, as the page writes them, run on the
kind of input GraphRack reads (a folder of .md, .txt and .jsonl files; our own words)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from groundgraph.cli import main
from repo_paths import ROOT

PAGE = ROOT / "docs" / "coming-from.md"
INPUT = Path(__file__).parent / "graphrack_input"


def graphrack_commands() -> list[list[str]]:
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## GraphRack", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.DOTALL)
    assert block is not None, "the GraphRack section has no bash block"
    return [shlex.split(line) for line in block.group(1).splitlines() if line.strip()]


def test_the_page_names_the_six_readme_commands():
    names = [words[1] for words in graphrack_commands()]
    assert sorted(names) == ["ask", "bridge", "eval", "graph", "index", "search"]
    assert all(words[0] == "groundgraph" for words in graphrack_commands())


def test_graphrack_commands_run_as_written(tmp_path, monkeypatch):
    shutil.copytree(INPUT, tmp_path, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GROUNDGRAPH_DB", raising=False)
    outputs: dict[str, str] = {}
    for words in graphrack_commands():
        result = CliRunner().invoke(main, words[1:])
        assert result.exit_code == 0, (words, result.output, result.exception)
        outputs[words[1]] = result.output
    # `index --out` wrote the store the others read, and no default store was made.
    assert not (tmp_path / "groundgraph.db").exists()
    with sqlite3.connect(tmp_path / "index.json") as db:
        stored = {row[0] for row in db.execute("SELECT doc_id FROM documents")}
    assert {"lighthouse", "harbour", "puffin-count", "ferry-log"} <= stored
    # ask: a sentence copied from a document, cited.
    assert "puffin count" in outputs["ask"] and "— puffin-count" in outputs["ask"]
    # search: hits with how each was reached.
    assert "puffin-count" in outputs["search"] and "direct match" in outputs["search"]
    # bridge between two plain words: each hop names the sentence that supports it.
    assert "#word:puffin" in outputs["bridge"] and "#word:tide" in outputs["bridge"]
    assert "“" in outputs["bridge"]
    # graph: nodes, edges and their provenance.
    graph = json.loads((tmp_path / "graph.json").read_text(encoding="utf-8"))
    assert graph["nodes"] and graph["edges"]
    assert all("sources" in edge for edge in graph["edges"])
    # eval: the metrics GraphRack reports, at k = 3.
    for metric in ("precision@3", "recall@3", "mrr@3"):
        assert metric in outputs["eval"]
