"""Issue 18, item 12: ReasonGraph's cross-source example (TSMC's Phoenix fab, Arizona's
water emergency), its eight sentences from tests/reasongraph_readme.py, as a test.

With groundgraph's zero-model defaults the query answers from both reports. The bridges
the README's table shows (Arizona, Phoenix, Apple) and its causal pair ("Lake Mead
dropped" -> "water emergency") need models, as the README says of its own defaults: here
a GLiNER model and a causal span model stand behind our adapters, as deterministic fakes
that label these sentences (the real models are loaded by name; docs/extraction.md).
The zero-model gaps: "Arizona declared ..." and "Apple warned ..." begin their sentences,
where the rules take no capitalised word as a name, and "X after Y dropped" is a temporal
clause to the cue rules (our causal benchmark counts "We went for a walk after the rain
stopped." as non-causal), so no pair is extracted from the eight sentences.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest

from groundgraph import DocumentGraph
from groundgraph.ingest.causal import CausalSpanExtractor
from groundgraph.ingest.entities import GlinerEntityExtractor
from model_fakes import FakeGliner
from reasongraph_readme import README

QUESTION = "How does the Arizona water crisis affect semiconductor manufacturing?"
#: The names the README's extraction table gives for the eight sentences, with a label.
NAMES = {
    "TSMC": ("organization", 0.9),
    "Apple": ("organization", 0.9),
    "Intel": ("organization", 0.9),
    "Arizona Department of Water Resources": ("organization", 0.8),
    "Phoenix": ("location", 0.9),
    "Arizona": ("location", 0.9),
    "Lake Mead": ("location", 0.9),
    "Maricopa County": ("location", 0.9),
    "Chandler": ("location", 0.9),
}
#: The causal pairs of the README's table, as a span model would tag them.
PAIRS = [
    ("Lake Mead dropped", "water emergency"),
    ("Construction delays", "first production"),
    ("component shortages", "iPhone production timelines"),
]


def sources() -> tuple[list[str], list[str]]:
    """source_a and source_b as the README's first snippet writes them."""
    names: dict[str, Any] = {}
    opening = README["cross-source"].split("async def main")[0]
    exec(opening.replace("from reasongraph import ReasonGraph\n", ""), names)  # the README's lists
    return names["source_a"], names["source_b"]


class FakeSpanTagger:
    """A token-classification pipeline standing in for a causal span model: tags each
    known cause as ``C`` and its effect as ``E`` where both are in the sentence."""

    def __call__(self, text: str) -> list[dict[str, Any]]:
        groups = []
        for cause, effect in PAIRS:
            for group, span in (("C", cause), ("E", effect)):
                found = (
                    re.search(re.escape(span), text) if cause in text and effect in text else None
                )
                if found:
                    groups.append(
                        {
                            "entity_group": group,
                            "score": 0.9,
                            "word": span,
                            "start": found.start(),
                            "end": found.end(),
                        }
                    )
        return sorted(groups, key=lambda g: g["start"])


def bridges(graph: DocumentGraph, a: list[str], b: list[str]) -> dict[str, set[str]]:
    """Each entity with the sources ("A", "B") of the facts that mention it."""
    seen: dict[str, set[str]] = defaultdict(set)
    for edge in graph.get_all_edges():
        if edge.type == "mentions":
            seen[edge.to_content].add(
                "A" if edge.from_content in a else "B" if edge.from_content in b else "?"
            )
    return seen


def test_zero_model_query_answers_from_both_sources() -> None:
    a, b = sources()
    with DocumentGraph() as graph:
        graph.add_texts(a)
        graph.add_texts(b)
        found = graph.query(QUESTION)
    assert set(found) <= set(a) | set(b)
    assert set(found) & set(a) and set(found) & set(b)


@pytest.fixture
def modelled() -> Iterator[DocumentGraph]:
    graph = DocumentGraph(
        entities=GlinerEntityExtractor(FakeGliner(NAMES), labels=["organization", "location"]),
        causal_extractor=CausalSpanExtractor(pipeline=FakeSpanTagger()),
    )
    a, b = sources()
    graph.add_texts(a)
    graph.add_texts(b)
    yield graph
    graph.close()


def test_with_models_arizona_phoenix_and_apple_bridge_the_two_reports(
    modelled: DocumentGraph,
) -> None:
    a, b = sources()
    seen = bridges(modelled, a, b)
    both = {name for name, where in seen.items() if where == {"A", "B"}}
    assert {"Arizona", "Phoenix", "Apple"} <= both
    assert "TSMC" in seen and seen["TSMC"] == {"A"}  # source B never names TSMC
    found = modelled.query(QUESTION)
    assert set(found) & set(a) and set(found) & set(b)


def test_with_models_a_walk_from_the_water_report_reaches_the_fab(modelled: DocumentGraph) -> None:
    a, b = sources()
    paths = modelled.discover("water emergency Lake Mead", top_k=1, hops=2)
    reached = {path["content"] for path in paths}
    assert reached & set(a), "no fact of source A reached from source B's seed"
    entities = {step["entity"] for path in paths for step in path["path"] if "entity" in step}
    assert entities & {"Arizona", "Phoenix"}
    # The README's last step: from the TSMC-Apple deal, on to Apple's shortage warning.
    (warning,) = [path for path in paths if path["content"] == b[3]]
    assert {"entity": "Apple"} in warning["path"]


def test_with_a_span_model_lake_mead_dropped_causes_the_water_emergency(
    modelled: DocumentGraph,
) -> None:
    _, b = sources()
    (emergency,) = modelled.query_detailed("Lake Mead water emergency", top_k=1)
    assert emergency["content"] == b[0]
    effects = modelled.trace_effects(b[0])
    assert [(hop["cause"], hop["effect"]) for hop in effects["chain"]][:1] == [
        ("Lake Mead dropped", "water emergency")
    ]
