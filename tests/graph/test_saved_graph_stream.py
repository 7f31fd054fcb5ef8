"""Saved graphs written and read in pieces (``groundgraph export`` / ``import``): the same
text, the same graph and the same refusals as the whole-file path, in bounded memory."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph, FormatError
from groundgraph.graph.formats.json_stream import START, stream_object
from groundgraph.graph.formats.saved import graph_to_json, saved_graph
from groundgraph.graph.formats.saved_export import write_saved_graph
from groundgraph.graph.formats.saved_import import SavedGraphFile
from repo_paths import ROOT
from saved_graphs import BROKEN_SAVED_GRAPHS, OTHER_FORMATS, graph_state, memory_graph

#: Written by groundgraph before export and import streamed (main at 3f1a4e0): documents,
#: memory facts with scopes, a retired fact, causes, a relation fact and a conflict.
BEFORE = ROOT / "tests" / "graph" / "data" / "saved-graph-before-streaming.json"


def exported(graph: DocumentGraph) -> str:
    out = io.StringIO()
    write_saved_graph(graph.store, out)
    return out.getvalue()


def imported(path: Path) -> DocumentGraph:
    graph = DocumentGraph()
    with SavedGraphFile.read(path) as saved:
        saved.load_into(graph.load_json_documents)
    return graph


def write(tmp_path: Path, data: object, **dumps: object) -> Path:
    path = tmp_path / "graph.json"
    path.write_text(json.dumps(data, **dumps), encoding="utf-8")  # type: ignore[arg-type]
    return path


def test_the_streamed_text_is_the_text_of_the_whole_graph(kitchen, garden, guide):
    graph = memory_graph()
    for text, title in ((kitchen, "Kitchen Notes"), (garden, "Garden Log"), (guide, "User Guide")):
        graph.add_document(text, title)
    out = io.StringIO()
    counts = write_saved_graph(graph.store, out)
    whole = graph_to_json(graph.store)
    assert out.getvalue() == json.dumps(whole, ensure_ascii=False)
    assert counts["documents"] == len(whole["documents"]) and counts["nodes"] == len(whole["nodes"])
    assert counts["groundgraph.edges"] == len(whole["groundgraph"]["edges"]) > 0


def test_a_streamed_round_trip_gives_the_same_graph_as_the_whole_file(tmp_path):
    graph = memory_graph()
    path = tmp_path / "graph.json"
    path.write_text(exported(graph), encoding="utf-8")
    copy = imported(path)
    reference = DocumentGraph.from_json(json.loads(path.read_text(encoding="utf-8")))
    assert graph_state(copy) == graph_state(reference) == graph_state(graph)
    for scopes in (["team/a"], ["team/b"], None):
        assert copy.query("Where does Ana live?", scopes=scopes) == graph.query(
            "Where does Ana live?", scopes=scopes
        )


@pytest.mark.parametrize("layout", ["as written", "indented, members reversed"])
def test_a_file_written_before_streaming_still_imports(tmp_path, layout):
    data = json.loads(BEFORE.read_text(encoding="utf-8"))
    path = BEFORE
    if layout != "as written":  # any JSON layout and member order reads the same
        reverse = {k: data[k] for k in reversed(list(data))}
        reverse["groundgraph"] = {k: v for k, v in reversed(list(data["groundgraph"].items()))}
        path = write(tmp_path, reverse, indent=2)
    copy = imported(path)
    reference = DocumentGraph.from_json(data)
    assert graph_state(copy) == graph_state(reference)
    assert len(copy.store.reads.documents()) == len(data["documents"])
    assert copy.search("flooding cellar") == reference.search("flooding cellar")


def test_a_plain_v2_file_streams_with_its_evidence_rebuilt(tmp_path, kitchen):
    graph = DocumentGraph()
    graph.add_document(kitchen, "Kitchen Notes")
    data = graph.to_json()
    del data["groundgraph"]
    copy, reference = imported(write(tmp_path, data)), DocumentGraph.from_json(data)

    def evidence(graph: DocumentGraph) -> set[tuple[object, ...]]:  # rebuilt: new times
        return {
            (e.source, e.target, e.type, e.sources, e.spans) for e in graph.store.reads.iter_edges()
        }

    assert evidence(copy) == evidence(reference) == evidence(graph)
    assert list(copy.store.reads.iter_nodes()) == list(reference.store.reads.iter_nodes())


def whole_file_refusal(data: object) -> str:
    with pytest.raises(FormatError) as refused:
        saved_graph(data)
    return str(refused.value)


@pytest.mark.parametrize(("data", "message"), OTHER_FORMATS)
def test_other_formats_are_refused_as_the_whole_file_refuses_them(tmp_path, data, message):
    with pytest.raises(FormatError, match=message) as refused:
        SavedGraphFile.read(write(tmp_path, data))
    assert str(refused.value) == whole_file_refusal(data)


@pytest.mark.parametrize(("change", "message"), BROKEN_SAVED_GRAPHS)
def test_a_broken_file_is_refused_before_anything_is_loaded(tmp_path, change, message):
    data = json.loads(json.dumps(memory_graph().to_json()))
    change(data)
    with pytest.raises(FormatError, match=message) as refused:
        SavedGraphFile.read(write(tmp_path, data))
    assert str(refused.value) == whole_file_refusal(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "graph-of-thought", "version": 2, "nodes": [{"nodeId": "x', "not valid JSON"),
        ('{"format": "graph-of-thought", "version": 2} tail', "after the end"),
        ('["not an object"]', "JSON object"),
    ],
)
def test_text_that_is_not_json_is_refused(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=message):
        SavedGraphFile.read(path)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
PATHS = [("a",), ("b", "c")]


@settings(max_examples=150, deadline=None)
@given(
    a=st.one_of(st.lists(JSON, max_size=5), JSON),
    c=st.one_of(st.lists(JSON, max_size=5), JSON),
    other=JSON,
    block=st.integers(1, 9),
    indent=st.sampled_from([None, 1]),
)
def test_streamed_pieces_put_back_together_are_the_object(a, c, other, block, indent):
    data = {"x": other, "a": a, "b": {"c": c, "d": other}}
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    rebuilt: dict[str, object] = {}
    for path, position, value, raw in stream_object(io.StringIO(text), PATHS, block=block):
        where = rebuilt
        for key in path[:-1]:
            where = where.setdefault(key, {})  # type: ignore[assignment]
        if position == START:  # an array of PATHS starts, or an object on the way to one
            where.setdefault(path[-1], [] if path in PATHS else {})
        elif position is None:
            assert path not in PATHS or not isinstance(value, list)
            assert json.loads(raw) == value
            where[path[-1]] = value
        else:
            assert position == len(where[path[-1]])  # type: ignore[arg-type]
            assert json.loads(raw) == value
            where[path[-1]].append(value)  # type: ignore[attr-defined]
    assert rebuilt == json.loads(text)


def test_edges_to_documents_that_came_later_import_both_ways(tmp_path):
    # A document that arrives later links the earlier ones to itself (a title they name,
    # a markdown link waiting for it): those edges start at an earlier document's node and
    # load with the later document, once both ends are stored.
    graph = DocumentGraph()
    graph.add_document("# Setup\n\nRead the Tuning Guide before you start.\n", "Setup")
    graph.add_document("# Links\n\nSee [tuning](tuning-guide.md) for the knobs.\n", "Links")
    graph.add_document(
        "# Tuning Guide\n\nThe knobs live here: cache size, queue depth.\n", "Tuning Guide"
    )
    state = graph_state(graph)
    backward = [
        e
        for e in graph.store.reads.iter_edges()
        if e.source.split("#")[0] in ("setup", "links") and e.target.startswith("tuning-guide")
    ]
    assert backward, "the fixture needs edges from earlier documents to the later one"
    path = tmp_path / "graph.json"
    path.write_text(exported(graph), encoding="utf-8")
    assert graph_state(imported(path)) == state
    assert graph_state(DocumentGraph.from_json(json.loads(path.read_text("utf-8")))) == state
