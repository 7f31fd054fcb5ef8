"""ReasonGraph's README, its 19 Python snippets as it writes them, run against groundgraph.

Each snippet is rewritten line by line, and only where a name or a model changes; every
changed line ends in a comment saying what the README has (``renamed``: a new name for the
same thing; ``differs``: our equivalent, which behaves differently, as the comment says;
``filled in``: a deterministic fake where the README loads model weights or leaves the body
to the reader; ``not run``: the line needs something we do not ship, and says what).
Snippets that need model downloads or a server are listed in ``NOT_RUN`` with the reason.
What the README's comments say the calls return is checked, or where groundgraph differs,
what it returns instead (docs/coming-from.md, "ReasonGraph", says the same in short).
"""

# ruff: noqa: E501 -- the README's lines are kept as it writes them, some over 100 characters

from __future__ import annotations

import ast
import asyncio
import contextlib
import io
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from model_fakes import FakeCausalTagger, FakeGliner
from repo_paths import ROOT

#: The README's Python snippets, in its order, as it writes them.
README = {
    "cross-source": '''\
import asyncio
from reasongraph import ReasonGraph

source_a = [  # Tech industry report
    "TSMC announced plans to build a $40 billion semiconductor fabrication plant in Phoenix, Arizona.",
    "The Phoenix fab requires 10 million gallons of purified water daily to cool wafers during the chip etching process.",
    "TSMC signed a long-term supply agreement with Apple to manufacture next-generation M-series processors at the Arizona facility.",
    "Construction delays at the Phoenix site pushed first production to late 2025, raising concerns among TSMC's major customers.",
]

source_b = [  # Environmental report -- never mentions TSMC, semiconductors, or chips
    "Arizona declared a water emergency after Lake Mead dropped to its lowest level since the 1930s, threatening water supply for millions.",
    "The Arizona Department of Water Resources ordered mandatory water cuts for all industrial users in Maricopa County, where Phoenix is located.",
    "Intel paused expansion of its Chandler, Arizona chip plant citing water availability concerns and rising operational costs.",
    "Apple warned investors that component shortages from its Asian and North American suppliers could impact iPhone production timelines through 2026.",
]

async def main():
    async with ReasonGraph() as graph:
        await graph.add_texts(source_a)
        await graph.add_texts(source_b)
        results = await graph.query("How does the Arizona water crisis affect semiconductor manufacturing?")
        for i, text in enumerate(results, 1):
            source = "A" if text in source_a else "B"
            print(f"{i}. [Source {source}] {text}")

asyncio.run(main())
''',
    "quick start": '''\
from reasongraph import ReasonGraph

graph = ReasonGraph()
graph.initialize_sync()
graph.load_dataset_sync("financial")

results = graph.query_sync("What caused the 2008 financial crisis?")
for i, text in enumerate(results, 1):
    print(f"{i}. {text}")

graph.close_sync()
''',
    "async": '''\
import asyncio
from reasongraph import ReasonGraph

async def main():
    async with ReasonGraph() as graph:
        await graph.load_dataset("financial")
        results = await graph.query("What caused the 2008 crisis?")
        for text in results:
            print(text)

asyncio.run(main())
''',
    "dataset": '''\
graph.load_dataset_sync("financial")
''',
    "search modes": '''\
# Pure embedding similarity (default)
results = graph.query_sync("credit freeze", search_mode="embedding")

# Pure keyword/trigram matching
results = graph.query_sync("credit freeze", search_mode="keyword")

# Hybrid: Reciprocal Rank Fusion of embedding + trigram rankings
results = graph.query_sync("credit freeze", search_mode="hybrid")

# Tune the RRF smoothing constant (default 60, lower = more weight to top ranks)
results = graph.query_sync("credit freeze", search_mode="hybrid", rrf_k=30)
''',
    "extraction": '''\
from reasongraph import ReasonGraph, NERExtractor, GLiNER2Extractor

graph = ReasonGraph()
graph.initialize_sync()

# Default: GLiNER gliner_small-v2.5 for entities (+ the default causal model),
# falling back to GLiNER2 then BERT NER
entities = graph.add_text_sync("Apple released the iPhone in 2007.")
print(entities)  # ['Apple', 'iPhone']

# Explicit: force BERT NER even if a GLiNER model is installed
entities = graph.add_text_sync("Apple released the iPhone in 2007.", extractor=NERExtractor())

# Explicit: GLiNER2 with custom entity types
gliner = GLiNER2Extractor(entity_types=["company", "product", "date"])
entities = graph.add_text_sync("Apple released the iPhone in 2007.", extractor=gliner)

# Conversational memory: ChatExtractor also captures preference/plan/topic,
# so "hard techno" or "visit" become bridgeable nodes -- not just people/places
from reasongraph import ChatExtractor
entities = graph.add_text_sync(
    "I love hard techno and plan to visit Berlin.", extractor=ChatExtractor()
)  # ['Berlin', 'hard techno', 'visit']

# Any callable works
entities = graph.add_text_sync("some text", extractor=lambda t: ["custom"])
''',
    "causal": '''\
graph.add_text_sync("Heavy rainfall caused severe flooding.")
# -> typed edge  heavy rainfall --causes--> severe flooding

for fact in graph.discover_sync("flooding"):
    print(fact["content"], fact["causes"])  # [{'cause': 'Heavy rainfall', 'effect': 'severe flooding'}]
''',
    "tracing": '''\
graph.add_texts_sync([
    "Heavy rainfall caused flooding.",
    "Flooding caused power outages.",
    "Power outages caused hospital disruptions.",
])

graph.trace_effects_sync("Heavy rainfall caused flooding.")["terminals"]
# e.g. -> ['hospital disruptions']       # downstream impact

graph.trace_causes_sync("Power outages caused hospital disruptions.")["terminals"]
# e.g. -> ['rainfall']                   # upstream causes (same as root_causes_sync)

graph.causal_chain_sync("Heavy rainfall caused flooding.",
                        "Power outages caused hospital disruptions.")
# -> ordered causal hops, each cited to the fact that asserted it
''',
    "what if": '''\
graph.what_if_sync("Flooding caused power outages.")
# {
#   'pruned': 'Flooding caused power outages.',
#   'origin': 'Flooding caused power outages.',     # walk start (== pruned unless origin= given)
#   'pruned_edges': [{'cause': 'flooding', 'effect': 'power outages'}],
#   'collapsed': [                                 # lost their only causal path
#       {'span': 'power outages', 'fact': 'Flooding caused power outages.', 'depth': 0, ...},
#       {'span': 'hospital disruptions', 'fact': 'Power outages caused hospital disruptions.', 'depth': 1, ...},
#   ],
#   'survived': [],                                # spans an alternate path rescued
# }
''',
    "causal models": '''\
from reasongraph import CausalPointerExtractor, HybridCausalExtractor, GlinerRelexExtractor

ReasonGraph()                                          # best available (pointer if installed, else hybrid)
ReasonGraph(causal_extractor=CausalPointerExtractor())  # force the span-pointer model
ReasonGraph(causal_extractor=HybridCausalExtractor())  # force the hybrid
ReasonGraph(causal_extractor=GlinerRelexExtractor())   # relex model only
ReasonGraph(causal_extractor=False)                    # disable causal extraction
''',
    "fast inference": '''\
from reasongraph import ReasonGraph, FastEmbedEmbedder, FastEmbedReranker

graph = ReasonGraph(
    embed_model=FastEmbedEmbedder("sentence-transformers/all-MiniLM-L6-v2"),
    rerank_model=FastEmbedReranker("Xenova/ms-marco-MiniLM-L-6-v2"),
)
''',
    "scopes": '''\
await graph.add_texts(alice_facts, scopes=["user-alice"])
await graph.add_texts(economy_facts, scopes=["topic-economy"])
# One fact can belong to several scopes at once
await graph.add_texts(shared, scopes=["user-alice", "topic-economy"])

# Seeds come from user-alice; reasoning still bridges into topic-economy facts
results = await graph.query("Will it get harder to afford a home?", scopes=["user-alice"])
''',
    "memory backend": '''\
from reasongraph import ReasonGraph, MemoryBackend

# In-memory only (default)
graph = ReasonGraph()

# In-memory with JSON file persistence (loads on init, saves on close)
graph = ReasonGraph(backend=MemoryBackend(file_path="graph.json"))
''',
    "sqlite backend": '''\
from reasongraph import ReasonGraph
from reasongraph.backends import SqliteBackend

graph = ReasonGraph(backend=SqliteBackend(db_path="graph.db"))
''',
    "postgres backend": '''\
from reasongraph import ReasonGraph
from reasongraph.backends import PostgresBackend

graph = ReasonGraph(backend=PostgresBackend(database_url="postgresql://user:pass@localhost/db"))
''',
    "embed model": '''\
def encode(text_or_texts):
    # reuse your own embedding library; return list[float] or list[list[float]]
    ...

graph = ReasonGraph(embed_model=encode)
''',
    "service": '''\
from reasongraph.service import MemoryService
from reasongraph.backends import PostgresBackend

service = MemoryService(backend=PostgresBackend("postgresql:///memory"),
                        synthesizer=my_small_llm)   # synthesizer is optional

await service.push("research-bot", "TSMC is building a chip fab in Arizona.")
await service.push("news-bot", "Arizona declared a water emergency.")

# research-bot discovers news-bot's fact via the shared 'Arizona' entity
paths = await service.discover("Arizona", session="research-bot")
answer = await service.answer("Arizona", session="research-bot")   # logical free text
''',
    "synthesizers": '''\
from reasongraph import TemplateSynthesizer, PromptSynthesizer, TransformersSynthesizer

ReasonGraph(synthesizer=TemplateSynthesizer())            # deterministic, no model
ReasonGraph(synthesizer=PromptSynthesizer(my_generate))   # bring any LLM: generate(prompt) -> str
ReasonGraph(synthesizer=TransformersSynthesizer())        # local small LLM (Qwen2.5-0.5B-Instruct)
''',
    "multi-tenant": '''\
ReasonGraph(isolate_traversal=True)               # graph-wide default
graph.query("...", scopes={"tenant-a"}, isolate=True)   # or per query
''',
}

