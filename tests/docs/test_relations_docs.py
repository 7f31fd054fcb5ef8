"""The examples in docs/relations.md run and say what the page says they say."""

from __future__ import annotations

import re
from typing import Any

import pytest

from repo_paths import ROOT

PAGE = ROOT / "docs" / "relations.md"


@pytest.fixture(scope="module")
def namespace() -> dict[str, Any]:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), flags=re.DOTALL)
    assert len(blocks) >= 8
    names: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), names)  # our own page, run as a doctest would
    return names


def test_verify_example(namespace: dict[str, Any]) -> None:
    yes, no = namespace["yes"], namespace["no"]
    assert yes.grounded and yes.proof == ("alice", "bob", "carol")
    assert yes.confidence == pytest.approx(0.36) and yes.relation == "parent"
    assert not no.grounded and no.proof is None and no.confidence == 0.0
    assert namespace["scores"][1] == pytest.approx(0.36 / sum(0.6**k for k in range(1, 9)))


def test_sources_example(namespace: dict[str, Any]) -> None:
    hops = namespace["hops"]
    assert [hop.sources for hop in hops] == [("family.md#2",), ("letters.md#5",)]


def test_normalisation_and_guard_examples(namespace: dict[str, Any]) -> None:
    assert namespace["merged"] == ("Alice", "Bob", "Carol")
    assert namespace["refused"].startswith("relation 'trusts' is not declared transitive")
    assert namespace["chain"] is True


def test_calibration_example(namespace: dict[str, Any]) -> None:
    measured = namespace["measured"]
    assert (measured["n_grounded"], measured["n_confirmed"]) == (3, 2)
    assert measured["precision_lower_bound"] == pytest.approx(0.196, abs=1e-3)


def test_conformal_example(namespace: dict[str, Any]) -> None:
    assert namespace["tau"] == pytest.approx(0.18)
    assert namespace["kept"] == ["bird", "animal", "stone"]


def test_horn_example(namespace: dict[str, Any]) -> None:
    assert namespace["model"] == {"rain", "cold", "wet", "ice", "slippery"}
    assert [rule.head for rule in namespace["why"]] == ["wet", "ice", "slippery"]


def test_composition_examples(namespace: dict[str, Any]) -> None:
    assert namespace["relation"] == "aunt (uncle's wife)" and namespace["word"] == "aunt"
    assert len(namespace["table"]) == 454
    assert namespace["learned"][("uncle", "son", "male")] == "cousin"
    assert namespace["conflicts"] == [] and namespace["passes"] == 2


def test_tool_example(namespace: dict[str, Any]) -> None:
    answer = namespace["answer"]
    assert answer["grounded"] is True and answer["proof"] == ["alice", "bob", "carol"]
    assert answer["confidence"] == 0.36 and answer["skipped_facts"] == 1
