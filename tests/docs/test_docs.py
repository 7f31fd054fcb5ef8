"""The examples in README.md and docs/ run, and print what the pages say they print."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from groundgraph.cli import main
from groundgraph.cli.lazy_group import LazyGroup
from repo_paths import ROOT

PAGES = [
    "README.md",
    "docs/search.md",
    "docs/why-not.md",
    "docs/graph.md",
    "docs/store.md",
    "docs/saved-graphs.md",
    "docs/ingest.md",
    "docs/embeddings.md",
    "docs/coming-from.md",
    "docs/relations.md",
    "docs/entities.md",
]


def expected_output(block: str) -> list[str]:
    """Comment lines that follow a print() call: what that call should print."""
    expected: list[str] = []
    after_print = False
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("# ") and after_print:
            text = stripped[2:]
            expected.append(text.split("  <-")[0].rstrip())
            continue
        after_print = "print(" in line
    return expected


def matches(printed: str, expected: str) -> bool:
    """Equal up to runs of white space; ``...`` in the page stands for anything."""
    want = " ".join(expected.split())
    pattern = ".*".join(re.escape(part) for part in want.split("..."))
    return re.fullmatch(pattern, " ".join(printed.split())) is not None


@pytest.mark.parametrize("page", PAGES)
def test_page_examples_print_what_they_say(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (ROOT / page).read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert blocks, f"{page} has no python example"
    namespace: dict[str, object] = {}
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, page, "exec"), namespace)  # our own docs, run as doctests
        printed = [line.rstrip() for line in out.getvalue().splitlines()]
        expected = expected_output(block)
        assert len(printed) == len(expected), (page, printed, expected)
        for got, want in zip(printed, expected, strict=True):
            assert matches(got, want), f"{page}: printed {got!r}, the page says {want!r}"


def test_every_command_is_documented():
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert isinstance(main, LazyGroup)
    for name in main.load_all():
        assert f"## {name}\n" in page, f"docs/cli.md has no section for {name}"


def test_readme_starts_with_the_two_commands():
    first = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:5]
    assert any(line.startswith("make demo") for line in first)
    assert any(line.startswith("make test") for line in first)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci


@pytest.mark.slow
def test_the_readme_quick_start_runs_as_written(tmp_path):
    # The quick start's commands (after the install line), run in an empty folder of a
    # checkout, as a new user types them: each must succeed and the node it shows exist.
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Quick start", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    commands = [line.split("  #", 1)[0].strip() for line in block.strip().splitlines()]
    commands = [c for c in commands if c.startswith("groundgraph ")]
    assert len(commands) >= 3
    workdir = tmp_path / "checkout"
    shutil.copytree(ROOT / "docs", workdir / "docs")
    shutil.copy(ROOT / "README.md", workdir / "README.md")
    for command in commands:
        args = shlex.split(command)[1:]
        done = subprocess.run(
            [sys.executable, "-m", "groundgraph", *args],
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
    assert (workdir / "groundgraph.db").exists()
