"""What an LLM is to groundgraph, and how its token use is counted.

An LLM is any callable ``prompt -> text``. A client that knows what each call cost also
offers ``complete(prompt) -> Completion`` and a cumulative ``usage``; everything else
(a scripted fake, a local pipeline) is counted by an estimate.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

# When a server reports no token counts, we estimate one token per four characters: the
# rule of thumb OpenAI gives for English text. It over-counts code and under-counts
# scripts without spaces; counts that matter should come from the server's `usage`.
CHARS_PER_TOKEN = 4


class LLM(Protocol):
    """Any callable that answers a prompt with text."""

    def __call__(self, prompt: str) -> str: ...


@dataclass(frozen=True)
class Completion:
    """One answered call: the text and what it cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    estimated: bool = False  # True when the token counts are our estimate, not the server's
    finish_reason: str | None = None
    model: str | None = None

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@runtime_checkable
class ReportsCompletions(Protocol):
    """An LLM that can say what each call cost (``OpenAICompatibleLLM`` does)."""

    def complete(self, prompt: str) -> Completion: ...


@dataclass
class TokenUsage:
    """Cumulative calls and tokens; ``add`` is safe to call from many threads."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated_calls: int = 0  # calls whose token counts were estimated

    def __post_init__(self) -> None:
        self._lock = threading.Lock()  # not a field: asdict() and == ignore it

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, completion: Completion) -> None:
        """Count one finished call."""
        with self._lock:
            self.calls += 1
            self.prompt_tokens += completion.prompt_tokens
            self.completion_tokens += completion.completion_tokens
            self.estimated_calls += int(completion.estimated)

    def snapshot(self) -> TokenUsage:
        """A consistent copy, taken under the lock."""
        with self._lock:
            return TokenUsage(
                self.calls, self.prompt_tokens, self.completion_tokens, self.estimated_calls
            )

    def to_dict(self) -> dict[str, int]:
        copy = self.snapshot()
        return {
            "calls": copy.calls,
            "promptTokens": copy.prompt_tokens,
            "completionTokens": copy.completion_tokens,
            "totalTokens": copy.total_tokens,
            "estimatedCalls": copy.estimated_calls,
        }


def estimate_tokens(text: str) -> int:
    """Our estimate of a text's token count: ``ceil(len(text) / 4)``."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def estimated_completion(prompt: str, text: str) -> Completion:
    """A completion whose token counts are estimated from the prompt and the reply."""
    return Completion(text, estimate_tokens(prompt), estimate_tokens(text), estimated=True)


def usage_of(llm: object) -> TokenUsage | None:
    """The cumulative usage of an LLM that reports one, else None."""
    usage = getattr(llm, "usage", None)
    return usage if isinstance(usage, TokenUsage) else None
