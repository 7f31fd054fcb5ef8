"""``groundgraph why-not``, run as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

GUIDE = """# Kiln Manual
## Loading
Stack the greenware on the lower shelf.
## Firing
Raise the heat slowly; a cracked pot means the firing was rushed.
## Cooling
Leave the lid shut until the kiln cools."""


def run(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GROUNDGRAPH_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    (tmp_path / "kiln.md").write_text(GUIDE)
    store = tmp_path / "g.db"
    assert run("index", str(tmp_path / "kiln.md"), db=store).returncode == 0
    return store


def test_why_not_prints_a_table_and_json_that_agree(db: Path) -> None:
    searched = json.loads(run("search", "cracked pot", "--json", "-k", "20", db=db).stdout)
    last = searched[-1]["nodeId"]
    table = run("why-not", "cracked pot", last, "-k", "1", db=db)
    assert table.returncode == 0, table.stderr
    as_json = run("why-not", "cracked pot", last, "-k", "1", "--json", db=db)
    result = json.loads(as_json.stdout)
    assert result["target"] == last and result["k"] == 1
    assert result["stage"] in table.stdout and result["reason"] in table.stdout
    cf = result["counterfactual"]
    if cf["parameter"] is not None:
        assert f"{cf['parameter']} {cf['was']} → {cf['value']}: rank {cf['rank']}" in table.stdout
        option = "--" + cf["parameter"].replace("_", "-")
        rerun = run("search", "cracked pot", "--json", "-k", "1", option, str(cf["value"]), db=db)
        if cf["parameter"] == "max_results":
            rerun = run("search", "cracked pot", "--json", "-k", str(cf["value"]), db=db)
        ids = [h["nodeId"] for h in json.loads(rerun.stdout)]
        assert ids.index(last) + 1 == cf["rank"]


def test_an_unknown_target_is_diagnosed_not_a_traceback(db: Path) -> None:
    done = run("why-not", "cracked pot", "kiln-manual#99", db=db)
    assert done.returncode == 0 and "missing" in done.stdout
    assert "kiln-manual#" in done.stdout  # the nearest ids
    bad = run("why-not", "cracked pot", "x" * 2000, db=db)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    assert "target" in bad.stderr


def test_help_has_an_example(db: Path) -> None:
    shown = run("why-not", "--help", db=db)
    assert shown.returncode == 0 and "groundgraph why-not" in shown.stdout


def test_memory_why_not_names_the_stage_and_a_change_that_reruns(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    facts = ["Alice leads Atlas.", "Bob leads Atlas support.", "Atlas ships on Friday."]
    assert run("memory", "add", *facts, db=db).returncode == 0
    done = run("memory", "why-not", "who leads Atlas", facts[2], "-k", "1", "--json", db=db)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["stage"] == "outranked"
    cf = result["counterfactual"]
    assert cf["parameter"] == "top_k"
    again = run("memory", "query", "who leads Atlas", "-k", str(cf["value"]), "--json", db=db)
    texts = [row["content"] for row in json.loads(again.stdout)]
    assert texts.index(facts[2]) + 1 == cf["rank"]
    table = run("memory", "why-not", "who leads Atlas", facts[2], "-k", "1", db=db)
    assert "outranked" in table.stdout and "top_k 1 → " in table.stdout
