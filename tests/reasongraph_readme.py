"""ReasonGraph's README snippets (tests/reasongraph_readme_copy.py) rewritten for groundgraph,
line by line and only where a name or a model changes.

Every changed line ends in a comment quoting what the README has, and saying the kind of
change: ``renamed`` (a new name for the same thing), ``differs`` (our equivalent, which
behaves differently), ``filled in`` (a deterministic fake where the README loads model
weights or leaves a name to the reader) or ``not run`` (the line needs something we do not
ship, and says what). ``NOT_RUN`` lists the snippets that need downloads.
Used by tests/docs/test_reasongraph_readme.py and test_reasongraph_cross_source.py.
"""

# ruff: noqa: E501 -- the README's lines are kept as it writes them, some over 100 characters

from __future__ import annotations

from reasongraph_readme_copy import README

__all__ = ["CHANGES", "NOT_RUN", "README", "rewritten"]


#: Snippets not run, and why.
NOT_RUN = {
    "fast inference": "FastEmbed downloads ONNX models; our embedder is MiniLM "
    "(embed=embedder_named('minilm'), needs torch and the [embed] extra), tested by `make test-embed`",
}

Rule = tuple[str, str, str]  # (what the README writes, what runs, kind of change)

SYNC = ("_sync(", "(", "renamed")  # ReasonGraph's sync twins are our plain methods
IMPORT = ("from reasongraph import ReasonGraph", "from groundgraph import DocumentGraph", "renamed")
NEW = ("ReasonGraph(", "DocumentGraph(", "renamed")
INIT = ("graph.initialize()", "pass", "differs")  # after SYNC: a DocumentGraph is open once built
ASYNC = [
    (
        "from reasongraph import ReasonGraph",
        "from groundgraph import AsyncDocumentGraph",
        "renamed",
    ),
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
        (
            "GLiNER2Extractor(entity_types=",
            "GlinerEntityExtractor(gliner_model, labels=",
            "filled in",
        ),
        (
            "from reasongraph import ChatExtractor",
            "from groundgraph.ingest.entities import GlinerEntityExtractor as ChatExtractor",
            "differs",
        ),
        (
            "extractor=ChatExtractor()",
            "extractor=ChatExtractor(chat_model, labels=CHAT_LABELS)",
            "filled in",
        ),
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
        (
            "from reasongraph import ReasonGraph, MemoryBackend",
            "from groundgraph import DocumentGraph",
            "renamed",
        ),
        (
            'ReasonGraph(backend=MemoryBackend(file_path="graph.json"))',
            'DocumentGraph("graph.db")',
            "differs",
        ),
        NEW,
    ],
    "sqlite backend": [
        IMPORT,
        (
            "from reasongraph.backends import SqliteBackend",
            "from groundgraph import SQLiteStore",
            "renamed",
        ),
        (
            'ReasonGraph(backend=SqliteBackend(db_path="graph.db"))',
            'DocumentGraph(store=SQLiteStore("graph.db"))',
            "renamed",
        ),
    ],
    "postgres backend": [  # run against the test server, in test_reasongraph_postgres.py
        IMPORT,
        (
            "from reasongraph.backends import PostgresBackend",
            "from postgres_server import fresh_schema_url",
            "filled in",
        ),
        (
            'ReasonGraph(backend=PostgresBackend(database_url="postgresql://user:pass@localhost/db"))',
            'DocumentGraph(fresh_schema_url("readme"))',
            "filled in",
        ),
    ],
    "embed model": [("ReasonGraph(embed_model=encode)", "DocumentGraph(embed=encode)", "renamed")],
    "service": [
        (
            "from reasongraph.service import MemoryService",
            "from groundgraph.service import MemoryService",
            "renamed",
        ),
        ("from reasongraph.backends import PostgresBackend", "", "not run"),
        # In memory, and with a GLiNER model's names: the zero-model rules do not take the
        # first word of "Arizona declared ..." as a name, so without one the two facts
        # share no entity and research-bot does not reach news-bot's fact.
        (
            'MemoryService(backend=PostgresBackend("postgresql:///memory"),',
            "MemoryService(entities=place_names,",
            "filled in",
        ),
        (
            "await service.",
            "service.",
            "differs",
        ),  # our service is sync; HTTP/MCP run it in threads
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


RANK = ["", "renamed", "differs", "filled in"]


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
                kind = max(kind, why, key=RANK.index)  # the line says its largest change
        if kind:
            line = f"{line}  # {kind}: README has {original.strip()!r}"
        lines.append(line)
    return "\n".join(lines) + "\n"
