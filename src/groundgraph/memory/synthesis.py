"""Answers in words from recalled facts: a synthesizer slot and two synthesizers.

A synthesizer is any callable ``(question, facts) -> str``. ``TemplateSynthesizer`` needs
no model: it writes the facts themselves, causes before their effects, one sentence per
fact, so every sentence is a fact's own text. ``PromptSynthesizer`` asks any
``llm(prompt) -> str`` (a plain function, an ``async def``, or an ``OpenAICompatibleLLM``
over a local llama.cpp server) to answer from the numbered facts only; the graph then checks
each sentence of the reply against the facts (``DocumentGraph.answer``), because a
model's words are a claim, not a fact.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol, TypeVar

from groundgraph.errors import InputError
from groundgraph.ingest.entities.normalise import normalise_entity

MAX_REPLY_CHARS = 20_000
T = TypeVar("T")
_END = ".!?。！？"


@dataclass(frozen=True)
class FactContext:
    """What a synthesizer is told about one recalled fact."""

    fact_id: str
    text: str
    scopes: tuple[str, ...] = ()
    cross_scope: bool = False
    causes: tuple[tuple[str, str], ...] = ()
    retired: bool = False
    #: The entities (or causal spans) that link the fact to the fact it was reached from.
    bridges: tuple[str, ...] = ()


class Synthesizer(Protocol):
    def __call__(self, question: str, facts: Sequence[FactContext]) -> str: ...


def causal_order(facts: Sequence[FactContext]) -> list[FactContext]:
    """The facts with each one whose cause is another's effect moved after that one;
    otherwise in the order given (best first)."""
    effects = {i: {normalise_entity(e) for _, e in f.causes} for i, f in enumerate(facts)}
    causes = {i: {normalise_entity(c) for c, _ in f.causes} for i, f in enumerate(facts)}
    before = {
        j: [i for i in range(len(facts)) if i != j and effects[i] & causes[j]]
        for j in range(len(facts))
    }
    placed: list[int] = []
    done: set[int] = set()

    def place(j: int, path: tuple[int, ...]) -> None:
        if j in done:
            return
        for i in before[j]:
            if i not in path:
                place(i, (*path, j))
        if j not in done:
            done.add(j)
            placed.append(j)

    for j in range(len(facts)):
        place(j, ())
    return [facts[j] for j in placed]


class TemplateSynthesizer:
    """The facts as the answer, causes first, one sentence each; no model, no new words."""

    def __call__(self, question: str, facts: Sequence[FactContext]) -> str:
        sentences = []
        for fact in causal_order(facts):
            text = " ".join(fact.text.split())
            sentences.append(text if text.endswith(tuple(_END)) else text + ".")
        return " ".join(sentences)


def run_awaitable(value: Awaitable[T]) -> T:
    """The result of an awaitable, from synchronous code.

    With no event loop running in this thread it runs on a fresh one; inside a running
    loop (a sync call made from async code) it runs on a fresh loop in a worker thread,
    because the running loop cannot be blocked on from within.
    """

    async def wait() -> T:
        return await value

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(wait())
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, wait()).result()


class PromptSynthesizer:
    """Asks a language model to answer from the numbered facts, and only from them.

    ``llm`` (ReasonGraph's ``generate``) takes the prompt and returns the reply, or an
    awaitable of it (``async def generate(prompt)``); ``await synthesizer.agenerate(…)``
    is the same from async code.
    """

    def __init__(
        self, llm: Callable[[str], str] | Callable[[str], Awaitable[str]], max_facts: int = 20
    ) -> None:
        if not callable(llm):
            raise InputError("PromptSynthesizer needs a callable llm(prompt) -> str")
        if isinstance(max_facts, bool) or not isinstance(max_facts, int) or max_facts < 1:
            raise InputError("max_facts must be a whole number >= 1")
        self.llm = llm
        self.max_facts = max_facts

    def prompt(self, question: str, facts: Sequence[FactContext]) -> str:
        lines = [
            "Answer the question using only the numbered facts below. Write short, plain "
            "sentences. If the facts do not answer it, say that the memory does not know.",
            "",
            "Facts:",
        ]
        for number, fact in enumerate(facts[: self.max_facts], start=1):
            note = " (retired)" if fact.retired else ""
            if fact.bridges:
                note += f" (linked through {', '.join(fact.bridges)})"
            lines.append(f"[{number}] {' '.join(fact.text.split())}{note}")
        links = [
            f"- {cause} -> {effect} [{number}]"
            for number, fact in enumerate(facts[: self.max_facts], start=1)
            for cause, effect in fact.causes
        ]
        if links:
            lines += ["", "Cause -> effect pairs stated in the facts:", *links]
        lines += ["", f"Question: {' '.join(question.split())}", "Answer:"]
        return "\n".join(lines)

    def __call__(self, question: str, facts: Sequence[FactContext]) -> str:
        reply: object = self.llm(self.prompt(question, facts))
        if inspect.isawaitable(reply):
            reply = run_awaitable(reply)
        return _reply_text(reply)

    async def agenerate(self, question: str, facts: Sequence[FactContext]) -> str:
        """The reply, awaited: for async code with an async ``llm``."""
        reply: object = self.llm(self.prompt(question, facts))
        if inspect.isawaitable(reply):
            reply = await reply
        return _reply_text(reply)


def _reply_text(reply: object) -> str:
    if not isinstance(reply, str):
        raise InputError(f"the llm returned {type(reply).__name__}, not text")
    return reply.strip()[:MAX_REPLY_CHARS]
