"""benchmarks/grounded_reasoning.py: its --quick --only path runs and prints the table.

Run as a subprocess, the way the docs tell a reader to run it, so the script, its gr_*
modules and Grounded Reasoning's own experiment modules cannot drift apart unnoticed.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from repo_paths import ROOT

SCRIPT = ROOT / "benchmarks" / "grounded_reasoning.py"

pytest.importorskip("grounded_reasoning")


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=ROOT / "benchmarks",  # the folder holding a file named like their package
    )


def table_rows(stdout: str) -> list[list[str]]:
    lines = [line for line in stdout.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_drift_quick_prints_the_seed_figures_and_both_measurements() -> None:
    done = run_bench("--quick", "--only", "drift")
    assert done.returncode == 0, done.stderr
    header, *rows = table_rows(done.stdout)
    assert header == [
        "experiment",
        "metric",
        "seed README",
        "grounded-reasoning here",
        "groundgraph here",
    ]
    by_metric = {row[1]: row for row in rows}
    assert by_metric["coverage static post shift"][2] == "47.6 %"
    assert by_metric["coverage adaptive post shift"][2] == "89.6 %"
    for row in rows:
        assert row[0].startswith("3 adaptive conformal")
        assert row[3] and row[4]
    # Same graphs, same jitter, same protocol: our figures are theirs.
    assert [row[4] for row in rows] == [row[3] for row in rows]
    static = float(by_metric["coverage static post shift"][4].rstrip(" %"))
    adaptive = float(by_metric["coverage adaptive post shift"][4].rstrip(" %"))
    assert adaptive > static
    assert "quick run of drift" in done.stdout and " s wall" in done.stdout
    page = (ROOT / "docs" / "relations.md").read_text("utf-8")
    section = page.split("## Grounded Reasoning's experiments (issue 19)", 1)[1]
    assert "python benchmarks/grounded_reasoning.py" in section
    for metric in by_metric:  # the page's table has every row the script prints
        assert f"| {metric} |" in section


def test_paths_quick_counts_no_mismatch_against_breadth_first_search() -> None:
    done = run_bench("--quick", "--only", "paths")
    assert done.returncode == 0, done.stderr
    rows = {row[1]: row for row in table_rows(done.stdout)[1:]}
    fuzz = next(row for metric, row in rows.items() if metric.startswith("verify_path vs BFS"))
    assert "1,000 triples" in fuzz[1]
    assert fuzz[3] == "0" and fuzz[4] == "0"
    assert rows["calibrate_path: every chain found"][4] == "True"


def test_an_unknown_experiment_is_refused_with_the_names_to_use() -> None:
    done = run_bench("--only", "everything")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "mondrian" in done.stderr and "pruning" in done.stderr
