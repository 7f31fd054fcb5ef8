"""The examples in docs/memory.md run, print what the page says, and mean what it says."""

from __future__ import annotations

import re
from typing import Any

import pytest

from page_examples import DOCS, run_examples

PAGE = DOCS / "memory.md"


@pytest.fixture(scope="module")
def namespace() -> dict[str, Any]:
    return run_examples(PAGE, 8)


def test_opening_example_recalls_the_chain(namespace):
    assert namespace["answers"] == [
        "Heavy rainfall caused flooding in the valley.",
        "The flooding in the valley led to power outages.",
        "Hospitals lost surgery time because of power outages.",
    ]


def test_scope_and_isolation_examples(namespace):
    assert namespace["fact"].status == "existing"
    assert namespace["alone"] == ["Heavy rainfall caused flooding in the valley."]
    assert namespace["second"]["explanation"]["hops"] == 1


def test_update_examples(namespace):
    assert namespace["moved"].superseded  # Munich was retired by Hamburg
    assert namespace["report"]["purged"] is True and namespace["report"]["ledgerEntries"] == 1
    assert namespace["memory"].conflicts() == []  # the purge erased the ledger line


def test_causal_examples(namespace):
    assert [h["depth"] for h in namespace["trace"]["chain"]] == [0, 1, 2]
    assert namespace["result"]["prunedEdges"][0]["effect"] == "power outages"
    assert namespace["reply"]["status"] == "answered"


def test_every_option_in_the_table_exists():
    import inspect

    from groundgraph import DocumentGraph

    section = PAGE.read_text("utf-8").split("## Options and limits", 1)[1].split("Caps", 1)[0]
    table = re.findall(r"^\| `(\w+)` \|", section, flags=re.MULTILINE)
    parameters = inspect.signature(DocumentGraph).parameters
    assert table and all(name in parameters for name in table)
