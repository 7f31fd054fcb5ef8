"""The searcher: every read verb of the verb table, no write, same answers as the graph."""

from __future__ import annotations

import pytest

from groundgraph import DocumentGraph, InputError
from groundgraph.graph.searcher import GraphSearcher
from groundgraph.graph.verbs import VERBS

GUIDE = """# User Guide
## Configuration
Edit config.json to customize settings.
## Troubleshooting
If config fails, see the Configuration section."""


@pytest.fixture
def graph() -> DocumentGraph:
    g = DocumentGraph()
    g.add_document(GUIDE, "User Guide")
    g.add_text("Heavy rainfall caused flooding in the valley.", scopes=["a"])
    g.add_text("The flooding in the valley led to power outages.", scopes=["a"])
    return g


def test_every_read_verb_is_there_and_no_write_verb(graph: DocumentGraph) -> None:
    searcher = graph.searcher()
    assert isinstance(searcher, GraphSearcher)
    reads = [v for v in VERBS.values() if not v.writes]
    writes = [v for v in VERBS.values() if v.writes]
    assert reads and writes
    for verb in reads:
        assert callable(searcher.verb(verb.name)), verb.name
    for verb in writes:
        with pytest.raises(InputError, match="writes"):
            searcher.verb(verb.name)
        parts = [searcher, searcher.documents, searcher.grounding, searcher.recall]
        parts += [searcher.causal, searcher.history]
        assert not any(hasattr(part, verb.name) for part in parts), verb.name
    with pytest.raises(InputError, match="no verb"):
        searcher.verb("drop_everything")


def test_a_read_verb_answers_as_the_graph_does(graph: DocumentGraph) -> None:
    searcher = graph.searcher()
    assert searcher.verb("search")("config fails") == graph.search("config fails")
    assert searcher.verb("retrieve")("config", max_results=1) == graph.retrieve(
        "config", max_results=1
    )
    assert searcher.verb("stats")() == graph.stats()
    options = {"scopes": ["a"], "top_k": 2}
    assert searcher.verb("query")("why did the power go out", **options) == graph.query(
        "why did the power go out", **options
    )
    effects = searcher.verb("trace_effects")("Heavy rainfall", 3, ["a"])
    assert effects == graph.trace_effects("Heavy rainfall", 3, ["a"])
    assert searcher.verb("ground")("Edit config.json to customize settings.") == graph.ground(
        "Edit config.json to customize settings."
    )
    assert searcher.to_json() == graph.to_json()
    text = "The flooding in the valley led to power outages."
    assert searcher.fact(text) == graph.fact(text)
    assert searcher.history.conflicts() == graph.conflicts()
