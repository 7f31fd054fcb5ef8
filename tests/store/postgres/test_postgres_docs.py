"""docs/postgres.md's example runs against the test server, and prints what it says."""

from __future__ import annotations

import pytest

from page_examples import DOCS, run_examples
from postgres_server import fresh_schema_url

pytestmark = pytest.mark.postgres


def test_the_postgres_page_example_runs(monkeypatch):
    monkeypatch.setenv("GROUNDGRAPH_DB", fresh_schema_url("docs"))
    run_examples(DOCS / "postgres.md", 1, every_block_prints=True)
