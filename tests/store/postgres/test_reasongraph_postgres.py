"""ReasonGraph's README PostgreSQL snippet, as tests/reasongraph_readme.py rewrites it (the
URL is the test server's), run against a real PostgreSQL server."""

from __future__ import annotations

import pytest

from reasongraph_readme import README, rewritten

pytestmark = pytest.mark.postgres


def test_the_readme_postgres_snippet_opens_a_postgres_memory() -> None:
    names: dict[str, object] = {}
    exec(
        compile(rewritten("postgres backend", README["postgres backend"]), "README", "exec"), names
    )
    graph = names["graph"]
    try:
        assert type(graph.store).__name__ == "PostgresStore"
        fact = graph.add_text("Heavy rainfall caused flooding.")
        assert graph.query("rainfall") == [fact.text]
        assert graph.trace_effects(fact.text)["terminals"] == ["flooding"]
    finally:
        graph.close()
