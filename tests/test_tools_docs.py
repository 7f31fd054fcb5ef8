"""The examples in docs/tools.md run and print what the page says they print."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "tools.md"


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
    assert len(blocks) >= 5
    names: dict[str, Any] = {}
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(PAGE), "exec"), names)  # our own page, run as a doctest
        printed = [" ".join(line.split()) for line in out.getvalue().splitlines()]
        assert printed == [" ".join(e.split()) for e in expected_output(block)]
    return names


def test_schema_forms_cover_every_tool(namespace: dict[str, Any]):
    names = [t.name for t in namespace["tools"]]
    assert [s["name"] for s in namespace["schemas"]] == names
    assert [t["function"]["name"] for t in namespace["for_openai"]] == names
    assert [t["name"] for t in namespace["for_anthropic"]] == names


def test_errors_are_results(namespace: dict[str, Any]):
    assert all(result["ok"] is False for result in namespace["bad"])


def test_the_table_lists_every_tool(namespace: dict[str, Any]):
    page = PAGE.read_text("utf-8")
    for name in (*[t.name for t in namespace["tools"]], "got_add_document", "got_reason"):
        assert f"| `{name}` |" in page
