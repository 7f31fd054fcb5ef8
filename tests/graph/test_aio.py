"""The async twins give what the sync verbs give, one call at a time, without blocking."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from groundgraph import AsyncDocumentGraph, DocumentGraph

FACTS = [
    ("Heavy rain caused flooding in Riverton.", "team/alice"),
    ("Flooding in Riverton led to power outages at the hospital.", "team/bob"),
    ("Power outages at the hospital delayed surgeries.", "team/bob"),
    ("The Riverton bakery sells rye bread.", "team/alice"),
]


def _sync_answers(path: Path) -> tuple[list[str], dict[str, object]]:
    graph = DocumentGraph(path)
    for text, scope in FACTS:
        graph.add_text(text, scopes=[scope])
    found = graph.query("why were surgeries delayed")
    trace = graph.trace_effects(FACTS[0][0])
    graph.close()
    return found, trace


def test_async_twins_answer_as_the_sync_verbs(tmp_path: Path) -> None:
    expected_found, expected_trace = _sync_answers(tmp_path / "sync.db")

    async def run() -> tuple[list[str], dict[str, object], list[str]]:
        async with AsyncDocumentGraph(tmp_path / "async.db") as graph:
            for text, scope in FACTS:
                await graph.add_text(text, scopes=[scope])
            # gathered calls still run one at a time, in the order they were awaited
            found, trace, isolated = await asyncio.gather(
                graph.query("why were surgeries delayed"),
                graph.trace_effects(FACTS[0][0]),
                graph.query("flooding in Riverton", scopes=["team/alice"], isolate=True),
            )
            assert graph.settings.language == "english"  # plain attributes read as they are
        return found, trace, isolated

    found, trace, isolated = asyncio.run(run())
    assert found == expected_found and found[0].startswith("Power outages at the hospital")
    assert trace["chain"] == expected_trace["chain"] and len(trace["chain"]) >= 2
    assert isolated and FACTS[0][0] in isolated
    assert set(isolated) <= {t for t, s in FACTS if s == "team/alice"}  # bob's never shows


def test_the_event_loop_stays_free_while_the_graph_works(tmp_path: Path) -> None:
    graph = DocumentGraph(tmp_path / "slow.db")
    release = threading.Event()
    original = graph.query

    def slow_query(*args: object, **kwargs: object) -> list[str]:
        release.wait(5)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    graph.query = slow_query  # type: ignore[method-assign]

    async def run() -> list[str]:
        agraph = AsyncDocumentGraph(graph=graph)
        await agraph.add_text("Heavy rain caused flooding in Riverton.")
        pending = asyncio.ensure_future(agraph.query("flooding"))
        await asyncio.sleep(0.05)
        assert not pending.done()  # the loop ran this line while the query waited
        release.set()
        found = await pending
        await agraph.close()
        return found

    assert asyncio.run(run()) == ["Heavy rain caused flooding in Riverton."]


def test_private_and_unknown_names_are_not_twinned(tmp_path: Path) -> None:
    agraph = AsyncDocumentGraph(graph=DocumentGraph(tmp_path / "x.db"))
    with pytest.raises(AttributeError):
        agraph._sync  # noqa: B018
    with pytest.raises(AttributeError):
        agraph.no_such_verb  # noqa: B018
    asyncio.run(agraph.close())


def test_verbs_that_yield_run_to_the_end_in_the_worker_thread(tmp_path: Path) -> None:
    from groundgraph.ingest import parse_markdown

    parsed = [
        parse_markdown(f"# Log {i}\n\nTide tables for day {i}.", f"Log {i}") for i in range(3)
    ]

    async def main() -> list[str]:
        async with AsyncDocumentGraph(tmp_path / "a.db") as agraph:
            added = await agraph.add_documents(parsed, workers=0)
            assert isinstance(added, list)
            return [d.doc_id for d in added] + [h.node_id for h in await agraph.search("tide")]

    found = asyncio.run(main())
    assert found[:3] == ["log-0", "log-1", "log-2"]
    assert len(found) > 3
