"""The examples in docs/reasoning.md run and print what the page says they print."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "reasoning.md"


def expected_output(block: str) -> list[str]:
    """The comment lines right after each print() call."""
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
def namespace() -> dict[str, Any]:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), flags=re.DOTALL)
    assert len(blocks) >= 6
    names: dict[str, Any] = {}
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(PAGE), "exec"), names)  # our own page, run as a doctest
        printed = [" ".join(line.split()) for line in out.getvalue().splitlines()]
        assert printed == [" ".join(e.split()) for e in expected_output(block)]
    return names


def test_first_run_merges_two_grounded_candidates(namespace: dict[str, Any]):
    result = namespace["result"]
    assert result.llm_calls == 2 and not result.budget_exhausted
    assert result.unsupported == ()
    dropped = [t for t in result.thoughts if t.content == "Reinstall the operating system."]
    assert dropped and dropped[0].net < 0
    best = next(t for t in result.thoughts if t.thought_id == result.best)
    assert best.operation == "aggregate" and len(best.parents) == 2


def test_search_before_rewrite_example(namespace: dict[str, Any]):
    searched = namespace["searched"]
    assert searched.llm_calls == 1 and searched.thoughts[-1].operation == "ground"
    assert any(c.node_id.startswith("bakery") for c in searched.citations)


def test_budget_and_verify_examples(namespace: dict[str, Any]):
    capped = namespace["capped"]
    assert capped.budget_exhausted and capped.llm_calls == 1
    negated = namespace["negated"]
    assert negated.claims[0].vetoed and negated.claims[0].support >= 0.5


def test_real_model_example_builds_a_client(namespace: dict[str, Any]):
    assert namespace["live"].max_llm_calls == 8 and namespace["live"].max_workers == 4
