"""``groundgraph memory``, run as a real subprocess against a SQLite file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Every test here runs the CLI in a subprocess.
pytestmark = pytest.mark.slow


def run(*args: str, db: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GROUNDGRAPH_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", "memory", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        input=stdin,
    )


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "memory.db"
    facts = "Heavy rainfall caused flooding.\nFlooding caused power outages.\n"
    result = run("add", "-", "--scope", "city/weather", "--json", db=path, stdin=facts)
    assert result.returncode == 0, result.stderr
    added = json.loads(result.stdout)
    assert [f["status"] for f in added] == ["added", "added"]
    assert added[0]["causes"] == [{"cause": "Heavy rainfall", "effect": "flooding"}]
    result = run(
        "add",
        "Power outages caused hospital disruptions.",
        "--scope",
        "city/health",
        "--source",
        "agent-h",
        db=path,
    )
    assert result.returncode == 0 and result.stdout.startswith("added"), result.stderr
    assert "causes: Power outages -> hospital disruptions" in result.stdout
    return path


def test_query_explains_and_respects_scopes(db):
    result = run("query", "heavy rainfall", "--scope", "city/weather", db=db)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "Heavy rainfall caused flooding." in lines[0] and "direct match" in lines[1]
    assert any("another scope" in line for line in lines)
    isolated = run(
        "query", "heavy rainfall", "--scope", "city/weather", "--isolate", "--json", db=db
    )
    rows = json.loads(isolated.stdout)
    assert {r["scopes"][0] for r in rows} == {"city/weather"}
    assert rows[0]["explanation"]["seed"] is True
    assert run("query", "rainfall", "--as-of", "2000-01-01", db=db).stdout.strip() == "no facts"


def test_discover_and_answer(db):
    rows = json.loads(run("discover", "rainfall", "--json", db=db).stdout)
    assert rows[0]["causes"] == [{"cause": "Heavy rainfall", "effect": "flooding"}]
    answer = json.loads(run("answer", "What did the rainfall cause?", "--json", db=db).stdout)
    assert answer["status"] == "answered" and answer["sentences"][0]["supported"]
    # ReasonGraph's options: discover's facts (the default) or query's top_k
    wide = run("answer", "rainfall", "-k", "1", "--max-results", "3", "--json", db=db)
    narrow = run("answer", "rainfall", "-k", "1", "--no-discover", "--json", db=db)
    assert len(json.loads(narrow.stdout)["facts"]) == 1
    assert len(json.loads(wide.stdout)["facts"]) == 3


def test_trace_chain_roots_and_what_if(db):
    result = run("trace", "Heavy rainfall caused flooding.", db=db)
    assert result.returncode == 0, result.stderr
    assert "ends at: hospital disruptions" in result.stdout
    assert "  2  Power outages -> hospital disruptions" in result.stdout
    roots = run("trace", "hospital disruptions", "--roots", db=db)
    assert roots.stdout.strip() == "Heavy rainfall"
    chain = json.loads(
        run(
            "trace",
            "Heavy rainfall caused flooding.",
            "--to",
            "Power outages caused hospital disruptions.",
            "--json",
            db=db,
        ).stdout
    )
    assert [h["depth"] for h in chain["chain"]] == [0, 1, 2]
    causes = json.loads(
        run("trace", "hospital disruptions", "--direction", "causes", "--json", db=db).stdout
    )
    assert causes["terminals"] == ["Heavy rainfall"]
    what = run("what-if", "Flooding caused power outages.", "--json", db=db)
    assert [c["span"] for c in json.loads(what.stdout)["collapsed"]] == [
        "power outages",
        "hospital disruptions",
    ]


def test_history_conflicts_and_forget(tmp_path):
    db = tmp_path / "updates.db"
    assert run("add", "Acme is based in Munich.", "--scope", "acme", db=db).returncode == 0
    added = run("add", "Acme is based in Hamburg.", "--scope", "acme", db=db)
    assert "supersedes fact:" in added.stdout
    history = run("history", "Acme is based in Munich.", db=db)
    assert "retired" in history.stdout and "superseded by" in history.stdout
    ledger = json.loads(run("conflicts", "--json", db=db).stdout)
    assert ledger[0]["old"]["content"] == "Acme is based in Munich."
    assert run("conflicts", "--scope", "other", db=db).stdout.strip() == (
        "no contradictions recorded"
    )
    gone = json.loads(run("forget", "Acme is based in Hamburg.", "--purge", "--json", db=db).stdout)
    assert gone[0]["purged"] is True and gone[0]["ledgerEntries"] == 1
    stale = run("forget", "--stale", "--after", "0", db=db)
    assert stale.returncode == 0 and "removed fact:" in stale.stdout


@pytest.mark.parametrize(
    "args, code, message",
    [
        (("query", "x", "--as-of", "yesterday"), 2, "ISO-8601"),
        (("query", "x", "--scope", "bad scope"), 2, "scope"),
        (("history", "no such fact"), 3, "no fact"),
        (("trace", "nothing stored like this"), 3, "no fact or causal span"),
        (("forget",), 2, "name facts to forget"),
        (("forget", "--stale"), 2, "--after"),
        (("add", "x" * 20_001), 2, "over the limit"),
        (("what-if", "x", "--direction", "up"), 2, "Invalid value"),
    ],
)
def test_bad_input_gets_one_clear_line(db, args, code, message):
    result = run(*args, db=db)
    assert result.returncode == code, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr


def test_every_memory_command_and_option_has_help():
    from click.testing import CliRunner

    from groundgraph.cli import main

    group = main.load_all()["memory"]
    assert set(group.commands) >= {
        "add",
        "query",
        "discover",
        "trace",
        "what-if",
        "history",
        "conflicts",
        "forget",
    }
    for name, command in group.commands.items():
        assert command.help, name
        for option in command.params:
            if option.param_type_name == "option":
                assert option.help, (name, option.name)
        result = CliRunner().invoke(main, ["memory", name, "--help"])
        assert result.exit_code == 0 and "Usage:" in result.output
