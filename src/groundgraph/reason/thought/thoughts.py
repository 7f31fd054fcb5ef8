"""The records of a reasoning run: claims, thoughts, citations, tokens and the result.

A thought is a candidate answer with the evidence it rests on; each of its sentences is a
claim, checked against that evidence when the thought is made. Ranking uses

    net = relevant − 2 · (mass − grounded)

``mass`` is the summed rare-word (idf) weight of the claims; ``grounded`` the part of it
the evidence covers, ``Σ support · mass`` (a claim vetoed by ``verify``, or one writing a
number its sections lack, covers nothing); ``relevant`` the same sum with each claim also
scaled by its ``relevance`` in [0, 1], how relevant its supporting sections are to the
question. Unsupported weight costs twice what supported weight earns, so one invented
sentence outweighs a true one, and an answer from off-topic sections earns less.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from groundgraph.model import EvidenceSpan
from groundgraph.model.record import Record

#: Weight of unsupported mass against supported mass in ``net`` (the seed's value).
UNSUPPORTED_PENALTY = 2.0


@dataclass(frozen=True, slots=True)
class Claim(Record):
    """One sentence of a thought and how well the evidence supports it.

    ``support`` is the share of the sentence's rare-word weight the evidence covers,
    ``nodes`` the sections that cover it, ``relevance`` how relevant those sections are
    to the question, ``vetoed`` whether ``verify`` rejected the sentence although the
    words matched, and ``missing_numbers`` the numbers it writes that its sections lack.
    ``grounded`` is the weight it adds to its thought: ``support · mass``, or 0 when the
    check rejected it outright (vetoed, or a number the sections do not hold).
    """

    text: str
    support: float
    nodes: tuple[str, ...]
    mass: float
    supported: bool
    relevance: float = 1.0
    start: int = 0
    end: int = 0
    vetoed: bool = False
    nli: float | None = None
    evidence: tuple[EvidenceSpan, ...] = ()
    missing_numbers: tuple[str, ...] = ()
    grounded: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "support": self.support,
            "nodes": list(self.nodes),
            "mass": self.mass,
            "supported": self.supported,
            "relevance": self.relevance,
            "start": self.start,
            "end": self.end,
            "vetoed": self.vetoed,
            "nli": self.nli,
            "evidence": [span.to_dict() for span in self.evidence],
            "missingNumbers": list(self.missing_numbers),
            "grounded": self.grounded,
        }


@dataclass(frozen=True, slots=True)
class Thought(Record):
    """A node of the thought graph: an answer, where it came from and what backs it.

    ``operation`` is ``retrieve``, ``generate``, ``aggregate``, ``refine`` or ``ground``
    (re-checked against more evidence, no LLM call); ``follow_up`` is what the model said
    was missing, searched for and put first in ``evidence``.
    """

    thought_id: str
    content: str
    operation: str
    parents: tuple[str, ...]
    evidence: tuple[str, ...]
    claims: tuple[Claim, ...]
    follow_up: str = ""

    @property
    def mass(self) -> float:
        return sum((c.mass for c in self.claims), 0.0)

    @property
    def grounded(self) -> float:
        return sum((c.grounded for c in self.claims), 0.0)

    @property
    def relevant(self) -> float:
        return sum((c.grounded * c.relevance for c in self.claims), 0.0)

    @property
    def score(self) -> float:
        """The grounded share of the thought's weight (0.0 for a thought with no claims)."""
        mass = self.mass
        return self.grounded / mass if mass > 0 else 0.0

    @property
    def net(self) -> float:
        """The ranking key: relevance-weighted support minus twice the unsupported weight."""
        return self.relevant - UNSUPPORTED_PENALTY * (self.mass - self.grounded)

    @property
    def unsupported(self) -> tuple[str, ...]:
        return tuple(c.text for c in self.claims if not c.supported)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.thought_id,
            "content": self.content,
            "operation": self.operation,
            "parents": list(self.parents),
            "evidence": list(self.evidence),
            "claims": [c.to_dict() for c in self.claims],
            "score": self.score,
            "grounded": self.grounded,
            "mass": self.mass,
            "net": self.net,
        }
        if self.follow_up:
            data["followUp"] = self.follow_up
        return data


@dataclass(frozen=True, slots=True)
class CitedNode(Record):
    """A section that backs at least one supported claim of the answer."""

    node_id: str
    doc_id: str
    title: str


@dataclass(frozen=True, slots=True)
class TokenCount(Record):
    """Tokens a run used; ``estimated`` when the client did not report usage.

    Estimates count one token per four characters of prompt and reply, rounded up.
    """

    json_extra: ClassVar = ("total_tokens",)
    json_order: ClassVar = ("promptTokens", "completionTokens", "totalTokens", "estimated")

    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = True

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True, slots=True)
class ReasoningResult(Record):
    """What ``GroundedGraphOfThought.reason`` returns.

    ``answer`` is the content of the ``best`` thought; ``claims`` its sentences with their
    support; ``unsupported`` the sentences the documents do not back; ``citations`` only
    the sections behind supported sentences. Fields read as attributes or by name
    (``result["llm_calls"]``); ``to_dict()`` is the JSON form with camelCase keys.
    """

    question: str
    answer: str
    best: str | None
    claims: tuple[Claim, ...]
    unsupported: tuple[str, ...]
    citations: tuple[CitedNode, ...]
    thoughts: tuple[Thought, ...]
    llm_calls: int
    budget_exhausted: bool
    tokens: TokenCount

    # Read as a Mapping of its JSON form (Record), and by field name as the seed's
    # result was: ``result["llm_calls"]``.
    def __getitem__(self, key: str) -> Any:
        data = self.to_dict()
        if key in data:
            return data[key]
        if key in _RESULT_FIELDS:
            return getattr(self, key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return key in _RESULT_FIELDS or key in self.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.answer,
            "best": self.best,
            "claims": [c.to_dict() for c in self.claims],
            "unsupported": list(self.unsupported),
            "citations": [c.to_dict() for c in self.citations],
            "thoughts": [t.to_dict() for t in self.thoughts],
            "llmCalls": self.llm_calls,
            "budgetExhausted": self.budget_exhausted,
            "tokens": self.tokens.to_dict(),
        }


_RESULT_FIELDS = frozenset(f.name for f in fields(ReasoningResult))
