"""Hard caps on LLM calls and tokens, shared safely between threads.

A call is counted when it starts, so the call cap is exact even under concurrency: a call
that would go over it raises ``BudgetExhaustedError`` before anything is sent. Tokens are
known only when a call returns, so the token cap is checked before each call against the
tokens already used: the calls in flight when it is reached may go past it by what they use
(bound that with the client's ``max_tokens``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from groundgraph.errors import BudgetExhaustedError, InputError, LLMResponseError
from groundgraph.llm.usage import (
    LLM,
    Completion,
    ReportsCompletions,
    TokenUsage,
    estimated_completion,
)


def _check_cap(name: str, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"{name} must be a whole number ≥ 0 or None, not {value!r}")
    return value


class LLMBudget:
    """At most ``max_calls`` calls and ``max_tokens`` tokens; None means no cap."""

    def __init__(self, max_calls: int | None = None, max_tokens: int | None = None) -> None:
        self.max_calls = _check_cap("max_calls", max_calls)
        self.max_tokens = _check_cap("max_tokens", max_tokens)
        self._lock = threading.Lock()
        self._calls = 0
        self._tokens = 0

    def begin_call(self) -> None:
        """Count one call about to start, or raise ``BudgetExhaustedError`` if none is left."""
        with self._lock:
            if self.max_calls is not None and self._calls >= self.max_calls:
                raise BudgetExhaustedError(
                    f"the LLM budget of {self.max_calls:,} calls is used up: "
                    "raise max_calls on the LLMBudget or make fewer calls",
                    kind="calls",
                    limit=self.max_calls,
                    used=self._calls,
                )
            if self.max_tokens is not None and self._tokens >= self.max_tokens:
                raise BudgetExhaustedError(
                    f"the LLM budget of {self.max_tokens:,} tokens is used up "
                    f"({self._tokens:,} used): raise max_tokens on the LLMBudget, "
                    "or shorten prompts and replies",
                    kind="tokens",
                    limit=self.max_tokens,
                    used=self._tokens,
                )
            self._calls += 1

    def add_tokens(self, tokens: int) -> None:
        """Count the tokens a finished call used."""
        with self._lock:
            self._tokens += max(0, tokens)

    @property
    def calls_used(self) -> int:
        with self._lock:
            return self._calls

    @property
    def tokens_used(self) -> int:
        with self._lock:
            return self._tokens

    @property
    def remaining_calls(self) -> int | None:
        """Calls left, or None without a call cap."""
        with self._lock:
            return None if self.max_calls is None else max(0, self.max_calls - self._calls)

    @property
    def remaining_tokens(self) -> int | None:
        """Tokens left, or None without a token cap."""
        with self._lock:
            return None if self.max_tokens is None else max(0, self.max_tokens - self._tokens)

    @property
    def exhausted(self) -> bool:
        """True when the next call would raise ``BudgetExhaustedError``."""
        return self.remaining_calls == 0 or self.remaining_tokens == 0

    def to_dict(self) -> dict[str, int | None]:
        with self._lock:
            return {
                "maxCalls": self.max_calls,
                "maxTokens": self.max_tokens,
                "callsUsed": self._calls,
                "tokensUsed": self._tokens,
            }

    def __repr__(self) -> str:
        return (
            f"LLMBudget(max_calls={self.max_calls}, max_tokens={self.max_tokens}, "
            f"calls_used={self.calls_used}, tokens_used={self.tokens_used})"
        )


def call_within(
    budget: LLMBudget | None, prompt: str, call: Callable[[str], Completion]
) -> Completion:
    """Run one call under ``budget`` (if any): count it first, then the tokens it used."""
    if budget is not None:
        budget.begin_call()
    completion = call(prompt)
    if budget is not None:
        budget.add_tokens(completion.total_tokens)
    return completion


class BudgetedLLM:
    """An LLM whose calls count against a budget; see ``budgeted``."""

    def __init__(self, llm: LLM, budget: LLMBudget) -> None:
        if not callable(llm):
            raise InputError(f"llm must be a callable prompt -> text, not {type(llm).__name__}")
        if not isinstance(budget, LLMBudget):
            raise InputError(f"budget must be an LLMBudget, not {type(budget).__name__}")
        self.llm = llm
        self.budget = budget
        self.usage = TokenUsage()  # the calls made through this wrapper

    def _complete_unbudgeted(self, prompt: str) -> Completion:
        if isinstance(self.llm, ReportsCompletions):
            return self.llm.complete(prompt)
        text = self.llm(prompt)
        if not isinstance(text, str):
            raise LLMResponseError(
                f"the wrapped LLM returned {type(text).__name__}, not str: "
                "an LLM must be a callable prompt -> text"
            )
        return estimated_completion(prompt, text)

    def complete(self, prompt: str) -> Completion:
        """Answer ``prompt`` if the budget allows; the tokens come from the wrapped LLM
        when it reports them, else from the four-characters-per-token estimate."""
        if not isinstance(prompt, str):
            raise InputError(f"prompt must be str, not {type(prompt).__name__}")
        completion = call_within(self.budget, prompt, self._complete_unbudgeted)
        self.usage.add(completion)
        return completion

    def __call__(self, prompt: str) -> str:
        return self.complete(prompt).text

    def __repr__(self) -> str:
        return f"BudgetedLLM({self.llm!r}, {self.budget!r})"


def budgeted(llm: LLM, budget: LLMBudget) -> BudgetedLLM:
    """Wrap any ``llm(prompt) -> str`` so that its calls and tokens count against
    ``budget``; a call past the budget raises ``BudgetExhaustedError`` before it starts."""
    return BudgetedLLM(llm, budget)
