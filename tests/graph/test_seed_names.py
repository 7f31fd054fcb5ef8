"""graph/seed_names.py: a name DocumentGraph lacks gives the standard AttributeError, and
ReasonGraph's ``_sync`` twins and ``initialize`` say what to write instead."""

from __future__ import annotations

import asyncio

import pytest

from groundgraph import AsyncDocumentGraph, DocumentGraph


@pytest.fixture
def graph():
    with DocumentGraph() as graph:
        yield graph


def message(graph: object, name: str) -> str:
    with pytest.raises(AttributeError) as caught:
        getattr(graph, name)
    assert caught.value.name == name and not hasattr(graph, name)
    return str(caught.value)


def test_a_sync_twin_names_the_plain_verb(graph):
    said = message(graph, "what_if_sync")
    assert said.startswith("'DocumentGraph' object has no attribute 'what_if_sync'")
    assert "is what_if(...) here" in said


@pytest.mark.parametrize("name", ["initialize", "initialize_sync"])
def test_initialize_says_to_drop_the_call(graph, name):
    assert "drop the call" in message(graph, name)


@pytest.mark.parametrize("name", ["nothing", "nothing_sync", "_sync", "store_sync", "_private"])
def test_other_missing_names_keep_the_standard_message(graph, name):
    # store is an attribute, not a verb: store_sync is not a ReasonGraph name.
    assert message(graph, name) == f"'DocumentGraph' object has no attribute {name!r}"


def test_the_async_wrapper_passes_the_message_on():
    async def call() -> str:
        async with AsyncDocumentGraph() as graph:
            with pytest.raises(AttributeError) as caught:
                await graph.query_sync("x")
            return str(caught.value)

    assert "is query(...) here" in asyncio.run(call())


def test_found_names_are_untouched(graph):
    assert graph.query("anything") == [] and callable(graph.add_text)