SEED = Path("/work/shared/seeds/004_ba33265ec3ca1947.txt")  # present on the build machine only
PAGE = ROOT / "docs" / "coming-from.md"

#: Snippets not run, and why.
NOT_RUN = {
    "fast inference": "FastEmbed downloads ONNX models; our embedder is MiniLM "
    "(embed='minilm', needs torch and the [embed] extra), tested by `make test-embed`",
    "postgres backend": "needs a PostgreSQL server at that URL; DocumentGraph('postgresql://...') "
    "against a real server is tested by the tests marked postgres (`make test-postgres`)",
}

Rule = tuple[str, str, str]  # (what the README writes, what runs, kind of change)

SYNC = ("_sync(", "(", "renamed")  # ReasonGraph's sync twins are our plain methods
IMPORT = ("from reasongraph import ReasonGraph", "from groundgraph import DocumentGraph", "renamed")
NEW = ("ReasonGraph(", "DocumentGraph(", "renamed")
INIT = ("graph.initialize()", "pass", "differs")  # after SYNC: a DocumentGraph is open once built
ASYNC = [
    ("from reasongraph import ReasonGraph", "from groundgraph import AsyncDocumentGraph", "renamed"),
    ("async with ReasonGraph() as graph", "async with AsyncDocumentGraph() as graph", "renamed"),
]

