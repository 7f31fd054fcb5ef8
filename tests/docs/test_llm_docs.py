"""The examples in docs/llm.md run, print what the page says, and do what it says.

The client examples talk to the scripted OpenAI-style server on loopback (the page reads
its URL from ``LLM_URL``, as a user's script would read theirs).
"""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any

import pytest

from fake_llm_server import FakeLLMServer, chat_reply
from repo_paths import ROOT

PAGE = ROOT / "docs" / "llm.md"


def printed_claims(block: str) -> list[str]:
    """The ``# …`` comment lines right after a print() call: what it should print."""
    claims: list[str] = []
    after_print = False
    for line in block.splitlines():
        stripped = line.strip()
        if after_print and stripped.startswith("# "):
            claims.append(stripped[2:])
            continue
        after_print = "print(" in line
    return claims


@pytest.fixture(scope="module")
def run() -> Any:
    with pytest.MonkeyPatch.context() as patch, FakeLLMServer() as server:
        patch.setenv("LLM_URL", server.url + "/v1")
        patch.setenv("OPENAI_API_KEY", "sk-docs-example")
        server.push(
            chat_reply(
                "BM25 ranks documents by term rarity.",
                usage={"prompt_tokens": 20, "completion_tokens": 8},
            )
        )
        blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), flags=re.DOTALL)
        namespace: dict[str, Any] = {}
        outputs: list[tuple[str, list[str]]] = []
        for block in blocks:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(block, str(PAGE), "exec"), namespace)  # our own page, as a doctest
            outputs.append((block, out.getvalue().splitlines()))
        yield {"namespace": namespace, "outputs": outputs, "requests": list(server.requests)}


def test_page_has_the_examples(run):
    assert len(run["outputs"]) == 6


def test_each_block_prints_what_the_page_says(run):
    for block, printed in run["outputs"]:
        assert [line.rstrip() for line in printed] == printed_claims(block)


def test_client_example_talks_to_the_server(run):
    names, requests = run["namespace"], run["requests"]
    assert names["answer"] == "BM25 ranks documents by term rarity."
    assert names["completion"].text == "echo: And what does a graph walk add?"
    assert names["used"]["calls"] == 2 and names["used"]["estimatedCalls"] == 0
    assert names["used"]["promptTokens"] == 20 + 7
    first = requests[0].body
    assert first["model"] == "llama3.2" and first["max_tokens"] == 64
    assert first["messages"][0] == {"role": "system", "content": "Answer in one sentence."}
    assert requests[0].path == "/v1/chat/completions"


def test_server_table_example_builds_each_endpoint(run):
    endpoints = run["namespace"]["endpoints"]
    assert endpoints["ollama"] == "http://localhost:11434/v1/chat/completions"
    assert endpoints["openai"] == "https://api.openai.com/v1/chat/completions"
    assert endpoints["llama.cpp"] == "http://127.0.0.1:8080/v1/chat/completions"


def test_provider_example_matches_the_table(run):
    from groundgraph.llm import PROVIDERS

    names = run["namespace"]
    assert names["local"].provider == "ollama" and names["hosted"].provider == "openai"
    table = PAGE.read_text("utf-8").split("### Providers by name", 1)[1].split("## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)`[^|]*\| `([^`]+)` \| `(\w+)`[^|]*\| `([^`]+)` \|$", table, re.M)
    assert {name for name, *_ in rows} == set(PROVIDERS)
    for name, url, variable, model in rows:
        preset = PROVIDERS[name]
        assert (variable, model) == (preset.key_env, preset.model)
        assert url == preset.base_url + "/chat/completions"


def test_budget_examples(run):
    names = run["namespace"]
    assert names["calls"] == ["first", "second"]
    assert names["tokens"].to_dict() == {
        "maxCalls": None,
        "maxTokens": 10,
        "callsUsed": 2,
        "tokensUsed": 12,
    }


def test_every_error_in_the_table_exists():
    import groundgraph.errors as errors

    table = PAGE.read_text("utf-8").split("## Errors and retries", 1)[1].split("## ", 1)[0]
    named = set(re.findall(r"^\| `(\w+Error)`", table, flags=re.MULTILINE))
    assert named == {
        "InputError",
        "InputTooLargeError",
        "LLMConnectionError",
        "LLMResponseError",
        "BudgetExhaustedError",
    }
    assert all(hasattr(errors, name) for name in named)
