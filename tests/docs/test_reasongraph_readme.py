"""ReasonGraph's README, its 19 Python snippets, run against groundgraph as
tests/reasongraph_readme.py rewrites them (only on marked lines): 17 here, the PostgreSQL
one against the test server (tests/store/postgres/), the FastEmbed one not run.
What the README's comments say the calls return is checked, or where groundgraph differs,
what it returns instead (docs/coming-from.md, "ReasonGraph", says the same in short).
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import io
import os
import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from fake_embedder import hashed_bag
from model_fakes import FakeCausalTagger, FakeGliner
from reasongraph_readme import CHANGES, NOT_RUN, README, rewritten
from repo_paths import ROOT

SEED = ROOT.parent / "shared" / "seeds" / "004_ba33265ec3ca1947.txt"  # the build machine only
PAGE = ROOT / "docs" / "coming-from.md"
#: Snippets run by another test file.
ELSEWHERE = {"postgres backend": "tests/store/postgres/test_reasongraph_postgres.py"}


def template_llm(question: str, facts: Sequence[Any]) -> str:
    """The reader's ``my_small_llm``: any callable(question, facts) -> str."""
    return " ".join(fact.text for fact in facts[:2])


CHAT_LABELS = ["location", "preference", "plan"]
SCOPED = {  # the README's scopes snippet leaves these three lists to the reader
    "alice_facts": ["Alice is saving to buy a home in Denver."],
    "economy_facts": ["Mortgage rates in Denver rose sharply this year."],
    "shared": ["Home prices in Denver keep climbing."],
}


