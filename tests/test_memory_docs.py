"""The examples in docs/memory.md run, print what the page says, and mean what it says."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "memory.md"


def _expected(block: str) -> list[str]:
    """The comment lines right after print() calls: what those calls print."""
    expected: list[str] = []
    after_print = False
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("# ") and after_print:
            expected.append(stripped[2:])
            continue
        after_print = "print(" in line
    return expected


def _matches(printed: str, expected: str) -> bool:
    want = " ".join(expected.split())
    pattern = ".*".join(re.escape(part) for part in want.split("..."))
    return re.fullmatch(pattern, " ".join(printed.split())) is not None


@pytest.fixture(scope="module")
def namespace() -> dict[str, Any]:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), flags=re.DOTALL)
    assert len(blocks) >= 8
    names: dict[str, Any] = {}
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(PAGE), "exec"), names)  # our own page, run as a doctest
        printed = [line.rstrip() for line in out.getvalue().splitlines()]
        expected = _expected(block)
        assert len(printed) == len(expected), (printed, expected)
        for got, want in zip(printed, expected, strict=True):
            assert _matches(got, want), f"printed {got!r}, the page says {want!r}"
    return names


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
