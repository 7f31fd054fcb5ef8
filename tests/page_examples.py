"""Run a docs page's python examples as a doctest: each prints what the page says it prints.

The page writes what a ``print()`` call shows as the comment lines right after it; white
space runs compare equal and ``...`` in the page stands for anything.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

from repo_paths import ROOT

DOCS = ROOT / "docs"


def python_blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)


def expected_output(block: str) -> list[str]:
    """The comment lines right after each print() call: what those calls print."""
    expected: list[str] = []
    after_print = False
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("# ") and after_print:
            expected.append(stripped[2:])
            continue
        after_print = "print(" in line
    return expected


def same(printed: str, expected: str) -> bool:
    """Equal up to runs of white space; ``...`` in the page stands for anything."""
    want = " ".join(expected.split())
    pattern = ".*".join(re.escape(part) for part in want.split("..."))
    return re.fullmatch(pattern, " ".join(printed.split())) is not None


def run_examples(page: Path, min_blocks: int, every_block_prints: bool = False) -> dict[str, Any]:
    """Run every python block of ``page`` in one namespace, in order, checking what each
    prints; returns the namespace so tests can look at what the examples built."""
    blocks = python_blocks(page)
    assert len(blocks) >= min_blocks, f"{page.name} has {len(blocks)} python examples"
    namespace: dict[str, Any] = {}
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(page), "exec"), namespace)  # our own page, as a doctest
        printed = out.getvalue().splitlines()
        expected = expected_output(block)
        if every_block_prints:
            assert expected, f"an example prints nothing to check:\n{block}"
        assert len(printed) == len(expected), (printed, expected)
        for got, want in zip(printed, expected, strict=True):
            assert same(got, want), f"printed {got!r}, the page says {want!r}"
    return namespace