def _run(name: str, names: dict[str, Any]) -> list[str]:
    code = compile(
        rewritten(name, README[name]),
        f"ReasonGraph README: {name}",
        "exec",
        flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,  # the scopes snippet awaits at top level
    )
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        pending = eval(code, names)  # our rewrite of the README's text, kept above
        if pending is not None:
            asyncio.run(pending)
    return out.getvalue().splitlines()


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Every snippet run in order in one namespace, as a reader pastes them one by one;
    where a snippet uses a graph an earlier one closed, a fresh one is opened first."""
    from groundgraph import AsyncDocumentGraph, DocumentGraph
    from groundgraph.ingest.entities import GlinerEntityExtractor

    folder = tmp_path_factory.mktemp("reasongraph")
    names: dict[str, Any] = {
        "gliner_model": FakeGliner(
            {"Apple": ("company", 0.9), "iPhone": ("product", 0.9), "2007": ("date", 0.9)}
        ),
        "chat_model": FakeGliner(
            {
                "Berlin": ("location", 0.9),
                "hard techno": ("preference", 0.8),
                "visit": ("plan", 0.7),
            }
        ),
        "CHAT_LABELS": CHAT_LABELS,
        "causal_tagger": FakeCausalTagger(),
        "place_names": GlinerEntityExtractor(
            FakeGliner({"Arizona": ("location", 0.9), "TSMC": ("organization", 0.9)})
        ),
        "my_small_llm": template_llm,
        "my_generate": lambda prompt: "The memory does not know.",
        **SCOPED,
    }
    before_each: dict[str, Callable[[], None]] = {
        "dataset": lambda: names.update(graph=DocumentGraph()),
        "search modes": lambda: names.update(graph=_financial(DocumentGraph(embed=hashed_bag))),
        "scopes": lambda: names.update(graph=AsyncDocumentGraph()),
    }
    printed: dict[str, list[str]] = {}
    graphs: dict[str, Any] = {}
    results: dict[str, Any] = {}
    here = os.getcwd()
    os.chdir(folder)
    try:
        for name in README:
            if name in NOT_RUN or name in ELSEWHERE:
                continue
            before_each.get(name, lambda: None)()
            printed[name] = _run(name, names)
            graphs[name] = names.get("graph")
            results[name] = names.get("results")
        names.update(printed=printed, graphs=graphs, results_by=results, folder=folder)
        yield names
    finally:
        os.chdir(here)
        asyncio.run(graphs["scopes"].close())
        names["service"].close()


def _financial(graph: Any) -> Any:
    graph.load_dataset("financial")
    return graph


def test_the_copy_is_the_readme_and_every_block_is_run_or_listed() -> None:
    if SEED.exists():
        blocks = re.findall(r"```python\n(.*?)```", SEED.read_text(encoding="utf-8"), re.DOTALL)
        assert blocks == list(README.values())
    assert len(README) == 19 and set(NOT_RUN) <= set(README)
    assert set(CHANGES) | set(NOT_RUN) == set(README)
    assert all((ROOT / path).is_file() for path in ELSEWHERE.values())


@pytest.mark.parametrize("name", sorted(NOT_RUN))
def test_snippets_that_need_downloads_are_not_run(name: str) -> None:
    pytest.skip(f"ReasonGraph README snippet {name!r} not run: {NOT_RUN[name]}")


def test_the_changes_are_only_the_marked_lines() -> None:
    for name, snippet in README.items():
        unused = [theirs for theirs, _, _ in CHANGES.get(name, []) if theirs not in snippet]
        # SYNC and INIT are shared rules: INIT matches what SYNC leaves behind.
        assert set(unused) <= {"graph.initialize()"}, (name, unused)
        kept, changed = snippet.splitlines(), rewritten(name, snippet).splitlines()
        assert len(kept) == len(changed)
        for theirs, ours in zip(kept, changed, strict=True):
            if theirs != ours:
                marks = ("# renamed:", "# differs:", "# filled in:", "# not run:")
                assert any(mark in ours for mark in marks), ours
                assert repr(theirs.strip()) in ours  # the README's line is quoted
    assert "reasongraph" not in "".join(
        rewritten(n, s).split("#")[0] for n, s in README.items() if n not in NOT_RUN
    )


def test_each_sync_name_of_the_readme_says_its_new_name() -> None:
    from groundgraph import DocumentGraph

    used = set(re.findall(r"\.(\w+)_sync\(", "".join(README.values())))
    assert {"query", "add_text", "what_if", "initialize", "close"} <= used
    with DocumentGraph() as graph:
        for verb in sorted(used):
            with pytest.raises(AttributeError) as caught:
                getattr(graph, f"{verb}_sync")
            if verb == "initialize":
                assert "drop the call" in str(caught.value)
            else:
                assert f"is {verb}(...) here" in str(caught.value) and callable(
                    getattr(graph, verb)
                )


def test_cross_source_results_come_from_both_sources(ran: Any) -> None:
    lines = ran["printed"]["cross-source"]
    texts = {line.split("] ", 1)[1] for line in lines}
    assert texts <= set(ran["source_a"]) | set(ran["source_b"]) and lines
    assert any("[Source A]" in line for line in lines)
    assert any("[Source B]" in line for line in lines)


def test_quick_start_prints_a_numbered_chain_from_the_financial_dataset() -> None:
    from groundgraph import DocumentGraph

    with DocumentGraph() as graph:
        loaded = {fact.text for fact in graph.load_dataset("financial")}
        expected = graph.query("What caused the 2008 financial crisis?")
    lines = _run("quick start", {})
    assert lines == [f"{i}. {text}" for i, text in enumerate(expected, 1)]
    assert set(expected) <= loaded and any("Lehman Brothers" in t for t in expected)


def test_the_async_snippet_returns_what_the_sync_graph_returns(ran: Any) -> None:
    from groundgraph import DocumentGraph

    with DocumentGraph() as graph:
        graph.load_dataset("financial")
        assert ran["printed"]["async"] == graph.query("What caused the 2008 crisis?")


def test_search_modes_all_answer(ran: Any) -> None:
    graph = ran["graphs"]["search modes"]
    facts = {node.content for node in graph.get_all_nodes() if node.type == "text"}
    for mode in ("embedding", "keyword", "hybrid"):
        found = graph.query("credit freeze", search_mode=mode)
        assert found and set(found) <= facts
    keyword = graph.query("credit freeze", search_mode="keyword")
    assert any("credit" in text.lower() or "freeze" in text.lower() for text in keyword[:2])
    assert set(ran["results_by"]["search modes"]) <= facts  # the last line: hybrid with rrf_k=30


def test_extraction_snippet(ran: Any) -> None:
    # Ours returns the Fact; its names are .entities. The zero-model rules do not take a
    # sentence's first word as a name ("Apple released ..."), so only "iPhone" is found
    # where ReasonGraph's GLiNER finds ['Apple', 'iPhone'].
    assert ran["printed"]["extraction"][0] == "('iPhone',)"
    # The same sentence again is the fact already remembered (status "existing"): it is not
    # extracted a second time, so the NER and GLiNER2 lines add nothing to the graph here;
    # the extractor the README builds finds its three types in the sentence.
    assert ran["gliner_model"].calls == []
    found = ran["gliner"]("Apple released the iPhone in 2007.")
    assert [m.text for m in found] == ["Apple", "iPhone", "2007"]
    assert ran["entities"].entities == ("custom",)  # "Any callable works"
    names = {n.content for n in ran["graphs"]["extraction"].get_all_nodes() if n.type == "entity"}
    assert {"Berlin", "hard techno", "visit"} <= names  # the README's ChatExtractor comment


def test_causal_edges_are_returned_per_fact(ran: Any) -> None:
    (line,) = [x for x in ran["printed"]["causal"] if x.startswith("Heavy rainfall caused severe")]
    assert line.endswith("[{'cause': 'Heavy rainfall', 'effect': 'severe flooding'}]")


def test_tracing_reaches_the_readme_terminals(ran: Any) -> None:
    graph = ran["graphs"]["tracing"]
    effects = graph.trace_effects("Heavy rainfall caused flooding.")
    assert effects["terminals"] == ["hospital disruptions"]
    causes = graph.trace_causes("Power outages caused hospital disruptions.")["terminals"]
    # ReasonGraph's comment shows ['rainfall'] ("e.g."); our span keeps the adjective.
    assert (
        causes
        == ["Heavy rainfall"]
        == graph.root_causes("Power outages caused hospital disruptions.")
    )
    hops = graph.causal_chain(
        "Heavy rainfall caused flooding.", "Power outages caused hospital disruptions."
    )
    assert [hop.fact for hop in hops] == [
        "Heavy rainfall caused flooding.",
        "Flooding caused power outages.",
        "Power outages caused hospital disruptions.",
    ]


def test_what_if_reports_what_collapses(ran: Any) -> None:
    result = ran["graphs"]["what if"].what_if("Flooding caused power outages.")
    assert result["pruned"] == result["origin"] == "Flooding caused power outages."
    # ReasonGraph's keys are snake_case (pruned_edges); ours are camelCase, as in every
    # groundgraph JSON form (prunedEdges), with the fact's id beside each pair.
    assert [(e["cause"].lower(), e["effect"]) for e in result["prunedEdges"]] == [
        ("flooding", "power outages")
    ]
    assert [(c["span"], c["depth"]) for c in result["collapsed"]] == [
        ("power outages", 0),
        ("hospital disruptions", 1),
    ]
    assert result["survived"] == []


def test_scoped_query_seeds_in_one_scope_and_reaches_another(ran: Any) -> None:
    assert SCOPED["economy_facts"][0] in ran["results_by"]["scopes"]


def test_backends_write_their_files(ran: Any) -> None:
    assert (ran["folder"] / "graph.db").stat().st_size > 0
    assert type(ran["graphs"]["sqlite backend"].store).__name__ == "SQLiteStore"


def test_the_service_discovers_across_sessions(ran: Any) -> None:
    # Ours is {"connections": [...]}, one per fact with its path and cross_session flag.
    found = {c["content"]: c for c in ran["paths"]["connections"]}
    crossed = found["Arizona declared a water emergency."]
    assert crossed["cross_session"] is True
    assert {"entity": "Arizona"} in crossed["path"]  # "via the shared 'Arizona' entity"
    assert isinstance(ran["answer"], str) and ran["answer"]
