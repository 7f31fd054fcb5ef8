"""Saved-graph import under fuzzing: a FormatError or a loaded graph, never another
exception, and a graph that an import fails on is left as it was.

Three sources of input: random JSON values (any shape), random JSON under the saved
graph's header (so the field checks are reached), and random mutations of a valid saved
graph (a value replaced, a member dropped or added, an item repeated, a value moved to
another place). Each goes through ``DocumentGraph.from_json``, ``load_json`` into a graph
that already holds documents and facts, and the streaming reader behind
``groundgraph import`` (``SavedGraphFile``).
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph, FormatError
from groundgraph.graph.formats.saved_import import SavedGraphFile
from groundgraph.graph.formats.saved_limits import MAX_DEPTH

HEADER = {"format": "graph-of-thought", "version": 2}
FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _source_graph() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_document("# Pumps\n## Setup\nThe pump needs oil.\n## Faults\nSee Setup.\n", "Pumps")
    graph.add_text("Heavy rain caused flooding in the valley.", scopes=["city/weather"])
    graph.add_text("Flooding in the valley caused power outages.", scopes=["city"])
    graph.add_text("Acme Foods is based in Munich.", scopes=["acme"])
    graph.add_text("Acme Foods is based in Hamburg.", scopes=["acme"])  # retires Munich
    return graph


SAVED = json.loads(json.dumps(_source_graph().to_json()))


def _target() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_document("# Valves\nThe valve sticks when cold.\n", "Valves")
    graph.add_text("Cold weather caused the valve to stick.", scopes=["plant"])
    return graph


def _state(graph: DocumentGraph) -> str:
    return json.dumps(graph.to_json(), sort_keys=True)


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["pumps", "pumps#1", "valves", "valves#1", "entity:pump", "\ud800"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
field_names = st.sampled_from(
    ["docId", "nodeId", "title", "content", "type", "nodeIds", "from", "to", "weight", "span",
     "scopes", "sources", "spans", "label", "level", "parentId", "createdAt", "invalidAt",
     "rootId", "metadata", "ingest", "version", "entities", "edges", "factEvents", "conflicts"]
)  # fmt: skip
headed = st.fixed_dictionaries(
    {
        "documents": st.lists(st.dictionaries(field_names, json_values, max_size=6), max_size=3),
        "nodes": st.lists(st.dictionaries(field_names, json_values, max_size=8), max_size=3),
        "edges": st.lists(st.dictionaries(field_names, json_values, max_size=5), max_size=3),
    }
).map(lambda d: HEADER | d)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, the root included."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A valid saved graph with one to three random changes."""
    data = copy.deepcopy(SAVED)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths[1:]))
        parent, last = _at(data, path[:-1]), path[-1]
        action = draw(st.sampled_from(["replace", "drop", "add", "repeat", "move"]))
        if action == "replace":
            parent[last] = draw(json_values)
        elif action == "drop":
            del parent[last]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(field_names)] = draw(json_values)
        elif action == "repeat" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
        elif action == "move":
            other = draw(st.sampled_from(paths))
            parent[last] = copy.deepcopy(_at(data, other))
    return data


def _load_each_way(data: Any, tmp_path: Path) -> None:
    """Load ``data`` three ways; each gives FormatError or a graph, and a failed load
    leaves the graph it went into as it was."""
    with contextlib.suppress(FormatError):
        DocumentGraph.from_json(data)
    target = _target()
    before = _state(target)
    try:
        target.load_json(data)
    except FormatError:
        assert _state(target) == before
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    streamed = _target()
    before = _state(streamed)
    try:
        with SavedGraphFile.read(path) as saved:
            saved.load_into(streamed.load_json_documents)
    except FormatError:
        assert _state(streamed) == before


@FUZZ
@given(data=json_values)
def test_any_json_value_is_a_format_error_or_a_graph(data, tmp_path):
    _load_each_way(data, tmp_path)


@FUZZ
@given(data=headed)
def test_json_under_the_saved_header_is_a_format_error_or_a_graph(data, tmp_path):
    _load_each_way(data, tmp_path)


@FUZZ
@given(data=mutated())
def test_a_mutated_saved_graph_is_a_format_error_or_a_graph(data, tmp_path):
    _load_each_way(data, tmp_path)


@FUZZ
@given(text=st.text(max_size=60) | st.builds(json.dumps, json_values).map(lambda t: t[:-1]))
def test_any_file_text_is_a_format_error_for_the_streaming_reader(text, tmp_path):
    path = tmp_path / "saved.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with contextlib.suppress(FormatError):
        SavedGraphFile.read(path).close()


def test_the_valid_saved_graph_loads_every_way(tmp_path):
    """The mutations start from a file that loads (so a FormatError means the change)."""
    assert _state(DocumentGraph.from_json(SAVED)) == json.dumps(SAVED, sort_keys=True)
    _load_each_way(SAVED, tmp_path)


def test_a_node_id_that_is_not_a_string_is_a_format_error():
    data = copy.deepcopy(SAVED)
    data["documents"][0]["nodeIds"] = [["pumps"], {"a": 1}]
    with pytest.raises(FormatError, match="nodeIds"):
        DocumentGraph.from_json(data)
    with pytest.raises(FormatError, match="nodeIds"):
        _target().load_json(data)


def _deep(levels: int) -> str:
    return json.dumps(HEADER | {"documents": [], "nodes": [], "edges": []})[:-1] + (
        ', "deep": ' + "[" * levels + "]" * levels + "}"
    )


def test_deep_nesting_is_a_format_error_in_every_reader(tmp_path):
    with pytest.raises(FormatError, match="nested"):
        DocumentGraph.from_json(json.loads(_deep(MAX_DEPTH + 1)))
    path = tmp_path / "deep.json"
    path.write_text(_deep(200_000), encoding="utf-8")  # past the decoder's recursion limit
    with pytest.raises(FormatError, match="nested"):
        SavedGraphFile.read(path)
    nested: list[Any] = []
    nested.append(nested)  # a value that contains itself
    with pytest.raises(FormatError, match="nested"):
        DocumentGraph.from_json(HEADER | {"documents": [], "nodes": [], "edges": [], "x": nested})


@pytest.mark.slow
def test_groundgraph_import_of_a_deep_file_exits_2_without_a_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(_deep(200_000), encoding="utf-8")
    db = tmp_path / "g.db"
    command = [sys.executable, "-m", "groundgraph", "--db", str(db), "import", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "nested too deeply" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d["nodes"][1].update(content="bad \ud800 text"), "nodes[1].content"),
        (lambda d: d["nodes"][0].update({7: "x"}), "nodes[0]"),
        (lambda d: d["edges"][0].update(weight=float("nan")), "edges[0].weight"),
        (lambda d: d["nodes"][0].update(title={"a", "b"}), "nodes[0].title"),
        (lambda d: d["documents"].append(copy.deepcopy(d["documents"][0])), "listed twice"),
        (lambda d: d["nodes"][1].update(parentId="valves"), "parentId"),
        (lambda d: d["nodes"][1].update(nodeId="valves#1"), "nodeId"),
    ],
)
def test_what_no_store_could_hold_is_a_format_error_naming_where(change, where):
    data = copy.deepcopy(SAVED)
    change(data)
    target = _target()
    before = _state(target)
    with pytest.raises(FormatError, match=re.escape(where)):
        target.load_json(data)
    assert _state(target) == before
