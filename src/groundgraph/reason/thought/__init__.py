"""Grounded Graph-of-Thoughts reasoning: an LLM answers, the graph checks every sentence.

from groundgraph.reason.thought import GroundedGraphOfThought, ops
got = GroundedGraphOfThought(graph, llm=my_llm)          # max_llm_calls=16
result = got.reason("My config fails. What should I check?")
result.answer, result.claims, result.unsupported, result.citations
got.reason(question, [ops.retrieve(), ops.generate(5), ops.keep_best(3),
                      ops.aggregate(), ops.refine(3)])
"""

from __future__ import annotations

from groundgraph.reason.thought.engine import GroundedGraphOfThought
from groundgraph.reason.thought.ops import (
    Aggregate,
    Generate,
    KeepBest,
    Operation,
    Refine,
    Retrieve,
    default_plan,
    ops,
)
from groundgraph.reason.thought.session import ThoughtGraph, Verify
from groundgraph.reason.thought.thoughts import (
    UNSUPPORTED_PENALTY,
    CitedNode,
    Claim,
    ReasoningResult,
    Thought,
    TokenCount,
)

__all__ = [
    "UNSUPPORTED_PENALTY",
    "Aggregate",
    "CitedNode",
    "Claim",
    "Generate",
    "GroundedGraphOfThought",
    "KeepBest",
    "Operation",
    "ReasoningResult",
    "Refine",
    "Retrieve",
    "Thought",
    "ThoughtGraph",
    "TokenCount",
    "Verify",
    "default_plan",
    "ops",
]
