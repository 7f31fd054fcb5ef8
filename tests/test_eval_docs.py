"""The examples of docs/evaluation.md run and print what the page says they print."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "evaluation.md"


def expected_lines(block: str) -> list[str]:
    """The comment lines right after a print() call: what that call should print."""
    expected: list[str] = []
    after_print = False
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("# ") and after_print:
            expected.append(stripped[2:])
            continue
        after_print = "print(" in line
    return expected


def same(printed: str, expected: str) -> bool:
    """Equal up to runs of white space; ``...`` in the page stands for anything."""
    want = " ".join(expected.split())
    pattern = ".*".join(re.escape(part) for part in want.split("..."))
    return re.fullmatch(pattern, " ".join(printed.split())) is not None


def test_every_python_example_runs_and_prints_what_the_page_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 4
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(PAGE), "exec"), {})  # our own page, run as a doctest
        printed = out.getvalue().splitlines()
        expected = expected_lines(block)
        assert expected, f"an example prints nothing to check:\n{block}"
        assert len(printed) == len(expected), (printed, expected)
        for got, want in zip(printed, expected, strict=True):
            assert same(got, want), f"printed {got!r}, the page says {want!r}"


def test_the_question_file_example_is_a_valid_question_file():
    from groundgraph.eval.questions import parse_questions

    text = PAGE.read_text(encoding="utf-8")
    block = re.search(r"```text\n(.*?)```", text, re.DOTALL)
    assert block is not None
    assert [q.id for q in parse_questions(block.group(1))] == ["q1", "q2"]
