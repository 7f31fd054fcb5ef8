"""The operations a reasoning plan is made of: retrieve, generate, keep_best, aggregate, refine.

Each operation takes the session's frontier (the thoughts the plan is working on) and
leaves a new one. Only ``generate``, ``aggregate`` and ``refine`` ask the LLM; every
other decision (what to keep, whether a merge or a rewrite is better, where to look for
missing evidence) comes from checking sentences against the graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.reason.thought.prompts import (
    aggregate_prompt,
    generate_prompt,
    parse_answer,
    parse_candidates,
    rewrite_prompt,
)
from groundgraph.reason.thought.session import Session, merge_ids
from groundgraph.reason.thought.thoughts import Thought

MAX_BRANCHES = 20
MAX_ROUNDS = 10
MAX_PER_CLAIM = 20
MAX_QUERY_CHARS = 2_000
#: Hits searched for a thought's "missing" follow-up, put first in its evidence.
FOLLOW_UP_HITS = 3


class Operation(Protocol):
    """One step of a plan."""

    def run(self, session: Session) -> None: ...


def _count(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _best(thoughts: Sequence[Thought]) -> Thought:
    """The thought with the highest net; the earliest wins a tie."""
    return max(thoughts, key=lambda t: t.net)


def _with_follow_up(session: Session, evidence: Sequence[str], missing: str) -> tuple[str, ...]:
    if not missing:
        return tuple(evidence)
    return merge_ids(session.search(missing[:MAX_QUERY_CHARS], FOLLOW_UP_HITS), evidence)


@dataclass(frozen=True)
class Retrieve:
    """Search the graph for the question (or ``query``) and add the hits as evidence.

    On an empty frontier it makes the root thought; thoughts that already have an
    answer are re-checked against the larger evidence (operation ``ground``).
    """

    query: str | None = None

    def __post_init__(self) -> None:
        if self.query is not None:
            if not isinstance(self.query, str) or not self.query.strip():
                raise InputError("retrieve(query) needs non-empty text, or None for the question")
            if len(self.query) > MAX_QUERY_CHARS:
                raise InputTooLargeError("the retrieve query", len(self.query), MAX_QUERY_CHARS)

    def run(self, session: Session) -> None:
        found = session.search(self.query or session.question, session.max_evidence)
        if not session.frontier:
            session.frontier = [session.add_thought("", "retrieve", (), found)]
            return
        frontier = []
        for thought in session.frontier:
            evidence = merge_ids(found, thought.evidence)
            if set(evidence) <= set(thought.evidence):
                frontier.append(thought)
            elif not thought.content:
                frontier.append(session.add_thought("", "retrieve", [thought], evidence))
            else:
                frontier.append(
                    session.add_thought(
                        thought.content, "ground", [thought], evidence, thought.follow_up
                    )
                )
        session.frontier = frontier


@dataclass(frozen=True)
class Generate:
    """Branch each thought into up to ``k`` candidate answers, one LLM call per thought.

    A candidate's ``missing`` text is searched and the hits put first in its evidence.
    A thought whose call did not fit the budget, or got no answer, stays in the frontier.
    """

    k: int = 3

    def __post_init__(self) -> None:
        _count("generate(k)", self.k, 1, MAX_BRANCHES)

    def run(self, session: Session) -> None:
        parents = session.frontier or [session.root()]
        prompts = [
            generate_prompt(session.question, session.evidence_texts(t.evidence), self.k, t.content)
            for t in parents
        ]
        frontier: list[Thought] = []
        for parent, reply in zip(parents, session.ask_many(prompts), strict=True):
            candidates = [] if reply is None else parse_candidates(reply, self.k)
            if not candidates:  # no call left, or an empty reply: the parent stays
                frontier.append(parent)
            for candidate in candidates:
                evidence = _with_follow_up(session, parent.evidence, candidate.missing)
                frontier.append(
                    session.add_thought(
                        candidate.answer, "generate", [parent], evidence, candidate.missing
                    )
                )
        session.frontier = frontier


@dataclass(frozen=True)
class KeepBest:
    """Keep the ``n`` thoughts with the highest net that are above zero, else the best one."""

    n: int = 1

    def __post_init__(self) -> None:
        _count("keep_best(n)", self.n, 1, 1_000)

    def run(self, session: Session) -> None:
        order = {t.thought_id: i for i, t in enumerate(session.frontier)}
        ranked = sorted(session.frontier, key=lambda t: (-t.net, order[t.thought_id]))
        kept = [t for t in ranked if t.net > 0][: self.n]
        session.frontier = kept or ranked[:1]


@dataclass(frozen=True)
class Aggregate:
    """Merge the frontier's answers into one (one LLM call, only when there are two or more).

    The merge is kept only if its net is at least that of the best thought merged;
    otherwise the best thought goes on alone.
    """

    def run(self, session: Session) -> None:
        parents = [t for t in session.frontier if t.content]
        if len(parents) < 2:
            return
        evidence = merge_ids(*(t.evidence for t in parents))
        prompt = aggregate_prompt(
            session.question, session.evidence_texts(evidence), [t.content for t in parents]
        )
        reply = session.ask(prompt)
        if reply is None:
            return
        best = _best(parents)
        candidate = parse_answer(reply)
        if candidate is None:
            session.frontier = [best]
            return
        merged = session.add_thought(
            candidate.answer,
            "aggregate",
            parents,
            _with_follow_up(session, evidence, candidate.missing),
            candidate.missing,
        )
        session.frontier = [merged if merged.net >= best.net else best]


@dataclass(frozen=True)
class Refine:
    """Make unsupported sentences supported: search the graph first, then rewrite.

    Each round, for each thought: search the graph with every unsupported sentence
    (``per_claim`` hits each) and re-check (operation ``ground``, no LLM); if sentences
    are still unsupported, ask the LLM to rewrite them. A rewrite is kept if it is at
    least as good (net) and the loop goes on only while rewrites improve it. Rewrites of
    different thoughts in the same round are independent calls and may run in parallel.
    """

    max_rounds: int = 2
    per_claim: int = 3

    def __post_init__(self) -> None:
        _count("refine(max_rounds)", self.max_rounds, 0, MAX_ROUNDS)
        _count("refine(per_claim)", self.per_claim, 1, MAX_PER_CLAIM)

    def run(self, session: Session) -> None:
        current = list(session.frontier)
        active = [bool(t.content) for t in current]
        for _ in range(self.max_rounds):
            waiting = []
            for i, thought in enumerate(current):
                if not active[i]:
                    continue
                current[i] = thought = self._search_step(session, thought)
                if thought.unsupported:
                    waiting.append(i)
                else:
                    active[i] = False
            if not waiting:
                break
            prompts = [
                rewrite_prompt(
                    session.question,
                    session.evidence_texts(current[i].evidence),
                    current[i].content,
                    current[i].unsupported,
                )
                for i in waiting
            ]
            for i, reply in zip(waiting, session.ask_many(prompts), strict=True):
                candidate = None if reply is None else parse_answer(reply)
                if candidate is None:
                    active[i] = False
                    continue
                before = current[i]
                evidence = _with_follow_up(session, before.evidence, candidate.missing)
                rewrite = session.add_thought(
                    candidate.answer, "refine", [before], evidence, candidate.missing
                )
                if rewrite.net >= before.net:
                    current[i] = rewrite
                active[i] = rewrite.net > before.net
        session.frontier = current

    def _search_step(self, session: Session, thought: Thought) -> Thought:
        """The thought re-checked with what a search for each unsupported sentence finds."""
        if not thought.unsupported:
            return thought
        found = [
            session.search(sentence[:MAX_QUERY_CHARS], self.per_claim)
            for sentence in thought.unsupported
        ]
        evidence = merge_ids(*found, thought.evidence)
        if set(evidence) <= set(thought.evidence):
            return thought
        grounded = session.add_thought(
            thought.content, "ground", [thought], evidence, thought.follow_up
        )
        return grounded if grounded.net >= thought.net else thought


class ops:  # noqa: N801 - a namespace read as ``ops.generate(3)``, as in the seed's API
    """Constructors for plan steps: ``[ops.retrieve(), ops.generate(3), ops.refine()]``."""

    retrieve = Retrieve
    generate = Generate
    keep_best = KeepBest
    aggregate = Aggregate
    refine = Refine


def default_plan() -> list[Operation]:
    """retrieve, three candidates, keep the two best, merge them, then fix what is unsupported.

    It makes 1 to 4 LLM calls: one to generate, one to merge if two candidates are
    grounded, and up to two rewrites if sentences stay unsupported after searching.
    """
    return [Retrieve(), Generate(3), KeepBest(2), Aggregate(), Refine(2)]
