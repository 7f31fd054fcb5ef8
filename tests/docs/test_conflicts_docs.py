"""The examples in docs/memory-conflicts.md run and say what the page says they say."""

from __future__ import annotations

import re
from typing import Any

import pytest

from repo_paths import ROOT

PAGE = ROOT / "docs" / "memory-conflicts.md"


@pytest.fixture(scope="module")
def namespace() -> dict[str, Any]:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), flags=re.DOTALL)
    assert len(blocks) == 7
    names: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), names)  # our own page, run as a doctest would
    return names


def test_rule_resolver_example(namespace: dict[str, Any]) -> None:
    assert namespace["moved"] == [("Acme is based in Utrecht.", "single-valued:location")]
    assert namespace["why"].rule == "negation"
    assert namespace["kept"] is None


def test_change_rules_example(namespace: dict[str, Any]) -> None:
    assert namespace["ended"].rule == "change:ended"
    assert namespace["migrated"].rule == "change:moved"
    assert namespace["hedged"] is None


def test_claims_example(namespace: dict[str, Any]) -> None:
    assert namespace["claims"] == [
        ("noor", "location", "Leiden"),
        ("noor", "employer", "Acme"),
        ("noor", "role:manager", "Bas"),
    ]


def test_llm_resolver_example(namespace: dict[str, Any]) -> None:
    (answer,) = namespace["answer"]
    assert (answer.candidate, answer.rule, answer.detail) == (
        "Acme is based in Utrecht.",
        "llm",
        "the headquarters moved",
    )
    assert namespace["nothing"] == []
    assert namespace["problem"].startswith("the reply is not JSON")


def test_memory_example(namespace: dict[str, Any]) -> None:
    assert namespace["ledger"] == [("Acme is based in Utrecht.", "single-valued:location")]
    assert namespace["recalled"][0] == "Acme moved its headquarters to Rotterdam."
    assert "Acme is based in Utrecht." not in namespace["recalled"]


def test_dataset_example(namespace: dict[str, Any]) -> None:
    from groundgraph.memory import dataset_names

    assert namespace["names"] == dataset_names()
    assert {"analysis_patterns", "causal", "financial", "medical", "syllogisms", "taxonomy"} <= set(
        namespace["names"]
    )
    assert namespace["first"].scopes == ("monitoring",)
    assert namespace["asked"].question == "What caused the collapse of Lehman Brothers?"
    assert namespace["asked"].chain[-1].endswith("collapse of Lehman Brothers in 2008.")


def test_the_dataset_table_matches_the_files() -> None:
    from groundgraph.memory import load_dataset_facts

    rows = re.findall(r"^\| `(\w+)` \| (\d+) \|", PAGE.read_text("utf-8"), flags=re.MULTILINE)
    from groundgraph.memory import dataset_names

    assert sorted(name for name, _ in rows) == dataset_names()
    for name, count in rows:
        assert len(load_dataset_facts(name)) == int(count), name


def test_nli_example(namespace: dict[str, Any]) -> None:
    from groundgraph.memory import Contradiction

    assert namespace["nli_found"] == [
        Contradiction("Ilse lives in Graz.", "nli", "contradiction probability 0.90")
    ]
    graph = namespace["nli_graph"]
    graph.add_text("Ilse lives in Graz.")
    graph.add_text("Ilse lives in Linz.")
    assert [line["rule"] for line in graph.conflicts()] == ["nli"]
