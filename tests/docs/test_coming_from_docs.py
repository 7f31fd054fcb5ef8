"""docs/coming-from.md: GraphRack's README commands, as the page writes them, run as real
``python -m groundgraph`` processes on the kind of input GraphRack reads (a folder of .md,
.txt and .jsonl files and a question file: ``graphrack_input/examples``, our own words)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from repo_paths import ROOT

PAGE = ROOT / "docs" / "coming-from.md"
INPUT = Path(__file__).parent / "graphrack_input"

#: The six commands of GraphRack's README (its quick start and the `graph` line of its CLI
#: reference), as it writes them. The one name that changes is the program's:
#: `graphrack` is `groundgraph`; every argument and option stays as it is.
GRAPHRACK_README = """\
graphrack index examples/docs --out index.json
graphrack ask "Which benchmark evaluates Aurora?" --index index.json
graphrack search "Aurora benchmark" --index index.json
graphrack bridge aurora atlas --index index.json
graphrack graph --index index.json --out graph.json
graphrack eval examples/questions.jsonl --index index.json --top-k 3
"""


def page_commands() -> list[list[str]]:
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## GraphRack", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", section, re.DOTALL)
    assert block is not None, "the GraphRack section has no bash block"
    return [shlex.split(line) for line in block.group(1).splitlines() if line.strip()]


def readme_commands() -> list[list[str]]:
    return [shlex.split(line) for line in GRAPHRACK_README.splitlines()]


def test_the_page_writes_the_readme_commands_with_only_the_program_renamed():
    renamed = [["groundgraph", *words[1:]] for words in readme_commands()]
    assert page_commands() == renamed


@pytest.fixture
def folder(tmp_path):
    shutil.copytree(INPUT, tmp_path, dirs_exist_ok=True)
    return tmp_path


def groundgraph(folder: Path, words: list[str]) -> subprocess.CompletedProcess[str]:
    """``words`` as the page writes them, run as a process: `groundgraph` is this Python's
    ``-m groundgraph`` (the installed script is the same entry point)."""
    assert words[0] == "groundgraph"
    env = {k: v for k, v in os.environ.items() if k != "GROUNDGRAPH_DB"}
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", *words[1:]],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_graphrack_commands_run_as_written(folder):
    outputs: dict[str, str] = {}
    for words in page_commands():
        done = groundgraph(folder, words)
        assert done.returncode == 0, (words, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        outputs[words[1]] = done.stdout
    # `index --out` wrote the store the others read (a SQLite file, whatever its name),
    # and no default store was made.
    assert not (folder / "groundgraph.db").exists()
    with sqlite3.connect(folder / "index.json") as db:
        stored = {row[0] for row in db.execute("SELECT doc_id FROM documents")}
    assert stored == {"model-card", "benchmarks", "paper-1", "paper-2"}

    # ask: an extractive answer, a sentence copied from a document, and its citation.
    sources = {p.stem: p.read_text(encoding="utf-8") for p in (folder / "examples/docs").iterdir()}
    answer, citation = outputs["ask"].splitlines()[:2]
    assert any(answer in text for text in sources.values())
    assert "benchmark" in answer.lower() and "aurora" in answer.lower()
    assert citation.strip().startswith("—")

    # search: scored hits, each saying how it was reached; a direct match holds both words.
    rows = [line.split() for line in outputs["search"].splitlines()[1:] if line[:1] == " "]
    scores = [float(row[0]) for row in rows if re.fullmatch(r"\d\.\d{3}", row[0])]
    assert scores and scores == sorted(scores, reverse=True)
    assert "direct match" in outputs["search"]

    # bridge: paths from aurora to atlas, every hop followed by the sentence supporting it.
    bridges = outputs["bridge"].splitlines()
    assert bridges[0].startswith("1. ") and "Aurora" in bridges[0] and "Atlas" in bridges[0]
    hops = [i for i, line in enumerate(bridges) if "-[" in line]
    assert hops and all(bridges[i + 1].strip().startswith("“") for i in hops)

    # graph: nodes, and edges between them, each with its provenance.
    graph = json.loads((folder / "graph.json").read_text(encoding="utf-8"))
    node_ids = {node["nodeId"] for node in graph["nodes"]}
    assert {"model-card", "benchmarks", "paper-1", "paper-2"} <= node_ids
    assert graph["edges"]
    for edge in graph["edges"]:
        assert edge["from"] in node_ids and edge["to"] in node_ids
        assert edge["sources"] and set(edge["sources"]) <= node_ids

    # eval: GraphRack's metrics at k = 3, the numbers `eval retrieval -k 3` gives.
    long_form = "groundgraph --db index.json eval retrieval examples/questions.jsonl -k 3 --json"
    long = groundgraph(folder, shlex.split(long_form))
    assert long.returncode == 0, long.stderr
    report = json.loads(long.stdout)
    header = next(line for line in outputs["eval"].splitlines() if "precision@3" in line)
    columns = [cell.strip() for cell in header.strip("|").split("|")]
    for line in outputs["eval"].splitlines()[2:]:
        cells = dict(zip(columns, (c.strip() for c in line.strip("|").split("|")), strict=True))
        metrics = report["configs"][cells["config"]]["scores"]
        for name in ("precision@3", "recall@3", "mrr@3"):
            assert float(cells[name].split()[0]) == pytest.approx(metrics[name]["mean"], abs=5e-4)


def test_bridge_joins_two_plain_words_with_cited_hops(folder):
    # Not a README line: two lower-case words that name no entity, only text.
    assert groundgraph(folder, page_commands()[0]).returncode == 0
    done = groundgraph(
        folder, ["groundgraph", "bridge", "encyclopedia", "passages", "--index", "index.json"]
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "#word:encyclopedia" in done.stdout and "#word:passages" in done.stdout
    hops = [i for i, line in enumerate(lines) if "-[" in line]
    assert hops and all(lines[i + 1].strip().startswith("“") for i in hops)
