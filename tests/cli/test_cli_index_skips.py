"""``groundgraph index`` over a folder with bad files and bad JSON Lines lines.

A bad line is reported with its path and line number and skipped, the rest of its file
and of the folder is kept, text that is not valid Unicode is stored replaced and said so,
and the exit code is 5 when something could not be read (0 when files were only left
out by rule).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

EXIT_SKIPPED = 5


def _index(folder: Path, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "groundgraph", "--db", str(db), "index", str(folder)]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=120, env=env)


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir(parents=True)
    (folder / "a.md").write_text("# Alpha\nThe alpha pump.\n", "utf-8")
    lines = [
        '{"id": "x1", "text": "the first good line"}',
        '{"id": "x2", "text": bad}',
        '{"id": "x3", "text": "a lone \\ud800 surrogate"}',
        '{"id": "x4", "text": "the last good line"}',
    ]
    (folder / "b.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    (folder / "image.png").write_bytes(b"\x89PNG")
    return folder


def test_a_bad_line_is_skipped_by_number_and_everything_else_is_kept(tmp_path):
    db = tmp_path / "g.db"
    done = _index(_folder(tmp_path), db, "--json")
    assert done.returncode == EXIT_SKIPPED, done.stderr
    report = json.loads(done.stdout)
    assert sorted(report["added"]) == ["a", "x1", "x3", "x4"]
    bad = [s for s in report["skipped"] if not s["ignored"]]
    assert [(Path(s["path"]).name, s["line"]) for s in bad] == [("b.jsonl", 2)]
    assert "invalid JSON" in bad[0]["reason"]
    assert [(r["docId"], r["replaced"]) for r in report["replaced"]] == [("x3", 1)]
    assert report["store"]["documents"] == 4

    text = _index(_folder(tmp_path / "again"), tmp_path / "h.db")
    assert text.returncode == EXIT_SKIPPED and "b.jsonl line 2: invalid JSON" in text.stdout
    assert "(x3): 1 replaced" in text.stdout and "Traceback" not in text.stderr


def test_files_left_out_by_rule_exit_zero(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# Alpha\nfine\n", "utf-8")
    (folder / "image.png").write_bytes(b"\x89PNG")
    (folder / ".hidden.md").write_text("# Hidden\n", "utf-8")
    done = _index(folder, tmp_path / "g.db", "--json")
    assert done.returncode == 0, done.stderr
    assert all(s["ignored"] for s in json.loads(done.stdout)["skipped"])
