"""One reasoning run: the thought graph so far, the call budget and the graph it reads.

The operations in ``ops`` work through a session: they search the graph, ask the LLM and
add thoughts, and the session checks each thought's sentences against its evidence as
the thought is made. LLM calls are the only work that runs in parallel: a slot of the
call budget is reserved for each call, in order, before any is sent, so the budget is
never exceeded and which calls run does not depend on timing. Replies come back in the
order the calls were asked for.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from typing import NamedTuple, Protocol

from groundgraph.errors import BudgetExhaustedError, LLMResponseError, NotFoundError
from groundgraph.llm import LLM, ReportsCompletions, estimate_tokens
from groundgraph.model import Hit, Node
from groundgraph.reason.ground import Grounding, Verifier
from groundgraph.reason.thought.prompts import EvidenceText
from groundgraph.reason.thought.thoughts import CitedNode, Claim, Thought

#: ``verify(claim, evidence) -> probability that the evidence entails the claim``.
Verify = Verifier

#: How far down the question's own search a section still counts as relevant.
RELEVANCE_DEPTH = 20
#: The relevance of a section the question's search did not reach; one it reached scores
#: ``RELEVANCE_FLOOR + (1 − RELEVANCE_FLOOR) · hit score``.
RELEVANCE_FLOOR = 0.5
MAX_EVIDENCE_IDS = 100


class ThoughtGraph(Protocol):
    """What the reasoner needs from a graph; ``DocumentGraph`` has all of it."""

    def search(self, query: str, max_results: int = 8) -> Sequence[Hit]: ...

    def node(self, node_id: str) -> Node: ...

    def ground(
        self,
        answer: str,
        node_ids: Sequence[str] | None = None,
        query: str | None = None,
        min_support: float = 0.5,
        verify: Verify | None = None,
    ) -> Grounding: ...


class Section(NamedTuple):
    """What a run needs of a node: its document, title and text."""

    doc_id: str
    title: str
    content: str


class CallBudget:
    """At most ``limit`` LLM calls; a slot is reserved before a call is sent."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self.exhausted = False
        self._lock = threading.Lock()

    def reserve(self) -> bool:
        """Take one slot; False (and mark the budget exhausted) when none is left."""
        with self._lock:
            if self.used >= self.limit:
                self.exhausted = True
                return False
            self.used += 1
            return True


def merge_ids(*groups: Iterable[str]) -> tuple[str, ...]:
    """The ids of every group in order, each once, at most ``MAX_EVIDENCE_IDS``."""
    return tuple(dict.fromkeys(i for group in groups for i in group))[:MAX_EVIDENCE_IDS]


