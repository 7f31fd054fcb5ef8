"""Grounded Graph of Thought's README, its Python snippets as it writes them, run against
groundgraph. The only changes are names (the package and two module paths) and the bodies
the README leaves to the reader (``...``), each marked where it is made; what the README's
comments say the calls print or return is checked."""

# ruff: noqa: E501 -- the README's lines are kept as it writes them, some over 100 characters

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from thought_fakes import Scripted, answer, thoughts

# The README opens graph.json twice without closing it (``json.dump(..., open(...))``): the
# files are closed when collected, which Python reports as a ResourceWarning. Kept as written.
pytestmark = [
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

#: The README's five Python snippets, in its order, as it writes them.
README = {
    "quick start": '''\
from gpbacay_arcane import DocumentGraph

guide = """# User Guide
## Installation
Run pip install gpbacay-arcane.
## Configuration
Edit config.json to customize settings.
## Deployment
Push the build to the server.
## Troubleshooting
If config fails, see the Configuration section."""

graph = DocumentGraph()
graph.add_document(guide, "User Guide")   # the same title again replaces it

for hit in graph.search("config fails"):
    print(hit["title"], hit["edgeType"], round(hit["score"], 2))

context = graph.retrieve("deploy")       # "### Deployment [user-guide#3]\\nPush the build..."
''',
    "reasoning": """\
from gpbacay_arcane import GroundedGraphOfThought
from gpbacay_arcane.got import ops

def my_llm(prompt: str) -> str:
    ...  # call any model (hosted, Ollama, local) and return its text

got = GroundedGraphOfThought(graph, llm=my_llm)  # max_llm_calls=16, min_support=0.5
result = got.reason("My config fails. What should I check?")
result["answer"]       # final answer
result["claims"]       # each sentence with its support (0-1) and the sections backing it
result["unsupported"]  # sentences the documents do not back
result["citations"]    # only sections that back a supported sentence
result["thoughts"]     # the whole thought graph: ids, parents, evidence, grounding
result["llm_calls"], result["budget_exhausted"]

graph.support("Set DATABASE_URL before starting.", ["user-guide#3"])  # (1.0, ["user-guide#3"], mass)

# Optional entailment check: (claim, evidence) -> probability, e.g. an NLI model
got = GroundedGraphOfThought(graph, llm=my_llm, verify=my_nli)

# Custom plan
got.reason(question, [ops.retrieve(), ops.generate(5), ops.keep_best(3), ops.aggregate(), ops.refine(3)])
""",
    "embeddings": """\
from gpbacay_arcane import DocumentGraph

graph = DocumentGraph(embed=my_sentence_embedder)   # any text -> vector function
graph.add_document(guide, "User Guide")
""",
    "tools": """\
from gpbacay_arcane import got_tools
from gpbacay_arcane.tools import execute_tools

tools = got_tools(graph)                    # read-only; writable=True adds add/remove
schemas = [t.schema_dict() for t in tools]  # {"name", "description", "parameters"}

# After your model returns tool calls:
execute_tools([{"name": "got_search", "arguments": {"query": "deploy"}}], tools)
""",
    "saving": """\
import json

json.dump(graph.to_json(), open("graph.json", "w"))
graph = DocumentGraph.from_json(json.load(open("graph.json")))
""",
}

#: Every change made to the README's text: (what it writes, what runs, why).
CHANGES = [
    ("from gpbacay_arcane.got import ops", "from groundgraph.reason.thought import ops", "name"),
    ("from gpbacay_arcane.tools import", "from groundgraph.tools import", "name"),
    ("from gpbacay_arcane import", "from groundgraph import", "name"),
    (
        "    ...  # call any model (hosted, Ollama, local) and return its text",
        "    return scripted(prompt)  # the README leaves the body to the reader",
        "body",
    ),
]


def rewritten(snippet: str) -> str:
    """The snippet with the CHANGES applied, each changed line saying so in a comment."""
    lines = []
    for line in snippet.splitlines():
        for theirs, ours, why in CHANGES:
            if theirs in line:
                note = "renamed" if why == "name" else "filled in"
                line = line.replace(theirs, ours) + f"  # {note}: README has {theirs.strip()!r}"
                break
        lines.append(line)
    return "\n".join(lines) + "\n"


def every_change_is_used() -> set[str]:
    text = "".join(README.values())
    return {theirs for theirs, _, _ in CHANGES if theirs not in text}


def fake_nli(claim: str, evidence: str) -> float:
    """An entailment check standing in for an NLI model: share of the claim's words seen."""
    words = {w.strip(".,").lower() for w in claim.split()}
    seen = {w.strip(".,").lower() for w in evidence.split()}
    return len(words & seen) / len(words) if words else 0.0


def fake_embedder(texts: list[str]) -> np.ndarray:
    """A text -> vector function: a hashed bag of letters, deterministic."""
    rows = np.zeros((len(texts), 26), dtype=np.float32)
    for i, text in enumerate(texts):
        for ch in text.lower():
            if "a" <= ch <= "z":
                rows[i, ord(ch) - 97] += 1
    return rows + 1e-3


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every snippet run in order in one namespace, as a reader pastes them one by one."""
    folder = tmp_path_factory.mktemp("ggot")
    scripted = Scripted(
        thoughts(
            "Edit config.json to customize settings.",
            "If config fails, see the Configuration section.",
        ),
        answer("Edit config.json to customize settings. See the Configuration section."),
        *[thoughts("Push the build to the server.")] * 2,
        *[answer("Push the build to the server.")] * 10,
    )
    names: dict[str, Any] = {
        "scripted": scripted,
        "my_nli": fake_nli,  # the README uses these two names without defining them
        "my_sentence_embedder": fake_embedder,
        "question": "How do I deploy the build?",
    }
    printed: dict[str, list[str]] = {}
    import contextlib
    import io
    import os

    before = os.getcwd()
    os.chdir(folder)
    try:
        for name, snippet in README.items():
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(rewritten(snippet), f"GGoT README: {name}", "exec"), names)
            printed[name] = out.getvalue().splitlines()
            names[f"graph after {name}"] = names["graph"]
    finally:
        os.chdir(before)
    names["printed"] = printed
    names["folder"] = folder
    return names


def test_the_changes_are_names_and_bodies_only() -> None:
    assert every_change_is_used() == set()
    for snippet in README.values():
        changed = rewritten(snippet).splitlines()
        kept = snippet.splitlines()
        assert len(changed) == len(kept)
        differ = [(a, b) for a, b in zip(kept, changed, strict=True) if a != b]
        assert all("# renamed:" in b or "# filled in:" in b for _, b in differ)
    assert (
        sum(
            len([1 for line in s.splitlines() if "gpbacay_arcane" in line]) for s in README.values()
        )
        == 6
    )


def test_quick_start_prints_what_the_readme_shows(ran: dict[str, Any]) -> None:
    # The README's comments under the loop: title, edge type, rounded score.
    assert ran["printed"]["quick start"] == [
        "Troubleshooting None 1.0",
        "Configuration reference 0.78",
        "Deployment next 0.34",
        "Installation parent-child 0.23",
    ]
    assert ran["context"].startswith("### Deployment [user-guide#3]\nPush the build")


def test_hits_carry_path_hops_and_lexical_score_and_the_outline_lists_ids(ran) -> None:
    graph = ran["graph after quick start"]
    hit = graph.search("config fails")[1]
    assert hit["path"][-1] == hit["nodeId"] == "user-guide#2" and hit["hops"] == 1
    assert 0.0 <= hit["lexicalScore"] <= 1.0
    assert "- [user-guide#3] Deployment" in graph.outline("user-guide")


def test_reasoning_result_reads_as_the_readme_reads_it(ran: dict[str, Any]) -> None:
    result = ran["result"]
    assert isinstance(result["answer"], str) and result["answer"]
    assert all(0.0 <= c["support"] <= 1.0 and "nodes" in c for c in result["claims"])
    supported = {n for c in result["claims"] if c["supported"] for n in c["nodes"]}
    assert {c["nodeId"] for c in result["citations"]} <= supported
    assert all({"id", "parents", "evidence"} <= set(t) for t in result["thoughts"])
    assert 1 <= result["llm_calls"] <= 4 and result["budget_exhausted"] is False
    assert "answer" in result and result.get("claims") == result["claims"]
    assert dict(result)["answer"] == result["answer"]


def test_support_returns_the_readme_triple(ran: dict[str, Any]) -> None:
    graph = ran["graph after quick start"]
    share, nodes, mass = graph.support("Set DATABASE_URL before starting.", ["user-guide#3"])
    # The README's comment shows (1.0, [...], mass) as the shape; that claim's words are not
    # in Deployment's section, so its share here is 0 (a sentence of the section scores 1).
    assert (share, list(nodes)) == (0.0, []) and mass > 0
    share, nodes, mass = graph.support("Push the build to the server.", ["user-guide#3"])
    assert (share, nodes) == (1.0, ["user-guide#3"]) and mass > 0


def test_custom_plan_and_verify_run(ran: dict[str, Any]) -> None:
    assert ran["got"].verify is fake_nli
    custom = ran["got"].reason(
        ran["question"],
        [
            ran["ops"].retrieve(),
            ran["ops"].generate(5),
            ran["ops"].keep_best(3),
            ran["ops"].aggregate(),
            ran["ops"].refine(3),
        ],
    )
    assert "Push the build to the server." in custom["answer"]


def test_an_embedder_gives_every_section_a_vector(ran: dict[str, Any]) -> None:
    graph = ran["graph after embeddings"]
    assert graph.store.vectors.vector_count() == 5  # the root and four sections
    hit = graph.search("deploy", search_mode="embedding")[0]
    assert hit.seed.mode == "embedding"


def test_tools_schemas_and_execute_tools(ran: dict[str, Any]) -> None:
    schemas = ran["schemas"]
    assert all(set(s) == {"name", "description", "parameters"} for s in schemas)
    assert "got_search" in {s["name"] for s in schemas}
    (found,) = ran["execute_tools"](
        [{"name": "got_search", "arguments": {"query": "deploy"}}], ran["tools"]
    )
    assert found[0]["nodeId"] == "user-guide#3" and found[0]["reachedVia"] == "direct match"


def test_saving_writes_the_v2_format_and_loads_it_back(ran: dict[str, Any]) -> None:
    saved = json.loads((ran["folder"] / "graph.json").read_text(encoding="utf-8"))
    assert (saved["format"], saved["version"]) == ("graph-of-thought", 2)
    reloaded = ran["graph"]
    assert reloaded.outline("user-guide") == ran["graph after tools"].outline("user-guide")
