"""LLMClient(provider=...): Grounded Reasoning's provider presets over OpenAICompatibleLLM.

Calls go to a real HTTP server on loopback (``fake_llm_server``) through ``base_url=``;
the hosted presets are checked by the endpoint, model and key variable they set up, with
no network.
"""

from __future__ import annotations

import pytest

from fake_llm_server import FakeLLMServer, chat_reply
from groundgraph.errors import InputError
from groundgraph.llm import PROVIDERS, LLMClient, OpenAICompatibleLLM, provider_named

KEY_VARIABLES = {p.key_env for p in PROVIDERS.values()}
FAST = {"retry_backoff": 0.0, "timeout": 10.0}


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer() as running:
        yield running


@pytest.fixture
def fake(server: FakeLLMServer) -> FakeLLMServer:
    server.reset()
    return server


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start every test with no provider key in the environment."""
    for variable in KEY_VARIABLES:
        monkeypatch.delenv(variable, raising=False)


EXPECTED = {
    "deepseek": ("https://api.deepseek.com/v1/chat/completions", "DEEPSEEK_API_KEY"),
    "openai": ("https://api.openai.com/v1/chat/completions", "OPENAI_API_KEY"),
    "groq": ("https://api.groq.com/openai/v1/chat/completions", "GROQ_API_KEY"),
    "openrouter": ("https://openrouter.ai/api/v1/chat/completions", "OPENROUTER_API_KEY"),
    "together": ("https://api.together.xyz/v1/chat/completions", "TOGETHER_API_KEY"),
    "mistral": ("https://api.mistral.ai/v1/chat/completions", "MISTRAL_API_KEY"),
    "ollama": ("http://localhost:11434/v1/chat/completions", "OLLAMA_API_KEY"),
}


def test_the_seven_providers_of_grounded_reasoning() -> None:
    assert set(PROVIDERS) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_preset_sets_endpoint_model_and_key_variable(name, monkeypatch) -> None:
    endpoint, variable = EXPECTED[name]
    monkeypatch.setenv(variable, f"sk-{name}")
    with LLMClient(name) as llm:
        assert isinstance(llm, OpenAICompatibleLLM)
        assert llm.endpoint == endpoint and llm.api_key_env == variable
        assert llm.model == PROVIDERS[name].model and llm.model
        assert llm.provider == name and f"sk-{name}" not in repr(llm)
    with LLMClient(name, model="my-model") as chosen:
        assert chosen.model == "my-model"


def test_deepseek_is_the_default_provider(monkeypatch) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-x")
    with LLMClient() as llm:
        assert llm.provider == "deepseek" and llm.model == "deepseek-chat"


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - {"ollama"}))
def test_a_hosted_provider_without_its_key_is_refused(name) -> None:
    variable = EXPECTED[name][1]
    with pytest.raises(InputError, match=rf"\${variable}, which is not set"):
        LLMClient(name)


def test_ollama_needs_no_key() -> None:
    with LLMClient("ollama") as llm:
        assert llm.api_key_env is None and llm.model == "llama3.2"


@pytest.mark.parametrize("name", ["deepseak", "", "OpenAI ", None, 3])
def test_an_unknown_provider_names_the_known_ones(name) -> None:
    if isinstance(name, str) and name.strip().lower() in PROVIDERS:
        assert provider_named(name).name == "openai"
        return
    with pytest.raises(InputError, match="choose one of deepseek, groq, mistral"):
        LLMClient(name)  # type: ignore[arg-type]


def test_a_long_hostile_provider_name_is_cut_in_the_error() -> None:
    with pytest.raises(InputError) as caught:
        LLMClient("x" * 10_000 + "\n\x00")
    assert len(str(caught.value)) < 400


# --- calls through a real local server -------------------------------------------------
def test_the_key_comes_from_the_preset_variable_and_the_model_from_the_preset(
    fake, monkeypatch
) -> None:
    monkeypatch.setenv("GROQ_API_KEY", "sk-groq-123")
    with LLMClient("groq", base_url=fake.url, **FAST) as llm:
        assert llm.ask("hello") == "echo: hello"
    seen = fake.requests[-1]
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == "Bearer sk-groq-123"
    assert seen.body["model"] == "llama-3.3-70b-versatile"


def test_another_server_for_a_preset_needs_no_key(fake) -> None:
    with LLMClient("openai", base_url=fake.url, **FAST) as llm:
        assert llm("ping") == "echo: ping"
    assert "authorization" not in fake.requests[-1].headers


def test_ollama_sends_its_key_only_when_set(fake, monkeypatch) -> None:
    with LLMClient("ollama", base_url=fake.url, **FAST) as llm:
        llm("one")
    assert "authorization" not in fake.requests[-1].headers
    monkeypatch.setenv("OLLAMA_API_KEY", "local-key")
    with LLMClient("ollama", base_url=fake.url, **FAST) as llm:
        llm("two")
    assert fake.requests[-1].headers["authorization"] == "Bearer local-key"


def test_ask_with_a_system_prompt_and_total_tokens(fake) -> None:
    fake.push(chat_reply("four words of answer"), chat_reply("two more"))
    with LLMClient("ollama", base_url=fake.url, system="Be brief.", **FAST) as llm:
        assert llm.ask("q1", system="Answer in French.") == "four words of answer"
        assert llm.ask("q2") == "two more"
        # the fake counts 7 prompt tokens a call and one completion token a word
        assert llm.total_tokens == (7 + 4) + (7 + 2) == llm.usage.total_tokens
    first, second = (r.body["messages"] for r in fake.requests[-2:])
    assert first[0] == {"role": "system", "content": "Answer in French."}
    assert second[0] == {"role": "system", "content": "Be brief."}


def test_an_empty_key_variable_name_is_refused() -> None:
    with pytest.raises(InputError, match="api_key_env"):
        LLMClient("ollama", api_key_env="")
