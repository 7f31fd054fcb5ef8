"""`groundgraph verify` and `groundgraph eval clutrr`, run as real subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from clutrr_rows import TEST, VALIDATION, hf_csv

# Every test here runs the CLI in a subprocess.
pytestmark = pytest.mark.slow


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_verify_proves_or_refuses(tmp_path):
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps([["ann", "parent", "bo"], ["bo", "parent", "cy"], ["bad"]]))
    yes = run("verify", "ann", "parent", "cy", "--facts", str(facts), cwd=tmp_path)
    assert yes.returncode == 0 and "ann -> bo -> cy" in yes.stdout
    assert "skipped 1 malformed facts" in yes.stderr
    no = run("verify", "ann", "parent", "zed", "--facts", str(facts), "--json", cwd=tmp_path)
    assert no.returncode == 1 and json.loads(no.stdout)["grounded"] is False


def test_verify_reads_json_lines_and_refuses_junk(tmp_path):
    facts = tmp_path / "facts.jsonl"
    facts.write_text('["ann", "boss", "bo"]\n["bo", "boss", "cy"]\n')
    assert run("verify", "ann", "boss", "cy", "--facts", str(facts), cwd=tmp_path).returncode == 0
    facts.write_text("{not json")
    bad = run("verify", "ann", "boss", "cy", "--facts", str(facts), cwd=tmp_path)
    assert bad.returncode == 2 and "not a JSON list" in bad.stderr and "Traceback" not in bad.stderr


def test_eval_clutrr_learns_and_reports(tmp_path):
    (tmp_path / "validation.csv").write_text(hf_csv(VALIDATION), "utf-8")
    (tmp_path / "test.csv").write_text(hf_csv(TEST), "utf-8")
    result = run(
        "eval", "clutrr", "test.csv", "--learn-from", "validation.csv", "--json", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["total"]["n"] == sum(row["n"] for row in report["perHop"]) > 0
    table = run("eval", "clutrr", "test.csv", "--learn-from", "validation.csv", cwd=tmp_path)
    assert "| all |" in table.stdout


def test_eval_retrieval_scores_a_question_file(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bread.md").write_text("# Bread\n\nDough rises overnight in the cold room.\n")
    (docs / "tomato.md").write_text("# Tomato\n\nTomatoes are watered every morning.\n")
    db = tmp_path / "g.db"
    index = run("--db", str(db), "index", str(docs), "-q", cwd=tmp_path)
    assert index.returncode == 0, index.stderr
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        '{"id": "q1", "question": "when does dough rise", "relevant": ["bread"]}\n'
        '{"id": "q2", "question": "watering tomatoes", "relevant": ["tomato"]}\n'
    )
    result = run(
        "--db",
        str(db),
        "eval",
        "retrieval",
        str(questions),
        "--config",
        "bm25",
        "-k",
        "1",
        "--json",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["questions"] == 2 and list(report["configs"]) == ["bm25"]
    scores = report["configs"]["bm25"]["scores"]
    recall = next(v for k, v in scores.items() if k.startswith("recall"))
    assert recall["mean"] == 1.0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "q1"}\n')
    refused = run("--db", str(db), "eval", "retrieval", str(bad), cwd=tmp_path)
    assert refused.returncode == 2 and "line 1" in refused.stderr
