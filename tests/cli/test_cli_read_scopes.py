"""The read commands take ``--scope`` as the service scopes its reads: ``outline``,
``show``, ``ask``, ``bridge``, ``ground`` and ``stats --docs`` read as the scopes named, and another
scope's document is unknown to them (the same answer as for an id nobody holds)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from groundgraph.graph import DocumentGraph

pytestmark = pytest.mark.slow

ATLAS = "# Atlas plan\n\n## Owner\nMira Okafor owns the Atlas boiler service."
ZEPHYR = "# Zephyr deal\n\n## Owner\nJonas Berg owns the Zephyr boiler contract."


def run(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GROUNDGRAPH_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("scoped") / "scoped.db"
    with DocumentGraph(path) as graph:
        graph.add_document(ATLAS, "Atlas plan", doc_id="atlas", scopes=["acme/a"])
        graph.add_document(ZEPHYR, "Zephyr deal", doc_id="zephyr", scopes=["acme/b"])
    return path


def test_outline_and_show_read_as_the_scope(db):
    own = run("outline", "atlas", "--scope", "acme/a", db=db)
    assert own.returncode == 0 and "[atlas#" in own.stdout
    other = run("outline", "zephyr", "--scope", "acme/a", db=db)
    assert other.returncode != 0 and "unknown document 'zephyr'" in other.stderr
    assert "Traceback" not in other.stderr
    listed = run("outline", "zephyr", db=db).stdout.splitlines()
    node = listed[-1].split("[", 1)[1].split("]", 1)[0]
    shown = run("show", node, "--scope", "acme/b", "--json", db=db)
    assert shown.returncode == 0 and json.loads(shown.stdout)["nodeId"] == node
    hidden = run("show", node, "--scope", "acme/a", db=db)
    assert hidden.returncode != 0 and "Traceback" not in hidden.stderr


def test_stats_lists_the_documents_the_scope_reads(db):
    every = json.loads(run("stats", "--docs", "--json", db=db).stdout)["documentList"]
    assert {d["docId"] for d in every} == {"atlas", "zephyr"}
    scoped = run("stats", "--docs", "--scope", "acme/b", "--json", db=db)
    assert [d["docId"] for d in json.loads(scoped.stdout)["documentList"]] == ["zephyr"]
    alone = run("stats", "--scope", "acme/b", db=db)
    assert alone.returncode == 2 and "--docs" in alone.stderr


def test_ask_and_bridge_cite_only_what_the_scope_reads(db):
    wide = json.loads(run("ask", "Who owns the boiler?", "--json", db=db).stdout)
    assert {h["docId"] for h in wide["hits"]} == {"atlas", "zephyr"}
    for scope, kept in (("acme/a", "atlas"), ("acme/b", "zephyr")):
        found = run("ask", "Who owns the boiler?", "--scope", scope, "--json", db=db)
        answer = json.loads(found.stdout)
        assert {h["docId"] for h in answer["hits"]} == {kept}
        assert {c["docId"] for c in answer["citations"]} <= {kept}
        paths = run("bridge", "boiler", "owns", "--scope", scope, "--json", db=db)
        assert paths.returncode in (0, 1) and "Traceback" not in paths.stderr
        hops = [h for p in json.loads(paths.stdout or "[]") for h in p["hops"]]
        other = "zephyr" if kept == "atlas" else "atlas"
        assert not any(other in json.dumps(h) for h in hops)


def test_ground_checks_an_answer_against_the_scopes_documents_only(db, tmp_path):
    answer = tmp_path / "answer.md"
    answer.write_text("Jonas Berg owns the Zephyr boiler contract.\n", encoding="utf-8")
    mine = run("ground", str(answer), "--json", "--scope", "acme/b", db=db)
    other = run("ground", str(answer), "--json", "--scope", "acme/a", db=db)
    assert mine.returncode == 0, mine.stderr
    assert other.returncode == 1, other.stderr  # 1: a claim is not supported
    backed = json.loads(mine.stdout)["claims"][0]
    assert backed["supported"] and all(n.startswith("zephyr") for n in backed["nodeIds"])
    assert not json.loads(other.stdout)["claims"][0]["supported"]
