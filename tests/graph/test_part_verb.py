"""PartVerb: a facade verb is its part's method, with the part's exact signature."""

from __future__ import annotations

import inspect

import pytest

from groundgraph import DocumentGraph
from groundgraph.graph.part_verb import PartVerb
from groundgraph.graph.reader import GraphReader
from groundgraph.graph.verbs import VERBS


class _Counter:
    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def bump(self, by: int, times: int = 1) -> int:
        """Add ``by`` ``times`` times."""
        self.calls.append((by, times))
        return by * times


class _Holder:
    def __init__(self) -> None:
        self.inner = _Wrapper()

    bump = PartVerb("inner.counter", _Counter.bump)


class _Wrapper:
    def __init__(self) -> None:
        self.counter = _Counter()


def test_an_instance_calls_the_part_through_a_dotted_path():
    holder = _Holder()
    assert holder.bump(3, times=2) == 6
    assert holder.inner.counter.calls == [(3, 2)]
    assert holder.bump.__self__ is holder.inner.counter  # the part's own bound method


def test_the_class_shows_the_parts_signature_and_docstring():
    assert _Holder.bump is _Counter.bump
    assert str(inspect.signature(_Holder.bump)) == "(self, by: 'int', times: 'int' = 1) -> 'int'"
    assert _Holder.__dict__["bump"].__doc__ == "Add ``by`` ``times`` times."


def test_a_verb_named_unlike_its_method_is_refused():
    # Python 3.11 wraps an error in __set_name__ in a RuntimeError; 3.12 raises it as it is.
    with pytest.raises((TypeError, RuntimeError)) as raised:

        class _Wrong:
            add = PartVerb("counter", _Counter.bump)

    error = raised.value.__cause__ or raised.value
    assert isinstance(error, TypeError)
    assert "_Wrong.add delegates to _Counter.bump" in str(error)


def test_every_delegated_facade_verb_is_its_parts_method():
    graph = DocumentGraph()
    graph.add_document("# Boiler\n\nThe boiler is serviced in October.", "Boiler", "b")
    delegated = {
        name: attr for name, attr in vars(DocumentGraph).items() if isinstance(attr, PartVerb)
    }
    assert {"search", "add_document", "query", "what_if", "ground"} <= set(delegated)
    for name, verb in delegated.items():
        bound = getattr(graph, name)
        assert bound.__func__ is verb.function, name
        assert bound.__self__ is not graph, name
        assert inspect.getdoc(getattr(DocumentGraph, name)), f"{name} has no docstring"
    assert (
        graph.search("boiler")[0].node_id == GraphReader.search(graph.reader, "boiler")[0].node_id
    )
    # The verb table reads the same signatures through the class.
    for name in set(delegated) & set(VERBS):
        params = list(inspect.signature(getattr(DocumentGraph, name)).parameters)[1:]
        assert [p.name for p in VERBS[name].params] == params, name
