"""docs/coming-from.md, the ReasonGraph, Grounded Reasoning and Grounded Graph of Thought
sections: each python example runs and prints what the page says, and every groundgraph
name the tables give exists."""

from __future__ import annotations

import contextlib
import inspect
import io
import re

import pytest

from groundgraph import DocumentGraph
from groundgraph.llm import LLMClient
from groundgraph.reason.relations import identify_and_prune_edges, identify_suspect_edges
from page_examples import expected_output, same
from repo_paths import ROOT

PAGE = ROOT / "docs" / "coming-from.md"
SECTIONS = ("ReasonGraph", "Grounded Reasoning", "Grounded Graph of Thought")


def section(title: str) -> str:
    """The page's text under ``## title``, up to the next such heading outside a code
    block (an example may hold markdown headings of its own)."""
    lines, inside, fenced = [], False, False
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("## "):
            inside = line == f"## {title}"
            continue
        if inside:
            lines.append(line)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("title", SECTIONS)
def test_each_section_example_prints_what_the_page_says(title, monkeypatch):
    monkeypatch.delenv("OLLAMA_API_KEY", raising=False)
    blocks = re.findall(r"```python\n(.*?)```", section(title), flags=re.DOTALL)
    assert blocks, title
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(PAGE), "exec"), {})  # our own page, as a doctest
        printed, expected = out.getvalue().splitlines(), expected_output(block)
        assert expected and len(printed) == len(expected), (printed, expected)
        for got, want in zip(printed, expected, strict=True):
            assert same(got, want), f"printed {got!r}, the page says {want!r}"


def test_the_reasongraph_table_names_real_parameters():
    table = section("ReasonGraph")
    for verb in ("add_nodes", "add_edges", "get_all_nodes", "get_all_edges", "answer"):
        assert f"`{verb}(" in table and callable(getattr(DocumentGraph, verb))
    answer = inspect.signature(DocumentGraph.answer).parameters
    assert {"use_discover", "top_k", "hops", "search_mode", "scopes", "max_results"} <= set(answer)
    supersede = inspect.signature(DocumentGraph.supersede).parameters
    assert {"extractor", "purge_orphans"} <= set(supersede)
    assert "causal_extractor" in inspect.signature(DocumentGraph.add_text).parameters
    assert inspect.signature(DocumentGraph).parameters["forget_every"].default == 3600.0


def test_the_grounded_reasoning_table_names_real_parameters():
    suspects = inspect.signature(identify_suspect_edges).parameters
    assert list(suspects)[:5] == ["edges", "labeled_pairs", "walk_len", "alpha", "min_evidence"]
    assert {"use_propagation", "propagated_min_evidence"} <= set(suspects)
    prune = inspect.signature(identify_and_prune_edges).parameters
    assert prune["identify_frac"].default == 0.85 and prune["min_evidence"].default == 2
    assert prune["use_propagation"].default is False
    assert callable(LLMClient.ask) and isinstance(LLMClient.total_tokens, property)
