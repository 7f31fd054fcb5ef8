"""The command line, run as a real subprocess."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from groundgraph import DocumentGraph

# Every test here runs the CLI in a subprocess.
pytestmark = pytest.mark.slow


def run(
    *args: str, db: Path, cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GROUNDGRAPH_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
    )


@pytest.fixture
def corpus(tmp_path, kitchen, garden, guide):
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "kitchen.md").write_text(kitchen)
    (folder / "sub" / "garden.md").write_text(garden)
    (folder / "guide.md").write_text(guide)
    (folder / "notes.txt").write_text("Plain notes.\n\nAbout flour and bread.")
    (folder / "image.png").write_bytes(b"\x89PNG\r\n")
    (folder / "latin1.md").write_bytes("# Caf\xe9\n\ncr\xe8me".encode("latin-1"))
    return folder


def test_index_search_and_friends(tmp_path, corpus):
    db = tmp_path / "g.db"
    result = run("index", str(corpus), "--quiet", db=db)
    assert result.returncode == 5, result.stderr  # latin1.md could not be read: skipped
    assert "indexed 4 documents" in result.stdout
    assert "image.png" in result.stdout and "latin1.md" in result.stdout

    result = run("search", "config fails", db=db)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "how it was reached" in lines[0]
    assert "Troubleshooting" in lines[1] and "direct match" in lines[1]
    assert any("reference from" in line for line in lines)

    result = run("search", "config fails", "--json", db=db)
    hits = json.loads(result.stdout)
    assert hits[0]["title"] == "Troubleshooting" and hits[0]["edgeType"] is None
    assert {"nodeId", "docId", "score", "lexicalScore", "hops", "via", "path", "terms"} <= set(
        hits[0]
    )

    result = run("retrieve", "deploy", db=db)
    assert "### Deployment [guide#3]" in result.stdout

    result = run("outline", "guide", db=db)
    assert "- [guide#4] Troubleshooting" in result.stdout

    result = run("show", "guide#4", db=db)
    assert "reference" in result.stdout and "If config fails" in result.stdout

    result = run("stats", "--json", db=db)
    assert json.loads(result.stdout)["documents"] == 4


def test_export_import_and_remove(tmp_path, corpus):
    db = tmp_path / "g.db"
    run("index", str(corpus), "-q", db=db)
    out = tmp_path / "graph.json"
    assert run("export", "--out", str(out), db=db).returncode == 0
    other = tmp_path / "copy.db"
    result = run("import", str(out), db=other)
    assert result.returncode == 0, result.stderr
    a = json.loads(run("search", "flour", "--json", db=db).stdout)
    b = json.loads(run("search", "flour", "--json", db=other).stdout)
    assert a == b
    result = run("remove", "guide", db=db)
    assert result.returncode == 0 and "removed guide" in result.stdout
    assert run("outline", "guide", db=db).returncode != 0


def test_export_to_stdout_and_a_refused_import(tmp_path, corpus):
    db = tmp_path / "g.db"
    run("index", str(corpus), "-q", db=db)
    out = tmp_path / "graph.json"
    assert run("export", "-o", str(out), db=db).returncode == 0
    printed = run("export", db=db).stdout
    assert printed == out.read_text(encoding="utf-8") + "\n"
    assert not list(tmp_path.glob("*.part"))
    data = json.loads(printed)
    data["groundgraph"]["edges"].append({"type": "mentions"})  # broken at the very end
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    other = tmp_path / "other.db"
    result = run("import", str(bad), db=other)
    assert result.returncode != 0 and "groundgraph.edges[" in result.stderr
    # A refused import keeps nothing: no store, or (when it was made first) an empty one.
    if other.exists():
        assert json.loads(run("stats", "--json", db=other).stdout)["documents"] == 0
    else:
        assert run("stats", db=other).returncode == 3


@pytest.mark.parametrize(
    "args, message",
    [
        (("outline", "missing"), "unknown document"),
        (("show", "missing#1"), "unknown node"),
        (("remove", "missing"), "unknown document"),
        (("index", "/no/such/place"), "does not exist"),
        (("index",), "name files or folders"),
    ],
)
def test_errors_are_one_clear_line(tmp_path, args, message):
    DocumentGraph(tmp_path / "g.db").close()  # an empty store
    result = run(*args, db=tmp_path / "g.db")
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args",
    [("search", "boiler"), ("stats",), ("outline", "d"), ("memory", "query", "why"), ("export",)],
)
def test_a_read_command_on_a_missing_store_fails_and_makes_none(tmp_path, args):
    missing = tmp_path / "typo.db"
    result = run(*args, db=missing)
    assert result.returncode == 3, result.stderr
    assert f"no store at {missing}" in result.stderr and "index FOLDER" in result.stderr
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_no_command_converts_another_applications_database(tmp_path, corpus):
    other = tmp_path / "shop.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    for args in (("search", "x"), ("index", str(corpus), "-q"), ("memory", "add", "a fact")):
        result = run(*args, db=other)
        assert result.returncode == 2, result.stderr
        assert "is not a groundgraph store" in result.stderr and "customers" in result.stderr
        assert "Traceback" not in result.stderr
    assert other.read_bytes() == before
    assert sorted(p.name for p in tmp_path.glob("shop.db*")) == ["shop.db"]


def test_import_refuses_bad_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}')
    result = run("import", str(bad), db=tmp_path / "g.db")
    assert result.returncode != 0 and "not a graph-of-thought v2" in result.stderr
    bad.write_bytes(b"\xff\xfe not json")
    result = run("import", str(bad), db=tmp_path / "g.db")
    assert result.returncode != 0 and "not UTF-8 JSON" in result.stderr
    assert "Traceback" not in result.stderr


def test_store_that_is_not_a_database(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"garbage" * 1000)
    result = run("stats", db=junk)
    assert result.returncode != 0 and "not a groundgraph store" in result.stderr


def test_example_corpus_and_help(tmp_path):
    db = tmp_path / "g.db"
    result = run("index", "--example", "-q", db=db)
    assert result.returncode == 0, result.stderr
    result = run("search", "why does the config fail to load", db=db)
    assert result.returncode == 0
    assert "Validation" in result.stdout or "worker exits" in result.stdout
    for command in (
        "index",
        "search",
        "retrieve",
        "outline",
        "show",
        "remove",
        "export",
        "import",
        "stats",
    ):
        help_text = run(command, "--help", db=db)
        assert help_text.returncode == 0 and "Usage:" in help_text.stdout


def test_default_store_is_a_file_in_the_current_folder(tmp_path, corpus):
    env = {k: v for k, v in os.environ.items() if k != "GROUNDGRAPH_DB"}
    result = subprocess.run(
        [sys.executable, "-m", "groundgraph", "index", str(corpus), "-q"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    # 5: the corpus holds a latin-1 file, which index skips and names (the rest is kept).
    assert result.returncode == 5, result.stderr
    assert "latin1.md is not valid UTF-8" in result.stdout + result.stderr
    assert (tmp_path / "groundgraph.db").exists()


def test_ask_bridge_and_graph_commands(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "lab.md").write_text(
        "# Lab\n\n## Origins\n\nAurora was developed by Aster Research.\n\n"
        "## Tests\n\nAurora was evaluated on the Atlas benchmark.\n"
    )
    db = tmp_path / "g.db"
    assert run("index", str(folder), "-q", db=db).returncode == 0
    answered = run("ask", "Who developed Aurora?", db=db)
    assert answered.returncode == 0, answered.stderr
    assert "Aurora was developed by Aster Research." in answered.stdout
    assert "lab#1" in answered.stdout
    unknown = run("ask", "What is the capital of Peru?", db=db)
    assert unknown.returncode == 1 and "insufficient_evidence" in unknown.stdout
    found = run("bridge", "Aster Research", "Atlas", "--json", db=db)
    assert found.returncode == 0, found.stderr
    bridges = json.loads(found.stdout)
    assert bridges and bridges[0]["names"][0] == "Aster Research"
    assert all(hop["support"] for hop in bridges[0]["hops"])
    missing = run("bridge", "Aster Research", "Nobody", db=db)
    assert missing.returncode == 3 and "no node, entity or indexed word" in missing.stderr
    out = tmp_path / "evidence.json"
    assert run("graph", "--out", str(out), db=db).returncode == 0
    data = json.loads(out.read_text())
    types = {e["type"] for e in data["edges"]}
    assert {"mentions", "parent-child"} <= types
    assert any(n["type"] == "entity" for n in data["nodes"])


def test_search_says_which_entity_a_hit_came_through(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# Alpha\n\n## Setup\n\nA license key unlocks Zephyr Engine.\n")
    (folder / "b.md").write_text(
        "# Beta\n\n## Costs\n\nPrices rise for the Zephyr Engine in spring.\n"
    )
    db = tmp_path / "g.db"
    assert run("index", str(folder), "-q", db=db).returncode == 0
    result = run("search", "license key", db=db)
    assert result.returncode == 0, result.stderr
    assert "via entity Zephyr Engine, mentioned in a#1" in result.stdout
    assert "-[mentions]-> entity 'Zephyr Engine' -[mentions]-> b#1" in result.stdout
