"""GlinerEntityExtractor: a GLiNER model's dicts become Mentions, in the graph's entity slot."""

from __future__ import annotations

import sys

import pytest

from groundgraph import DocumentGraph
from groundgraph.errors import InputError
from groundgraph.ingest.entities import GlinerEntityExtractor, Mention, normalise_entity
from model_fakes import FakeGliner

KNOWN = {
    "TSMC": ("organization", 0.97),
    "Phoenix": ("location", 0.91),
    "Arizona": ("location", 0.88),
    "Apple": ("organization", 0.62),
}
TEXT = (
    "TSMC is building a plant in Phoenix, Arizona. "
    "Apple signed a supply deal with TSMC for the Arizona plant."
)


def test_each_predicted_span_becomes_a_mention_at_its_offsets() -> None:
    extract = GlinerEntityExtractor(model=FakeGliner(KNOWN), labels=["organization", "location"])
    mentions = extract(TEXT)
    assert all(isinstance(m, Mention) for m in mentions)
    assert all(TEXT[m.start : m.end] == m.text for m in mentions)
    assert all(m.key == normalise_entity(m.text) for m in mentions)
    assert [m.text for m in mentions] == ["TSMC", "Phoenix", "Arizona", "Apple", "TSMC", "Arizona"]
    assert [m.start for m in mentions] == sorted(m.start for m in mentions)


def test_labels_and_threshold_go_to_the_model() -> None:
    model = FakeGliner(KNOWN)
    extract = GlinerEntityExtractor(model=model, labels=["organization"], threshold=0.7)
    assert {m.text for m in extract(TEXT)} == {"TSMC"}  # Apple scores 0.62, below 0.7
    assert all(labels == ("organization",) and t == 0.7 for _, labels, t in model.calls)


def test_the_model_reads_one_sentence_at_a_time_and_offsets_come_back() -> None:
    model = FakeGliner(KNOWN)
    mentions = GlinerEntityExtractor(model=model, labels=["location"])(TEXT)
    assert [text for text, _, _ in model.calls] == [
        "TSMC is building a plant in Phoenix, Arizona.",
        "Apple signed a supply deal with TSMC for the Arizona plant.",
    ]
    last = mentions[-1]
    assert last.text == "Arizona" and last.start == TEXT.rindex("Arizona")


class Shifted(FakeGliner):
    """Gives offsets off by two, or a span the text does not hold."""

    def predict_entities(self, text, labels, flat_ner=True, threshold=0.5, multi_label=False):
        found = super().predict_entities(text, labels, flat_ner, threshold, multi_label)
        bad = {"start": 0, "end": 4, "text": "Mars", "label": "location", "score": 0.99}
        return [{**e, "start": e["start"] + 2, "end": e["end"] + 2} for e in found] + [bad]


def test_offsets_that_miss_their_text_are_found_again_and_invented_spans_dropped() -> None:
    mentions = GlinerEntityExtractor(model=Shifted(KNOWN), labels=["location"])(
        "Rain fell on Phoenix."
    )
    assert [(m.text, m.start) for m in mentions] == [("Phoenix", 13)]


def test_in_the_graph_entity_slot_the_model_entities_link_sections() -> None:
    extract = GlinerEntityExtractor(model=FakeGliner(KNOWN), labels=["organization", "location"])
    graph = DocumentGraph(entities=extract)
    graph.add_document("# Plants\n\n## Fab\n" + TEXT, "Plants", doc_id="plants")
    entity_ids = {n.node_id for n in graph.store.reads.entity_nodes()}
    assert {"entity:tsmc", "entity:phoenix", "entity:arizona", "entity:apple"} <= entity_ids
    mentioned = {e.target for e in graph.store.reads.iter_edges(["mentions"])}
    assert {"entity:tsmc", "entity:apple"} <= mentioned


def test_in_a_memory_fact_the_model_names_the_entities() -> None:
    extract = GlinerEntityExtractor(model=FakeGliner(KNOWN), labels=["organization", "location"])
    graph = DocumentGraph()
    fact = graph.add_text("Apple buys chips from TSMC.", extractor=extract)
    assert {"Apple", "TSMC"} <= set(fact.entities)


def test_without_the_package_the_first_call_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gliner", None)  # import gliner now fails
    extract = GlinerEntityExtractor("urchade/gliner_small-v2.1")  # nothing loads yet
    with pytest.raises(InputError, match="pip install gliner"):
        extract("TSMC builds in Phoenix.")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"labels": []},
        {"labels": "person"},
        {"labels": ["person", ""]},
        {"threshold": 1.5},
        {"threshold": True},
        {"model": 42},
    ],
)
def test_bad_options_are_input_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(InputError):
        GlinerEntityExtractor(**{"model": FakeGliner(KNOWN), **kwargs})  # type: ignore[arg-type]


def test_a_model_returning_something_else_is_an_input_error() -> None:
    class Odd:
        def predict_entities(self, text, labels, threshold=0.5):
            return ["TSMC"]

    with pytest.raises(InputError, match="not a dict"):
        GlinerEntityExtractor(model=Odd())("TSMC builds.")


def test_a_long_sentence_goes_in_pieces_and_nothing_is_lost() -> None:
    text = ("word " * 700) + "Phoenix."
    model = FakeGliner(KNOWN)
    mentions = GlinerEntityExtractor(model=model, labels=["location"])(text)
    assert len(model.calls) >= 3 and all(len(t) <= 1_500 for t, _, _ in model.calls)
    assert [m.text for m in mentions] == ["Phoenix"]
