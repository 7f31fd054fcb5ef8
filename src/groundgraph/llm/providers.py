"""Hosted and local OpenAI-compatible providers by name: ``LLMClient(provider="groq")``.

Grounded Reasoning's ``LLMClient`` switches providers by name; here a name picks three
things for :class:`~groundgraph.llm.openai_compatible.OpenAICompatibleLLM`: the chat
completions URL, the environment variable that holds the API key, and a default model.
Keys are only ever read from the environment, never passed as strings. A provider whose
key is required refuses to start when its variable is unset; Ollama runs locally and needs
none (its variable is sent when set). ``base_url=`` points a preset at another server
(a proxy, a local gateway, a test server); the key is then sent if its variable is set and
not required.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from groundgraph.errors import InputError
from groundgraph.llm.openai_compatible import OpenAICompatibleLLM

__all__ = ["PROVIDERS", "LLMClient", "Provider", "provider_named"]


@dataclass(frozen=True, slots=True)
class Provider:
    """Where a provider answers, which variable holds its key, and the model to default to."""

    name: str
    base_url: str
    key_env: str
    model: str
    needs_key: bool = True


PROVIDERS: dict[str, Provider] = {
    p.name: p
    for p in (
        Provider("deepseek", "https://api.deepseek.com/v1", "DEEPSEEK_API_KEY", "deepseek-chat"),
        Provider("openai", "https://api.openai.com/v1", "OPENAI_API_KEY", "gpt-4o-mini"),
        Provider(
            "groq", "https://api.groq.com/openai/v1", "GROQ_API_KEY", "llama-3.3-70b-versatile"
        ),
        Provider(
            "openrouter", "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", "openai/gpt-4o-mini"
        ),
        Provider(
            "together",
            "https://api.together.xyz/v1",
            "TOGETHER_API_KEY",
            "meta-llama/Llama-3.3-70B-Instruct-Turbo",
        ),
        Provider("mistral", "https://api.mistral.ai/v1", "MISTRAL_API_KEY", "mistral-small-latest"),
        Provider("ollama", "http://localhost:11434/v1", "OLLAMA_API_KEY", "llama3.2", False),
    )
}


def provider_named(name: object) -> Provider:
    """The preset called ``name``; an unknown name is an InputError listing the known ones."""
    if isinstance(name, str) and name.strip().lower() in PROVIDERS:
        return PROVIDERS[name.strip().lower()]
    shown = repr(name) if not isinstance(name, str) else repr(name[:40])
    raise InputError(
        f"no LLM provider {shown}: choose one of {', '.join(sorted(PROVIDERS))}, or use "
        "OpenAICompatibleLLM(base_url, model, api_key_env=...) for any other server"
    )


class LLMClient(OpenAICompatibleLLM):
    """An :class:`OpenAICompatibleLLM` set up from a provider's name.

    ``model`` defaults to the provider's, ``api_key_env`` to its key variable; any other
    option of ``OpenAICompatibleLLM`` (``timeout``, ``max_retries``, ``budget``, ...) passes
    through. ``ask(prompt, system=None)`` is Grounded Reasoning's name for a call.
    """

    def __init__(
        self,
        provider: str = "deepseek",
        model: str | None = None,
        base_url: str | None = None,
        api_key_env: str | None = None,
        **options: Any,
    ) -> None:
        preset = provider_named(provider)
        variable = preset.key_env if api_key_env is None else api_key_env
        required = preset.needs_key and base_url is None
        if not isinstance(variable, str) or not variable:
            raise InputError(f"api_key_env must name an environment variable, not {variable!r}")
        if required and not os.environ.get(variable, "").strip():
            raise InputError(
                f"the {preset.name} provider needs an API key in ${variable}, which is not "
                f"set: export {variable}=<your key> (keys are read only from the environment)"
            )
        send_key = required or bool(os.environ.get(variable, "").strip())
        super().__init__(
            preset.base_url if base_url is None else base_url,
            preset.model if model is None else model,
            api_key_env=variable if send_key else None,
            **options,
        )
        self.provider = preset.name

    def ask(self, prompt: str, system: str | None = None) -> str:
        """The model's answer to ``prompt`` (with ``system`` as the system prompt, if given)."""
        return self.complete(prompt, system=system).text

    @property
    def total_tokens(self) -> int:
        """Tokens of every call so far, prompt and completion."""
        return self.usage.total_tokens

    def __repr__(self) -> str:
        return f"LLMClient({self.provider!r}, model={self.model!r}, endpoint={self.endpoint!r})"
