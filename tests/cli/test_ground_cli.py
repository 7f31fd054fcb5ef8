"""``groundgraph ground`` end to end, in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Every test here runs the CLI in a subprocess.
pytestmark = pytest.mark.slow

GUIDE = """# User Guide
## Installation
Run pip install gpbacay-arcane.
## Configuration
Edit config.json to customize settings. The default port is 8080.
## Deployment
Push the build to the server. It does not restart the workers.
"""


def run(
    *args: str, db: Path, stdin: bytes | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "GROUNDGRAPH_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", *args],
        capture_output=True,
        input=stdin,
        timeout=120,
        env=env,
        cwd=cwd,
    )


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("docs")
    (folder / "guide.md").write_text(GUIDE, encoding="utf-8")
    path = folder / "g.db"
    result = run("index", str(folder), "--quiet", db=path)
    assert result.returncode == 0, result.stderr
    return path


def test_prints_each_claim_with_its_verdict_sections_and_evidence(db, tmp_path):
    answer = tmp_path / "answer.md"
    answer.write_text(
        "- Edit config.json to customize settings.\n- The default port is 9090.\n",
        encoding="utf-8",
    )
    result = run("ground", str(answer), db=db)
    out = result.stdout.decode()
    assert result.returncode == 1, result.stderr  # one claim is not supported
    lines = out.splitlines()
    assert lines[0].startswith("1. yes  1.00  Edit config.json to customize settings.")
    assert "sections: guide#2" in lines[1]
    start = GUIDE.index("Edit config.json")
    assert f"evidence [guide#2 source {start}-{start + 39}]: Edit config.json" in lines[2]
    assert lines[3].startswith("2. no ")
    assert "why: numbers not in its sections: 9090" in out
    share = json.loads(run("ground", str(answer), "--json", db=db).stdout)["share"]
    assert 0 < share < 1
    assert out.rstrip().endswith(f"2 claims, 1 supported; grounded share {share:.2f}")


def test_stdin_json_and_exit_code_zero(db):
    result = run("ground", "-", "--json", db=db, stdin=b"Push the build to the server.\n")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    (claim,) = data["claims"]
    assert claim["supported"] is True and claim["nodeIds"] == ["guide#3"]
    span = claim["evidence"][0]
    assert GUIDE[span["sourceStart"] : span["sourceEnd"]] == "Push the build to the server."


def test_options_change_the_verdicts(db):
    negated = b"Push the build to the server. It restarts the workers."
    plain = run("ground", "-", "--node", "guide#3", db=db, stdin=negated)
    assert plain.returncode == 1 and b"negation differs" in plain.stdout
    lenient = run("ground", "-", "--node", "guide#3", "--lenient", db=db, stdin=negated)
    assert lenient.returncode == 0, lenient.stdout
    checked = run(
        "ground", "-", "--node", "guide#3", "--lenient", "--negation-check", db=db, stdin=negated
    )
    assert checked.returncode == 1 and b"vetoed by the verifier" in checked.stdout
    wrong_port = b"The default port is 9090."
    assert run("ground", "-", db=db, stdin=wrong_port).returncode == 1
    assert run("ground", "-", "--lenient", db=db, stdin=wrong_port).returncode == 0
    strict = run("ground", "-", "--min-support", "1.0", db=db, stdin=b"Edit the settings daily.")
    assert strict.returncode == 1 and b"share 0." in strict.stdout
    query = run("ground", "-", "-q", "deployment server", "--json", db=db, stdin=b"Push the build.")
    assert json.loads(query.stdout)["claims"][0]["nodeIds"] == ["guide#3"]


def test_no_claims(db):
    result = run("ground", "-", db=db, stdin=b"## Heading\n\nIt is.\n")
    assert result.returncode == 0 and b"no claims" in result.stdout


def test_bad_input_is_one_clear_line(db, tmp_path):
    binary = tmp_path / "blob.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    result = run("ground", str(binary), db=db)
    assert result.returncode == 2 and b"NUL bytes" in result.stderr
    latin = tmp_path / "latin.txt"
    latin.write_bytes("caf\xe9 cr\xe8me".encode("latin-1"))
    result = run("ground", str(latin), db=db)
    assert result.returncode == 2 and b"not UTF-8" in result.stderr
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"word " * 100_000)
    result = run("ground", str(huge), db=db)
    assert result.returncode == 2 and b"over the limit" in result.stderr
    result = run("ground", "-", "--node", "guide#99", db=db, stdin=b"Push the build.")
    assert result.returncode == 3 and b"unknown node ids 'guide#99'" in result.stderr
    result = run("ground", "-", "--min-support", "2", db=db, stdin=b"Push the build.")
    assert result.returncode == 2 and b"min-support" in result.stderr
    result = run("ground", str(tmp_path / "missing.md"), db=db)
    assert result.returncode == 2 and b"No such file" in result.stderr
    assert b"Traceback" not in result.stderr


def test_help_names_every_option(db):
    out = run("ground", "--help", db=db).stdout.decode()
    for option in ("--query", "--node", "--min-support", "--max-nodes", "--negation-check"):
        assert option in out
    assert "--lenient" in out and "--json" in out
