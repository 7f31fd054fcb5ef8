"""The examples in docs/reasoning.md run and print what the page says they print."""

from __future__ import annotations

from typing import Any

import pytest

from page_examples import DOCS, run_examples

PAGE = DOCS / "reasoning.md"


@pytest.fixture(scope="module")
def namespace() -> dict[str, Any]:
    return run_examples(PAGE, 6)


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
    overstated = namespace["overstated"]
    assert overstated.claims[0].vetoed and overstated.claims[0].support >= 0.5


def test_real_model_example_builds_a_client(namespace: dict[str, Any]):
    assert namespace["live"].max_llm_calls == 8 and namespace["live"].max_workers == 4