#: Every change made to each snippet, applied in order to each line.
CHANGES: dict[str, list[Rule]] = {
    "cross-source": ASYNC,
    "quick start": [IMPORT, NEW, SYNC, INIT],
    "async": ASYNC,
    "dataset": [SYNC],
    "search modes": [SYNC],
    "extraction": [
        (
            "from reasongraph import ReasonGraph, NERExtractor, GLiNER2Extractor",
            "from groundgraph import DocumentGraph; from groundgraph.ingest.entities import GlinerEntityExtractor, extract_entities",
            "renamed",
        ),
        NEW,
        SYNC,
        INIT,
        ("print(entities)", "print(entities.entities)", "differs"),  # add_text returns a Fact
        ("extractor=NERExtractor()", "extractor=extract_entities", "differs"),
        ("GLiNER2Extractor(entity_types=", "GlinerEntityExtractor(gliner_model, labels=", "filled in"),
        (
            "from reasongraph import ChatExtractor",
            "from groundgraph.ingest.entities import GlinerEntityExtractor as ChatExtractor",
            "differs",
        ),
        ("extractor=ChatExtractor()", "extractor=ChatExtractor(chat_model, labels=CHAT_LABELS)", "filled in"),
    ],
    "causal": [SYNC],
    "tracing": [SYNC],
    "what if": [SYNC],
    "causal models": [
        (
            "from reasongraph import CausalPointerExtractor, HybridCausalExtractor, GlinerRelexExtractor",
            "from groundgraph.ingest.causal import CausalSpanExtractor, extract_causal",
            "renamed",
        ),
        ("ReasonGraph(causal_extractor=GlinerRelexExtractor())", "", "not run"),
        ("CausalPointerExtractor()", "CausalSpanExtractor(pipeline=causal_tagger)", "filled in"),
        ("HybridCausalExtractor()", "extract_causal", "differs"),
        NEW,
    ],
    "scopes": [],
    "memory backend": [
        ("from reasongraph import ReasonGraph, MemoryBackend", "from groundgraph import DocumentGraph", "renamed"),
        ('ReasonGraph(backend=MemoryBackend(file_path="graph.json"))', 'DocumentGraph("graph.db")', "differs"),
        NEW,
    ],
    "sqlite backend": [
        IMPORT,
        ("from reasongraph.backends import SqliteBackend", "from groundgraph import SQLiteStore", "renamed"),
        ('ReasonGraph(backend=SqliteBackend(db_path="graph.db"))', 'DocumentGraph(store=SQLiteStore("graph.db"))', "renamed"),
    ],
    "embed model": [("ReasonGraph(embed_model=encode)", "DocumentGraph(embed=encode)", "renamed")],
    "service": [
        ("from reasongraph.service import MemoryService", "from groundgraph.service import MemoryService", "renamed"),
        ("from reasongraph.backends import PostgresBackend", "", "not run"),
        # In memory, and with a GLiNER model's names: the zero-model rules do not take the
        # first word of "Arizona declared ..." as a name, so without one the two facts
        # share no entity and research-bot does not reach news-bot's fact.
        ('MemoryService(backend=PostgresBackend("postgresql:///memory"),', "MemoryService(entities=place_names,", "filled in"),
        ("await service.", "service.", "differs"),  # our service is sync; HTTP/MCP run it in threads
    ],
    "synthesizers": [
        (
            "from reasongraph import TemplateSynthesizer, PromptSynthesizer, TransformersSynthesizer",
            "from groundgraph import DocumentGraph; from groundgraph.memory.synthesis import PromptSynthesizer, TemplateSynthesizer",
            "renamed",
        ),
        ("ReasonGraph(synthesizer=TransformersSynthesizer())", "", "not run"),
        NEW,
    ],
    "multi-tenant": [NEW],
}

