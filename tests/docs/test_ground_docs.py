"""The examples in docs/grounding.md run and print what the page says they print."""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any

import pytest

from repo_paths import ROOT

PAGE = ROOT / "docs" / "grounding.md"


def expected_output(block: str) -> list[str]:
    """The comment lines right after a print() call: what that call prints."""
    expected: list[str] = []
    after_print = False
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("# ") and after_print:
            expected.append(stripped[2:])
            continue
        after_print = "print(" in line
    return expected


@pytest.fixture(scope="module")
def run_page() -> tuple[dict[str, Any], list[tuple[list[str], list[str]]]]:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), flags=re.DOTALL)
    assert len(blocks) >= 6
    names: dict[str, Any] = {}
    outputs = []
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(PAGE), "exec"), names)  # our own page, run as a doctest
        printed = [line.rstrip() for line in out.getvalue().splitlines()]
        outputs.append((printed, expected_output(block)))
    return names, outputs


def test_every_example_prints_what_the_page_says(run_page):
    _, outputs = run_page
    for printed, expected in outputs:
        assert printed == expected


def test_support_example(run_page):
    names, _ = run_page
    assert names["found"].node_ids == ("guide#1", "guide#2") and names["found"].share == 1.0
    assert names["share"] == 1.0 and names["node_ids"] == ["guide#1"] and names["mass"] > 0


def test_ground_example(run_page):
    names, _ = run_page
    grounding = names["grounding"]
    assert [c.supported for c in grounding.claims] == [True, False, False]
    evidence = names["evidence"]
    assert names["guide"][evidence.source_start : evidence.source_end] == evidence.text


def test_verify_examples(run_page):
    names, _ = run_page
    assert names["vetoed"].vetoed and names["vetoed"].nli == 0.0
    assert names["cautious"]("always", "") == 0.1
    assert [c.supported for c in names["notes"].claims] == [True, False]
