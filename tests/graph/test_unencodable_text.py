"""Text no UTF-8 encoder takes (a lone surrogate) never crashes a verb.

Every verb of the table is called with ``"\\ud800"`` in each of its text parameters in
turn: the result is an answer or one of groundgraph's typed errors, never a
UnicodeEncodeError. What is stored is valid text (lone surrogates become U+FFFD) and the
replacement is counted: ``ParsedDocument.replaced``, ``Fact.replaced``.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from groundgraph import DocumentGraph, GroundgraphError
from groundgraph.graph.verbs import VERBS
from groundgraph.ingest import parse_markdown, parse_plaintext
from groundgraph.model import to_json
from groundgraph.model.valid_text import REPLACEMENT, valid_text

LONE = "a\ud800b"
RAIN = "Heavy rain caused flooding in the valley."
GUIDE = "# Guide\n## Setup\nInstall it. Heavy rain is not a problem.\n## Use\nRun it daily."
#: A value for each required parameter of a verb (the one under test is replaced).
VALUES: dict[str, Any] = {
    "content": RAIN,
    "title": "Guide",
    "query": "rain",
    "question": "what caused flooding?",
    "doc_id": "guide",
    "node_id": "guide#1",
    "a": "rain",
    "b": "flooding",
    "subject": "Ann",
    "relation": "parent",
    "obj": "Bob",
    "claim": "Install it.",
    "answer": "Install it. Heavy rain is fine.",
    "node_ids": ["guide#1"],
    "text": "heavy rain",
    "term": "rain",
    "texts": [RAIN],
    "old": RAIN,
    "new_text": "Light rain caused no flooding.",
    "fact": RAIN,
    "fact_or_doc": RAIN,
    "from_content": RAIN,
    "to_content": "flooding",
    "limit": 3,
    "target": "guide#1",
    "sentence": "Install it.",
    "nodes": [("Light rain fell.", "text"), ("valley", "entity")],
    "edges": [(RAIN, "valley")],
}
#: Verbs whose parameters are records or files, not text a caller types.
NOT_TEXT = {"add_documents", "add_parsed", "add_prepared", "index_files", "load_json"}
NOT_TEXT |= {"load_json_documents", "load_dataset"}  # a name from a fixed list
NOT_TEXT |= {"save", "load"}  # a file path


def _takes_text(annotation: Any) -> bool:
    if annotation is str:
        return True
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (Iterable, Sequence, list):
        return args == (str,)
    return any(_takes_text(arg) for arg in args) if args else False


CASES = [
    (name, param.name)
    for name, verb in VERBS.items()
    if name not in NOT_TEXT
    for param in verb.params
    if _takes_text(param.annotation) and param.forwarded_to is None
]


def _graph() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_document(GUIDE, "Guide")
    graph.add_text(RAIN, scopes=["city"])
    graph.add_text("Flooding in the valley caused power outages.", scopes=["city"])
    return graph


def _lone_value(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    if annotation is not str and origin in (Iterable, Sequence, list):
        return [LONE]
    return LONE


def test_every_text_parameter_is_covered():
    covered = {name for name, _ in CASES}
    assert {"add_document", "add_text", "trace_effects", "what_if", "search"} <= covered
    assert len(CASES) > 40


@pytest.mark.parametrize(("verb", "param"), CASES, ids=[f"{v}-{p}" for v, p in CASES])
def test_a_lone_surrogate_gives_an_answer_or_a_typed_error(verb, param):
    graph = _graph()
    spec = VERBS[verb]
    arguments = {
        p.name: VALUES[p.name] for p in spec.params if p.required and p.forwarded_to is None
    }
    arguments[param] = _lone_value(spec.param(param).annotation)
    try:
        result = getattr(graph, verb)(**arguments)
        if hasattr(result, "__next__"):
            result = list(result)
    except GroundgraphError as error:
        str(error).encode("utf-8")  # the message can be printed and sent
    else:
        # The answer can be sent as JSON (a service echoes it; MCP and HTTP encode UTF-8).
        json.dumps(to_json(result), ensure_ascii=False, default=str).encode("utf-8")
    # Whatever was stored can be written out as UTF-8.
    json.dumps(graph.to_json(), ensure_ascii=False).encode("utf-8")


def test_a_document_with_lone_surrogates_is_stored_with_replacements():
    graph = DocumentGraph()
    document = graph.add_document("# T\nbad \ud800 and \udfff here", "T\udc80", doc_id="t")
    assert document.title == "T" + REPLACEMENT
    parsed = parse_markdown("bad \ud800 and \udfff here", "T\udc80")
    assert parsed.replaced == 3 and parse_plaintext("fine", "T").replaced == 0
    assert graph.search("bad")[0].content == f"bad {REPLACEMENT} and {REPLACEMENT} here"


def test_a_fact_with_a_lone_surrogate_is_stored_replaced_and_counted():
    graph = DocumentGraph()
    fact = graph.add_text("The pump \ud800 failed.", source="agent\udc00")
    assert fact.text == f"The pump {REPLACEMENT} failed." and fact.replaced == 2
    assert fact.to_dict()["replaced"] == 2
    assert graph.add_text("The valve failed.").replaced == 0
    # The stored form and the input name the same fact.
    assert graph.fact("The pump \ud800 failed.").fact_id == fact.fact_id


def test_a_document_id_with_a_lone_surrogate_is_refused():
    with pytest.raises(GroundgraphError, match="surrogate"):
        DocumentGraph().add_document("text", "T", doc_id="t\ud800")


def _lone_surrogates(text: str) -> int:
    """Surrogates not in a high-then-low pair, counted one code point at a time."""
    count, i = 0, 0
    while i < len(text):
        code = ord(text[i])
        nxt = ord(text[i + 1]) if i + 1 < len(text) else 0
        if 0xD800 <= code <= 0xDBFF and 0xDC00 <= nxt <= 0xDFFF:
            i += 2
            continue
        count += 0xD800 <= code <= 0xDFFF
        i += 1
    return count


@given(st.lists(st.one_of(st.characters(), st.sampled_from(["\ud800", "\udc00", "\udbff"]))))
def test_valid_text_encodes_keeps_valid_text_and_counts_each_lone_surrogate(parts):
    text = "".join(parts)
    fixed, replaced = valid_text(text)
    fixed.encode("utf-8")
    assert replaced == _lone_surrogates(text)
    if not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        assert fixed == text