WHY_NOT_RUN = {
    "ReasonGraph(causal_extractor=GlinerRelexExtractor())": "no relation-extraction model "
    "adapter; implicit causes come from llm_causal_extractor or CausalSpanExtractor",
    "from reasongraph.backends import PostgresBackend": "the service opens its graph in memory "
    "here; DocumentGraph('postgresql://...') is the PostgreSQL one",
    "ReasonGraph(synthesizer=TransformersSynthesizer())": "needs Qwen weights from a hub; "
    "PromptSynthesizer over OpenAICompatibleLLM reaches a local model server",
}


def rewritten(name: str, snippet: str) -> str:
    """The snippet with its CHANGES applied, each changed line saying so in a comment."""
    lines = []
    for line in snippet.splitlines():
        original, kind = line, ""
        for theirs, ours, why in CHANGES.get(name, []):
            if theirs in line:
                if why == "not run":
                    indent = line[: len(line) - len(line.lstrip())]
                    line = f"{indent}pass  # not run: README has {original.strip()!r}: {WHY_NOT_RUN[theirs]}"
                    kind = ""
                    break
                line = line.replace(theirs, ours)
                kind = kind or why
        if kind:
            line = f"{line}  # {kind}: README has {original.strip()!r}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def fake_embedder(texts: Sequence[str]) -> np.ndarray:
    """A text -> vector function standing in for a sentence embedder: a bag of letters."""
    rows = np.zeros((len(texts), 26), dtype=np.float32)
    for i, text in enumerate(texts):
        for ch in text.lower():
            if "a" <= ch <= "z":
                rows[i, ord(ch) - 97] += 1
    return rows + 1e-3


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
            {"Berlin": ("location", 0.9), "hard techno": ("preference", 0.8), "visit": ("plan", 0.7)}
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
        "search modes": lambda: names.update(graph=_financial(DocumentGraph(embed=fake_embedder))),
        "scopes": lambda: names.update(graph=AsyncDocumentGraph()),
    }
    printed: dict[str, list[str]] = {}
    graphs: dict[str, Any] = {}
    results: dict[str, Any] = {}
    here = os.getcwd()
    os.chdir(folder)
    try:
        for name in README:
            if name in NOT_RUN:
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
    assert causes == ["Heavy rainfall"] == graph.root_causes("Power outages caused hospital disruptions.")
    hops = graph.causal_chain("Heavy rainfall caused flooding.", "Power outages caused hospital disruptions.")
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