class Session:
    """The state of one ``reason()`` call, shared by the operations of its plan."""

    def __init__(
        self,
        graph: ThoughtGraph,
        llm: LLM,
        question: str,
        *,
        budget: CallBudget,
        min_support: float,
        verify: Verify | None,
        max_evidence: int,
        executor: Executor | None,
    ) -> None:
        self.graph = graph
        self.llm = llm
        self.question = question
        self.budget = budget
        self.min_support = min_support
        self.verify = verify
        self.max_evidence = max_evidence
        self.executor = executor
        self.thoughts: list[Thought] = []
        self.frontier: list[Thought] = []
        self.calls = 0  # calls the LLM answered
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.estimated = False
        self._tokens_lock = threading.Lock()
        self._sections: dict[str, Section | None] = {}
        self.relevance = {
            hit.node_id: min(1.0, max(0.0, hit.score))
            for hit in self.search_hits(question, RELEVANCE_DEPTH)
        }

    # ----------------------------------------------------------------- the graph
    def search_hits(self, query: str, max_results: int) -> list[Hit]:
        hits = list(self.graph.search(query, max_results=max_results))
        for hit in hits:
            self._sections.setdefault(hit.node_id, Section(hit.doc_id, hit.title, hit.content))
        return hits

    def search(self, query: str, max_results: int) -> tuple[str, ...]:
        """The ids of the hits for ``query``, best first."""
        return tuple(hit.node_id for hit in self.search_hits(query, max_results))

    def section(self, node_id: str) -> Section | None:
        """A node's document, title and text (None if it is gone), read once per run."""
        if node_id not in self._sections:
            try:
                node = self.graph.node(node_id)
            except NotFoundError:  # removed since it was found: show nothing for it
                self._sections[node_id] = None
            else:
                self._sections[node_id] = Section(node.doc_id, node.title, node.content)
        return self._sections[node_id]

    def evidence_texts(self, evidence: Sequence[str]) -> list[EvidenceText]:
        """The first ``max_evidence`` evidence sections, as the prompts show them."""
        shown = []
        for node_id in evidence:
            section = self.section(node_id)
            if section is not None:
                shown.append(EvidenceText(node_id, section.title, section.content))
            if len(shown) >= self.max_evidence:
                break
        return shown

    def node_relevance(self, node_id: str) -> float:
        score = self.relevance.get(node_id, 0.0)
        return RELEVANCE_FLOOR + (1.0 - RELEVANCE_FLOOR) * score

    def cite(self, node_id: str) -> CitedNode:
        section = self.section(node_id)
        if section is None:
            return CitedNode(node_id, node_id.split("#", 1)[0], "")
        return CitedNode(node_id, section.doc_id, section.title)

    # ----------------------------------------------------------------- thoughts
    def check(self, content: str, evidence: Sequence[str]) -> tuple[Claim, ...]:
        """The sentences of ``content`` with their support from ``evidence`` (no LLM)."""
        if not content.strip():
            return ()
        try:
            grounding = self._ground(content, evidence)
        except NotFoundError:  # a section was removed during the run: check without it
            grounding = self._ground(content, [i for i in evidence if self._exists(i)])
        claims = []
        for check in grounding.claims:
            relevance = max((self.node_relevance(n) for n in check.node_ids), default=0.0)
            claims.append(
                Claim(
                    text=check.text,
                    support=check.share,
                    nodes=tuple(check.node_ids),
                    mass=check.mass,
                    supported=check.supported,
                    relevance=relevance,
                    start=check.start,
                    end=check.end,
                    vetoed=check.vetoed,
                    nli=check.nli,
                    evidence=check.evidence,
                    missing_numbers=check.missing_numbers,
                    grounded=check.grounded,
                )
            )
        return tuple(claims)

    def _ground(self, content: str, evidence: Sequence[str]) -> Grounding:
        return self.graph.ground(
            content, node_ids=list(evidence), min_support=self.min_support, verify=self.verify
        )

    def _exists(self, node_id: str) -> bool:
        try:
            self.graph.node(node_id)
        except NotFoundError:
            self._sections[node_id] = None
            return False
        return True

    def add_thought(
        self,
        content: str,
        operation: str,
        parents: Sequence[Thought],
        evidence: Sequence[str],
        follow_up: str = "",
    ) -> Thought:
        """A new thought, checked against its evidence and recorded in the graph."""
        evidence = merge_ids(evidence)
        thought = Thought(
            thought_id=f"t{len(self.thoughts) + 1}",
            content=content,
            operation=operation,
            parents=tuple(p.thought_id for p in parents),
            evidence=evidence,
            claims=self.check(content, evidence),
            follow_up=follow_up,
        )
        self.thoughts.append(thought)
        return thought

    def root(self) -> Thought:
        """An empty thought to start from when a plan does not begin with ``retrieve``."""
        return self.add_thought("", "retrieve", (), ())

    # ----------------------------------------------------------------- the LLM
    def ask_many(self, prompts: Sequence[str]) -> list[str | None]:
        """The replies to ``prompts`` in order; None where no call slot was left."""
        granted = [self.budget.reserve() for _ in prompts]
        jobs = [prompt for prompt, ok in zip(prompts, granted, strict=True) if ok]
        if self.executor is None or len(jobs) < 2:
            answered = [self._ask(prompt) for prompt in jobs]
        else:
            futures = [self.executor.submit(self._ask, prompt) for prompt in jobs]
            answered = [future.result() for future in futures]
        replies = iter(answered)
        return [next(replies) if ok else None for ok in granted]

    def ask(self, prompt: str) -> str | None:
        return self.ask_many([prompt])[0]

    def _ask(self, prompt: str) -> str | None:
        try:
            if isinstance(self.llm, ReportsCompletions):
                completion = self.llm.complete(prompt)
                text: object = completion.text
                used = (completion.prompt_tokens, completion.completion_tokens)
                estimated = completion.estimated
            else:
                text = self.llm(prompt)
                used = (
                    (estimate_tokens(prompt), estimate_tokens(text))
                    if isinstance(text, str)
                    else (0, 0)
                )
                estimated = True
        except BudgetExhaustedError:  # the client's own budget: stop as with ours
            self.budget.exhausted = True
            return None
        if not isinstance(text, str):
            raise LLMResponseError(
                f"the llm returned {type(text).__name__}, not str: "
                "an LLM must be a callable prompt -> text"
            )
        with self._tokens_lock:
            self.calls += 1
            self.prompt_tokens += used[0]
            self.completion_tokens += used[1]
            self.estimated = self.estimated or estimated
        return text
