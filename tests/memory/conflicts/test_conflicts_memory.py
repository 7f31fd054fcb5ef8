"""Resolvers inside the memory: what they decide is what the graph retires and records."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from groundgraph import DocumentGraph
from groundgraph.memory import LLMConflictResolver

pytestmark = pytest.mark.skipif(
    not hasattr(DocumentGraph, "conflicts"), reason="the memory verbs are not on DocumentGraph"
)


def test_the_rule_resolver_is_the_default_and_retires_the_old_fact() -> None:
    graph = DocumentGraph()
    graph.add_text("Ilse lives in Graz.", scopes=["a"])
    graph.add_text("Ilse likes tea.", scopes=["a"])
    graph.add_text("Ilse moved to Linz.", scopes=["a"])
    (line,) = graph.conflicts()
    assert (line["old"]["content"], line["new"]["content"]) == (
        "Ilse lives in Graz.",
        "Ilse moved to Linz.",
    )
    assert line["rule"] == "single-valued:location" and "Linz" in line["detail"]
    recalled = graph.query("Where does Ilse live?", scopes=["a"])
    assert "Ilse lives in Graz." not in recalled and "Ilse likes tea." in recalled


def test_complements_retire_nothing() -> None:
    graph = DocumentGraph()
    for text in ["Ilse lives in Graz.", "Ilse also has a flat in Vienna.", "Ilse visited Oslo."]:
        graph.add_text(text)
    assert graph.conflicts() == []


def test_an_llm_resolver_decides_and_a_bad_reply_retires_nothing() -> None:
    replies = iter(["not json at all", json.dumps({"contradicted": [1], "reason": "moved"})])
    resolver = LLMConflictResolver(lambda prompt: next(replies))
    graph = DocumentGraph(conflict_resolver=resolver)
    graph.add_text("Ilse lives in Graz.")
    graph.add_text("Ilse lives near the river.")  # first reply: unusable
    assert graph.conflicts() == [] and len(resolver.failures) == 1
    graph.add_text("Ilse moved to Linz.")  # second reply: candidate 1
    lines = graph.conflicts()
    assert len(lines) == 1 and lines[0]["rule"] == "llm" and lines[0]["detail"] == "moved"


class NamesOnly:
    """A resolver that answers with plain candidate strings."""

    def contradictions(self, new: str, candidates: Sequence[str]) -> list[str]:
        return [c for c in candidates if c.split()[0] == new.split()[0] and "cancelled" in new]


def test_plain_string_answers_are_recorded_under_the_resolver_name() -> None:
    graph = DocumentGraph(conflict_resolver=NamesOnly())
    graph.add_text("Juniper is planned for spring.")
    graph.add_text("Juniper was cancelled.")
    (line,) = graph.conflicts()
    assert line["rule"] == "NamesOnly"
    assert line["old"]["content"] == "Juniper is planned for spring."
