"""The examples in docs/tools.md run and print what the page says they print."""

from __future__ import annotations

from typing import Any

import pytest

from page_examples import DOCS, run_examples

PAGE = DOCS / "tools.md"


@pytest.fixture(scope="module")
def namespace() -> dict[str, Any]:
    return run_examples(PAGE, 5)


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
