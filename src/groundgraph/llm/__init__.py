"""Language models for groundgraph: the protocol, an OpenAI-compatible client, budgets.

An LLM is any callable ``llm(prompt) -> str``. ``OpenAICompatibleLLM`` talks to Ollama,
vLLM, llama.cpp's server or a hosted API over ``/v1/chat/completions`` and counts the
tokens each call uses; ``LLMBudget`` and ``budgeted`` put hard caps on calls and tokens
for any LLM; ``LLMClient(provider=...)`` presets a hosted or local provider by
name. Errors are in ``groundgraph.errors`` under ``LLMError``.
"""

from __future__ import annotations

from groundgraph.llm.budget import BudgetedLLM, LLMBudget, budgeted
from groundgraph.llm.openai_compatible import OpenAICompatibleLLM, chat_endpoint
from groundgraph.llm.providers import PROVIDERS, LLMClient, Provider, provider_named
from groundgraph.llm.usage import (
    LLM,
    Completion,
    ReportsCompletions,
    TokenUsage,
    estimate_tokens,
    usage_of,
)

__all__ = [
    "LLM",
    "PROVIDERS",
    "BudgetedLLM",
    "Completion",
    "LLMBudget",
    "LLMClient",
    "OpenAICompatibleLLM",
    "Provider",
    "ReportsCompletions",
    "TokenUsage",
    "budgeted",
    "chat_endpoint",
    "estimate_tokens",
    "provider_named",
    "usage_of",
]
