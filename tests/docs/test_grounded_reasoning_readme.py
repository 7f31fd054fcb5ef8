"""Grounded Reasoning's README, its Python lines as written, against groundgraph.

The only change is the import: ``grounded_reasoning`` is ``groundgraph.reason.relations``
(marked on each snippet). Each snippet also runs against Grounded Reasoning's own package
(``grounded-reasoning==0.1.8``, in the dev extra), and the two give the same verdicts.
One difference, asserted below: our ``Verdict.proof`` is a tuple where the README's repr
shows a list (``as_dict()`` gives a list, as theirs does).
"""

# ruff: noqa: E501  (the README's lines are quoted as written)
from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

# The README's self-grounding snippet ("SGDC"), as written but for the import.
SELF_GROUNDED = """
from grounded_reasoning import GroundedReasoner

# the LLM's OWN atomic facts (no external KB) -- taken at face value
gr = GroundedReasoner()
gr.add_facts([("sparrow", "is_a", "bird"), ("bird", "is_a", "animal")])

# the LLM's OWN multi-hop conclusion, self-verified against ITS OWN facts above
yes = gr.verify("sparrow", "animal", via="is_a")   # grounded=True: self-consistent
no = gr.verify("sparrow", "plant",  via="is_a")   # grounded=False: self-contradiction, blocked
"""

# The agent integration snippet.
AGENT = """
from grounded_reasoning import GroundedReasoner
gr = GroundedReasoner()
gr.add_facts([("alice","parent","bob"),("bob","parent","carol")])
yes = gr.verify("alice","carol", via="parent")   # Verdict(grounded=True, proof=['alice','bob','carol'], confidence=0.36, relation='parent')
no = gr.verify("alice","zed",   via="parent")   # Verdict(grounded=False, proof=None, confidence=0.0, relation='parent')
"""

# The quick start's one-liner.
ONE_LINER = (
    "from grounded_reasoning import GroundedReasoner as G; r=G(); "
    "r.add_facts([('a','p','b'),('b','p','c')]); print(r.verify('a','c',via='p'))"
)

OURS = "groundgraph.reason.relations"


def run(snippet: str, package: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {}
    exec(snippet.replace("grounded_reasoning", package), namespace)  # the README's own lines
    return {name: namespace[name].as_dict() for name in ("yes", "no")}


@pytest.mark.parametrize("snippet", [SELF_GROUNDED, AGENT], ids=["self-grounded", "agent"])
def test_the_readme_snippets_give_the_packages_verdicts(snippet: str) -> None:
    ours, theirs = run(snippet, OURS), run(snippet, "grounded_reasoning")
    for name, verdict in theirs.items():  # ours adds confidenceNormalized and the hops
        assert {key: ours[name][key] for key in verdict} == verdict
    assert ours["yes"]["grounded"] is True and ours["no"]["grounded"] is False
    assert ours["no"]["proof"] is None and ours["no"]["confidence"] == 0.0


def test_the_agent_snippet_prints_what_its_comments_say() -> None:
    namespace: dict[str, Any] = {}
    exec(AGENT.replace("grounded_reasoning", OURS), namespace)
    yes, no = namespace["yes"], namespace["no"]
    assert (yes.grounded, yes.proof, yes.confidence, yes.relation) == (
        True,
        ("alice", "bob", "carol"),  # a tuple here; the README's repr shows a list
        pytest.approx(0.36),
        "parent",
    )
    assert (no.grounded, no.proof, no.confidence, no.relation) == (False, None, 0.0, "parent")


def test_the_quick_start_one_liner_runs_as_a_process() -> None:
    line = ONE_LINER.replace("grounded_reasoning", OURS)
    done = subprocess.run(
        [sys.executable, "-c", line], capture_output=True, text=True, timeout=120, check=True
    )
    printed = done.stdout.strip()
    assert printed.startswith("Verdict(grounded=True, proof=('a', 'b', 'c')")
    assert "confidence=0.36" in printed and "relation='p'" in printed


def test_the_integration_list_names_real_calls() -> None:
    # "GroundedReasoner.verify / filter_claims / contradictions", "TOOL_SPEC / openai_tool_spec()
    # + run_tool", "LLMClient(provider=...)": the same names here
    from groundgraph.llm import LLMClient
    from groundgraph.reason.relations import (
        TOOL_SPEC,
        GroundedReasoner,
        openai_tool_spec,
        run_tool,
    )

    gr = GroundedReasoner()
    gr.add_facts([("a", "p", "b"), ("b", "p", "a")])
    assert gr.contradictions("p") and gr.filter_claims([("a", "b", "p")])[0][1].grounded
    call = {"facts": [["a", "p", "b"]], "subject": "a", "relation": "p", "object": "b"}
    assert run_tool({"name": TOOL_SPEC["name"], "input": call})["grounded"] is True
    assert openai_tool_spec()["function"]["name"] == "verify_relation"
    assert json.loads(json.dumps(TOOL_SPEC)) == TOOL_SPEC
    assert callable(LLMClient)
