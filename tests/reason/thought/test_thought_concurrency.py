"""Independent LLM calls run in parallel, within the same hard budget and to the same result."""

from __future__ import annotations

import hashlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph
from groundgraph.reason.thought import GroundedGraphOfThought, ops
from thought_fakes import Keyed, answer, make_graph, thoughts

QUESTION = "My config fails. What should I check?"
GROUNDED = [
    "Edit config.json to customize settings.",
    "If config fails, see the Configuration section.",
    "Push the build to the server.",
]
INVENTED = ["Quantum zebras hum at night.", "Purple gravity sings loudly.", "Pluto is warm."]
SHORTER = ["Zorbs glow.", "Quarks nap."]  # rewrites that improve, yet leave work to do
# Two generate steps branch the thoughts; refine then rewrites several thoughts per round.
PLAN = [ops.retrieve(), ops.generate(3), ops.generate(2), ops.refine(2)]


def _pick(prompt: str, options: list[str], salt: str) -> str:
    digest = hashlib.sha256((salt + prompt).encode()).digest()
    return options[digest[0] % len(options)]


def reply(prompt: str) -> str:
    """A deterministic model: the reply is a function of the prompt alone."""
    if "Rewrite the answer" in prompt:
        listed = set(re.findall(r"^- (.*)$", prompt, flags=re.MULTILINE))
        kept = [s for s in re.split(r"(?<=\.) ", _answer_of(prompt)) if s not in listed]
        first_round = not listed & set(SHORTER)
        return answer(" ".join(kept[:1] + [_pick(prompt, SHORTER, "r")][:first_round]))
    k = 3 if "3 different" in prompt else 2
    return thoughts(
        *(
            f"{_pick(prompt, GROUNDED, f'g{i}')} {_pick(prompt, INVENTED, f'i{i}')}"
            for i in range(k)
        )
    )


def _answer_of(prompt: str) -> str:
    return prompt.split("Answer:\n", 1)[1].split("\n\n", 1)[0]


@pytest.fixture(scope="module")
def graph() -> DocumentGraph:
    return make_graph()


def run(graph: DocumentGraph, budget: int, workers: int, delay: float = 0.0):
    llm = Keyed(reply, delay=delay)
    got = GroundedGraphOfThought(graph, llm, max_llm_calls=budget, max_workers=workers)
    return got.reason(QUESTION, PLAN), llm


def test_calls_overlap_and_the_result_matches_the_sequential_one(graph):
    sequential, one = run(graph, 32, 1)
    parallel, many = run(graph, 32, 4, delay=0.05)
    assert one.peak == 1 and many.peak > 1
    assert parallel.to_dict() == sequential.to_dict()
    assert parallel.llm_calls == one.calls == many.calls > 10
    assert not parallel.budget_exhausted
    assert any(t.operation == "refine" for t in parallel.thoughts)


@settings(max_examples=25)
@given(st.integers(0, 24), st.integers(2, 6))
def test_the_budget_holds_under_concurrency(graph, budget, workers):
    parallel, llm = run(graph, budget, workers)
    assert llm.calls == parallel.llm_calls <= budget
    sequential, _ = run(graph, budget, 1)
    assert parallel.to_dict() == sequential.to_dict()
    full, _ = run(graph, 32, 1)
    assert parallel.budget_exhausted == (budget < full.llm_calls)
