"""GroundedGraphOfThought: Graph-of-Thoughts reasoning whose every sentence is checked.

Besta et al. (2023) build answers from a graph of LLM "thoughts" that are generated,
scored, merged and refined. Here the LLM never scores its own work: each thought's
sentences are checked against the document graph when the thought is made (no model),
and that one check ranks candidates, decides whether a merge or rewrite is kept, turns
unsupported sentences into graph searches and picks the citations.

Independent LLM calls (the branches of ``generate``, the rewrites of ``refine``) run in
a thread pool of ``max_workers``; the ``max_llm_calls`` budget holds all the same, and
with a deterministic LLM the result does not depend on ``max_workers``.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.llm import LLM
from groundgraph.reason.thought.ops import Operation, default_plan
from groundgraph.reason.thought.session import CallBudget, Session, ThoughtGraph, Verify
from groundgraph.reason.thought.thoughts import (
    CitedNode,
    ReasoningResult,
    Thought,
    TokenCount,
)

MAX_QUESTION_CHARS = 4_000
MAX_PLAN_STEPS = 64
MAX_LLM_CALLS = 10_000
MAX_WORKERS = 64


def _whole(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


class GroundedGraphOfThought:
    """Answer questions from a document graph with an LLM, checking every sentence.

    ``llm`` is any callable ``prompt -> text``; ``max_llm_calls`` caps the calls of one
    ``reason()``; a sentence is supported when at least ``min_support`` of its rare-word
    weight is covered by its evidence; ``verify(claim, evidence) -> p`` (an NLI model,
    for example) can veto a sentence the words support but the meaning contradicts;
    ``max_evidence`` sections are shown to the LLM per prompt.
    """

    def __init__(
        self,
        graph: ThoughtGraph,
        llm: LLM,
        max_llm_calls: int = 16,
        min_support: float = 0.5,
        verify: Verify | None = None,
        max_workers: int = 4,
        max_evidence: int = 10,
    ) -> None:
        if not callable(llm):
            raise InputError(f"llm must be a callable prompt -> text, not {type(llm).__name__}")
        if verify is not None and not callable(verify):
            raise InputError("verify must be a callable (claim, evidence) -> probability")
        if isinstance(min_support, bool) or not isinstance(min_support, (int, float)):
            raise InputError(f"min_support must be a number in [0, 1], not {min_support!r}")
        if not 0.0 <= min_support <= 1.0:
            raise InputError(f"min_support must be in [0, 1], not {min_support!r}")
        self.graph = graph
        self.llm = llm
        self.max_llm_calls = _whole("max_llm_calls", max_llm_calls, 0, MAX_LLM_CALLS)
        self.min_support = float(min_support)
        self.verify = verify
        self.max_workers = _whole("max_workers", max_workers, 1, MAX_WORKERS)
        self.max_evidence = _whole("max_evidence", max_evidence, 1, 50)

    def reason(self, question: str, plan: Sequence[Operation] | None = None) -> ReasoningResult:
        """Run ``plan`` (the default plan when None) on ``question``; the best answer found.

        When the call budget runs out the remaining LLM steps are skipped,
        ``budget_exhausted`` is True and the best answer so far is returned.
        """
        question = self._check_question(question)
        steps = default_plan() if plan is None else self._check_plan(plan)
        budget = CallBudget(self.max_llm_calls)
        pool = ThreadPoolExecutor(self.max_workers) if self.max_workers > 1 else None
        try:
            session = Session(
                self.graph,
                self.llm,
                question,
                budget=budget,
                min_support=self.min_support,
                verify=self.verify,
                max_evidence=self.max_evidence,
                executor=pool,
            )
            for step in steps:
                step.run(session)
        finally:
            if pool is not None:
                pool.shutdown(wait=True)
        return self._result(session)

    @staticmethod
    def _check_question(question: object) -> str:
        if not isinstance(question, str):
            raise InputError(f"the question must be text, not {type(question).__name__}")
        if len(question) > MAX_QUESTION_CHARS:
            raise InputTooLargeError(
                "the question", len(question), MAX_QUESTION_CHARS, "ask a shorter question"
            )
        if not question.strip():
            raise InputError("the question is empty: ask something")
        return question.strip()

    @staticmethod
    def _check_plan(plan: object) -> list[Operation]:
        if isinstance(plan, (str, bytes)) or not isinstance(plan, Sequence):
            raise InputError("a plan is a list of steps such as [ops.retrieve(), ops.generate(3)]")
        if len(plan) > MAX_PLAN_STEPS:
            raise InputTooLargeError("the plan", len(plan), MAX_PLAN_STEPS, "use fewer steps")
        steps: list[Operation] = []
        for i, step in enumerate(plan):
            if not callable(getattr(step, "run", None)):
                raise InputError(
                    f"plan step {i} is {type(step).__name__}, not an operation: "
                    "build steps with ops.retrieve(), ops.generate(k), ops.keep_best(n), "
                    "ops.aggregate() or ops.refine(max_rounds)"
                )
            steps.append(step)
        return steps

    @staticmethod
    def _result(session: Session) -> ReasoningResult:
        best = _pick_best(session.frontier) or _pick_best(session.thoughts)
        claims = best.claims if best is not None else ()
        cited: dict[str, CitedNode] = {}
        for claim in claims:
            if claim.supported:
                for node_id in claim.nodes:
                    if node_id not in cited:
                        cited[node_id] = session.cite(node_id)
        return ReasoningResult(
            question=session.question,
            answer=best.content if best is not None else "",
            best=best.thought_id if best is not None else None,
            claims=claims,
            unsupported=tuple(c.text for c in claims if not c.supported),
            citations=tuple(cited.values()),
            thoughts=tuple(session.thoughts),
            llm_calls=session.calls,
            budget_exhausted=session.budget.exhausted,
            tokens=TokenCount(session.prompt_tokens, session.completion_tokens, session.estimated),
        )


def _pick_best(thoughts: Sequence[Thought]) -> Thought | None:
    """The answer thought with the highest net (the earliest on a tie), if any."""
    answers = [t for t in thoughts if t.operation != "retrieve"]
    if not answers:
        return None
    return max(answers, key=lambda t: t.net)
