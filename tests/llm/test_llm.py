"""The OpenAI-compatible client and the budgets, against a real HTTP server on loopback.

The server (``fake_llm_server``) is real sockets and real HTTP; only its replies are
scripted. Nothing here needs a model.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fake_llm_server import FakeLLMServer, Reply, chat_json, chat_reply, status_reply
from groundgraph.errors import (
    BudgetExhaustedError,
    GroundgraphError,
    InputError,
    InputTooLargeError,
    LLMConnectionError,
    LLMError,
    LLMResponseError,
)
from groundgraph.llm import (
    LLMBudget,
    OpenAICompatibleLLM,
    TokenUsage,
    budgeted,
    chat_endpoint,
    estimate_tokens,
    usage_of,
)

FAST = {"retry_backoff": 0.0, "timeout": 10.0}


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer() as running:
        yield running


@pytest.fixture
def fake(server: FakeLLMServer) -> FakeLLMServer:
    server.reset()
    return server


OPEN: list[OpenAICompatibleLLM] = []


@pytest.fixture(autouse=True)
def close_clients():
    yield
    while OPEN:
        OPEN.pop().close()


def client(fake: FakeLLMServer, **options) -> OpenAICompatibleLLM:
    made = OpenAICompatibleLLM(fake.url, "fake-model", **{**FAST, **options})
    OPEN.append(made)
    return made


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- talking to the server -------------------------------------------------------------


def test_answer_and_usage_come_from_the_reply(fake):
    fake.push(
        chat_reply("Paris is the capital.", usage={"prompt_tokens": 12, "completion_tokens": 5})
    )
    llm = client(fake)
    assert llm("What is the capital of France?") == "Paris is the capital."
    assert (llm.usage.calls, llm.usage.prompt_tokens, llm.usage.completion_tokens) == (1, 12, 5)
    assert llm.usage.total_tokens == 17 and llm.usage.estimated_calls == 0
    llm("again")  # the echo reply: 7 prompt tokens, one per word of "echo: again"
    assert (llm.usage.calls, llm.usage.prompt_tokens, llm.usage.completion_tokens) == (2, 19, 7)


def test_request_carries_model_messages_and_options(fake):
    llm = client(fake, system="Answer briefly.", temperature=0.3, max_tokens=16)
    llm("Why is the sky blue?")
    seen = fake.requests[-1]
    assert seen.path == "/v1/chat/completions"
    assert seen.body["model"] == "fake-model"
    assert seen.body["messages"] == [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "Why is the sky blue?"},
    ]
    assert seen.body["temperature"] == 0.3 and seen.body["max_tokens"] == 16
    assert seen.body["stream"] is False
    assert "authorization" not in seen.headers


def test_without_system_or_max_tokens_neither_is_sent(fake):
    client(fake)("hi")
    body = fake.requests[-1].body
    assert [m["role"] for m in body["messages"]] == ["user"] and "max_tokens" not in body


def test_api_key_is_sent_as_bearer_from_the_named_variable(fake, monkeypatch):
    monkeypatch.setenv("GG_TEST_LLM_KEY", "sk-test-123")
    client(fake, api_key_env="GG_TEST_LLM_KEY")("hi")
    assert fake.requests[-1].headers["authorization"] == "Bearer sk-test-123"
    assert "sk-test-123" not in repr(client(fake, api_key_env="GG_TEST_LLM_KEY"))


def test_a_named_but_unset_key_variable_is_an_input_error(fake, monkeypatch):
    monkeypatch.delenv("GG_TEST_LLM_KEY", raising=False)
    with pytest.raises(InputError, match=r"\$GG_TEST_LLM_KEY, which is not set"):
        client(fake, api_key_env="GG_TEST_LLM_KEY")


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/"])
def test_base_url_with_or_without_v1(fake, suffix):
    llm = OpenAICompatibleLLM(fake.url + suffix, "m", **FAST)
    assert llm("ping") == "echo: ping"
    assert fake.requests[-1].path == "/v1/chat/completions"


def test_chat_endpoint_forms():
    assert chat_endpoint("http://h:1") == "http://h:1/v1/chat/completions"
    assert chat_endpoint("https://api.example.com/openai/v1") == (
        "https://api.example.com/openai/v1/chat/completions"
    )
    full = "https://example.com/v1beta/openai/chat/completions"
    assert chat_endpoint(full) == full


@given(
    host=st.from_regex(r"[a-z][a-z0-9]{0,10}(\.[a-z]{2,5})?", fullmatch=True),
    # A path segment "v1" of the caller's own ("http://h/v1/v1") is theirs to keep.
    path=st.lists(
        st.from_regex(r"[a-z0-9]{1,6}", fullmatch=True).filter(lambda p: p != "v1"), max_size=3
    ),
    v1=st.booleans(),
    slash=st.booleans(),
)
def test_chat_endpoint_always_ends_at_one_chat_path(host, path, v1, slash):
    url = (
        "http://"
        + host
        + "".join("/" + p for p in path)
        + ("/v1" if v1 else "")
        + ("/" if slash else "")
    )
    endpoint = chat_endpoint(url)
    assert endpoint.endswith("/v1/chat/completions") and "/v1/v1" not in endpoint
    assert endpoint.startswith("http://" + host)


def test_missing_usage_is_estimated_and_marked(fake):
    fake.push(chat_reply("abcdefgh", usage=None))
    llm = client(fake, system="sys")
    completion = llm.complete("12345678")
    assert completion.estimated
    assert completion.completion_tokens == estimate_tokens("abcdefgh") == 2
    assert completion.prompt_tokens == estimate_tokens("sys\n12345678") == 3
    assert llm.usage.estimated_calls == 1 and llm.usage.total_tokens == 5


def test_completion_reports_finish_reason_and_model(fake):
    completion = client(fake).complete("hello")
    assert completion.finish_reason == "stop" and completion.model == "fake-model"
    assert completion.text == "echo: hello"


# --- retries ---------------------------------------------------------------------------


def test_retries_on_500_and_429_then_succeeds(fake):
    fake.push(status_reply(500), status_reply(429, **{"Retry-After": "0"}), chat_reply("finally"))
    llm = client(fake, max_retries=2)
    assert llm("q") == "finally"
    assert len(fake.requests) == 3
    assert llm.usage.calls == 1  # one call, three attempts


def test_gives_up_after_max_retries_with_the_status(fake):
    fake.push(status_reply(503, "overloaded"), status_reply(503, "overloaded"), chat_reply("late"))
    with pytest.raises(LLMResponseError, match=r"HTTP 503 after 2 attempts.*overloaded") as info:
        client(fake, max_retries=1)("q")
    assert info.value.status_code == 503 and len(fake.requests) == 2


@pytest.mark.parametrize(
    ("status", "hint"), [(400, "rejected"), (401, "api_key_env"), (404, "model name"), (422, "")]
)
def test_no_retry_on_other_4xx(fake, status, hint):
    fake.push(status_reply(status, "model 'x' not found"), chat_reply("never read"))
    with pytest.raises(
        LLMResponseError, match=f"HTTP {status}: .*model 'x' not found.*{hint}"
    ) as info:
        client(fake, max_retries=3)("q")
    assert info.value.status_code == status and len(fake.requests) == 1
    assert fake.script  # the success reply was never asked for


def test_retry_after_is_honoured(fake):
    fake.push(status_reply(429, **{"Retry-After": "1"}), chat_reply("ok"))
    start = time.monotonic()
    assert client(fake, max_retries=1)("q") == "ok"
    assert time.monotonic() - start >= 0.9


def test_retry_after_is_capped(fake):
    fake.push(status_reply(429, **{"Retry-After": "3600"}), chat_reply("ok"))
    start = time.monotonic()
    assert client(fake, max_retries=1, max_retry_wait=0.05)("q") == "ok"
    assert time.monotonic() - start < 5


def test_connection_refused_is_a_connection_error():
    llm = OpenAICompatibleLLM(
        f"http://127.0.0.1:{free_port()}", "m", max_retries=1, retry_backoff=0
    )
    with pytest.raises(LLMConnectionError, match=r"in 2 attempt\(s\).*server is running"):
        llm("q")
    assert llm.usage.calls == 0


def test_a_slow_server_times_out_as_a_connection_error(fake):
    fake.push(chat_reply("slow", delay=1.5))
    with pytest.raises(LLMConnectionError, match="ReadTimeout"):
        client(fake, timeout=0.3, max_retries=0)("q")


def test_a_dripping_reply_is_cut_at_the_timeout(fake):
    # every chunk comes within the read timeout, but the whole reply takes ~3 s
    fake.push(chat_reply("x" * 200, drip=0.15))
    start = time.monotonic()
    with pytest.raises(LLMConnectionError, match="longer than"):
        client(fake, timeout=0.5, max_retries=0)("q")
    assert time.monotonic() - start < 2.5


# --- what the server sends back --------------------------------------------------------


def raw(body: bytes) -> Reply:
    return Reply(200, body, {"Content-Type": "application/json"})


@pytest.mark.parametrize(
    ("reply", "named"),
    [
        (raw(b"<html>not json</html>"), "not JSON"),
        (raw(b"\xff\xfe\x00binary"), "not UTF-8"),
        (raw(b"[1, 2]"), "JSON list"),
        (raw(b"{}"), "no 'choices'"),
        (raw(b'{"error": {"message": "boom"}}'), "no 'choices': the server says 'boom'"),
        (raw(b'{"choices": []}'), "'choices' is"),
        (raw(b'{"choices": [{"text": "legacy"}]}'), "choices\\[0\\].message"),
        (raw(json.dumps(chat_json(None)).encode()), "content' is NoneType"),
        (raw(json.dumps(chat_json(["parts"])).encode()), "content' is list"),
        (raw(json.dumps(chat_json("ok", usage="lots")).encode()), "'usage' is"),
        (
            raw(
                json.dumps(
                    chat_json("ok", usage={"prompt_tokens": "3", "completion_tokens": 1})
                ).encode()
            ),
            "usage.prompt_tokens",
        ),
        (
            raw(json.dumps(chat_json("ok", usage={"prompt_tokens": 3})).encode()),
            "usage.completion_tokens",
        ),
        (raw(b"[" * 100_000 + b"]" * 100_000), "nested too deeply"),
    ],
)
def test_unreadable_replies_are_response_errors_naming_what_is_wrong(fake, reply, named):
    fake.push(reply)
    llm = client(fake)
    with pytest.raises(LLMResponseError, match=named):
        llm("q")
    assert llm.usage.calls == 0


@pytest.mark.parametrize("send_length", [True, False])
def test_oversized_reply_is_refused(fake, send_length):
    fake.push(chat_reply("y" * 5000, send_length=send_length))
    with pytest.raises(LLMResponseError, match="over 1,000 bytes"):
        client(fake, max_response_bytes=1000)("q")


def test_a_reply_without_length_is_read_to_the_end(fake):
    fake.push(chat_reply("streamed to close", send_length=False))
    assert client(fake)("q") == "streamed to close"


# --- hostile input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "prompt", [None, b"bytes", 42, ["list"], "", "   \n", "bad \ud800 surrogate"]
)
def test_bad_prompts_are_input_errors_and_never_sent(fake, prompt):
    budget = LLMBudget(max_calls=5)
    llm = client(fake, budget=budget)
    with pytest.raises(InputError):
        llm(prompt)
    assert not fake.requests and budget.calls_used == 0


def test_a_huge_prompt_is_refused_before_sending(fake):
    llm = client(fake, max_prompt_chars=100)
    with pytest.raises(InputTooLargeError, match="prompt is 101 long"):
        llm("x" * 101)
    assert not fake.requests
    assert llm("x" * 100) == "echo: " + "x" * 100


@pytest.mark.parametrize(
    "options",
    [
        {"base_url": "ftp://example.com"},
        {"base_url": "localhost:8000"},
        {"base_url": ""},
        {"base_url": 8000},
        {"base_url": "http://h/?q=1"},
        {"model": ""},
        {"model": None},
        {"timeout": 0},
        {"timeout": float("nan")},
        {"timeout": "10"},
        {"max_retries": -1},
        {"max_retries": True},
        {"temperature": 2.5},
        {"max_tokens": 0},
        {"system": ""},
        {"budget": 3},
    ],
)
def test_bad_settings_are_input_errors(options):
    settings_ = {"base_url": "http://127.0.0.1:9", "model": "m", **options}
    with pytest.raises(InputError):
        OpenAICompatibleLLM(settings_.pop("base_url"), settings_.pop("model"), **settings_)


def test_without_httpx_the_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "httpx", None)
    with pytest.raises(LLMError, match=r"pip install 'groundgraph\[llm\]'"):
        OpenAICompatibleLLM("http://127.0.0.1:9", "m")


def test_groundgraph_imports_without_httpx():
    code = (
        "import sys; sys.modules['httpx'] = None\n"
        "import groundgraph, groundgraph.llm\n"
        "from groundgraph.llm import budgeted, LLMBudget\n"
        "print(budgeted(str.upper, LLMBudget(max_calls=1))('ok'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "OK"


def test_error_tree():
    for error in (LLMConnectionError, LLMResponseError, BudgetExhaustedError):
        assert issubclass(error, LLMError)
    assert issubclass(LLMError, GroundgraphError)


# --- budgets ---------------------------------------------------------------------------


def test_call_budget_raises_before_sending(fake):
    budget = LLMBudget(max_calls=2)
    llm = client(fake, budget=budget)
    llm("one")
    llm("two")
    with pytest.raises(BudgetExhaustedError, match="budget of 2 calls is used up") as info:
        llm("three")
    assert (info.value.kind, info.value.limit) == ("calls", 2)
    assert len(fake.requests) == 2 and budget.remaining_calls == 0 and budget.exhausted


def test_token_budget_is_checked_against_tokens_used(fake):
    usage = {"prompt_tokens": 15, "completion_tokens": 5}
    fake.push(*(chat_reply("ok", usage=usage) for _ in range(3)))
    budget = LLMBudget(max_tokens=30)
    llm = client(fake, budget=budget)
    llm("a")  # 0 used before: allowed
    llm("b")  # 20 used before: allowed, and goes past the cap
    with pytest.raises(BudgetExhaustedError, match="30 tokens is used up") as info:
        llm("c")
    assert info.value.kind == "tokens" and budget.tokens_used == 40 == info.value.used
    assert len(fake.requests) == 2


def test_a_failed_call_still_counts_against_the_call_budget(fake):
    fake.push(status_reply(400))
    budget = LLMBudget(max_calls=1)
    llm = client(fake, budget=budget)
    with pytest.raises(LLMResponseError):
        llm("q")
    with pytest.raises(BudgetExhaustedError):
        llm("q")
    assert len(fake.requests) == 1


def test_one_budget_shared_by_two_clients(fake):
    budget = LLMBudget(max_calls=3)
    first, second = client(fake, budget=budget), client(fake, budget=budget)
    first("a"), second("b"), first("c")
    with pytest.raises(BudgetExhaustedError):
        second("d")
    assert budget.to_dict() == {
        "maxCalls": 3,
        "maxTokens": None,
        "callsUsed": 3,
        "tokensUsed": 3 * 9,
    }


@settings(max_examples=12)
@given(max_calls=st.integers(0, 6), callers=st.integers(0, 12))
def test_concurrent_calls_never_exceed_the_call_budget(server, max_calls, callers):
    server.reset()
    budget = LLMBudget(max_calls=max_calls)
    llm = client(server, budget=budget)

    def call(index: int) -> str:
        try:
            return llm(f"question {index}")
        except BudgetExhaustedError:
            return "refused"

    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(call, range(callers)))
    answered = [a for a in answers if a != "refused"]
    assert len(answered) == min(max_calls, callers) == len(server.requests)
    assert llm.usage.calls == len(answered) == budget.calls_used
    assert sorted(answered) == sorted(
        f"echo: {s.body['messages'][-1]['content']}" for s in server.requests
    )
    llm.close()


def test_concurrent_calls_share_one_client(fake):
    fake.push(*(chat_reply(f"answer {i}", delay=0.3) for i in range(4)))
    llm = client(fake)
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = sorted(pool.map(llm, ["a", "b", "c", "d"]))
    assert answers == [f"answer {i}" for i in range(4)]
    assert fake.most_active >= 2  # they really overlapped
    assert time.monotonic() - start < 1.1  # four 0.3 s replies, not one after another
    assert llm.usage.calls == 4 and llm.usage.completion_tokens == 8


# --- budgeted() over any callable ------------------------------------------------------


def test_budgeted_wraps_a_plain_function():
    seen: list[str] = []

    def shout(prompt: str) -> str:
        seen.append(prompt)
        return prompt.upper()

    llm = budgeted(shout, LLMBudget(max_calls=2))
    assert llm("abcd") == "ABCD" and llm("efghijkl") == "EFGHIJKL"
    with pytest.raises(BudgetExhaustedError):
        llm("never")
    assert seen == ["abcd", "efghijkl"]
    usage = usage_of(llm)
    assert usage is not None and usage.calls == 2 and usage.estimated_calls == 2
    assert usage.prompt_tokens == estimate_tokens("abcd") + estimate_tokens("efghijkl") == 3


def test_budgeted_token_cap_over_a_plain_function():
    llm = budgeted(lambda prompt: "x" * 40, LLMBudget(max_tokens=15))  # 1 + 10 tokens a call
    llm("a")  # 0 used before
    llm("b")  # 11 used before, still under 15
    with pytest.raises(BudgetExhaustedError, match="tokens"):
        llm("c")
    assert llm.budget.tokens_used == 22


def test_budgeted_uses_the_clients_exact_counts(fake):
    fake.push(chat_reply("ok", usage={"prompt_tokens": 100, "completion_tokens": 1}))
    inner = client(fake)
    llm = budgeted(inner, LLMBudget(max_tokens=50))
    llm("q")
    assert llm.budget.tokens_used == 101 and llm.usage.estimated_calls == 0
    assert inner.usage.calls == 1
    with pytest.raises(BudgetExhaustedError):
        llm("q")


def test_budgeted_refuses_non_text_answers_and_bad_arguments():
    with pytest.raises(LLMResponseError, match="returned int"):
        budgeted(lambda prompt: 42, LLMBudget())("q")  # type: ignore[arg-type, return-value]
    with pytest.raises(InputError):
        budgeted("not callable", LLMBudget())  # type: ignore[arg-type]
    with pytest.raises(InputError):
        budgeted(str.upper, {"max_calls": 1})  # type: ignore[arg-type]
    with pytest.raises(InputError):
        budgeted(str.upper, LLMBudget())(b"bytes")  # type: ignore[arg-type]


@pytest.mark.parametrize("cap", [-1, 1.5, "3", True])
def test_budget_caps_must_be_whole_numbers(cap):
    with pytest.raises(InputError):
        LLMBudget(max_calls=cap)
    with pytest.raises(InputError):
        LLMBudget(max_tokens=cap)


@settings(max_examples=25)
@given(
    max_calls=st.one_of(st.none(), st.integers(0, 8)),
    max_tokens=st.one_of(st.none(), st.integers(0, 60)),
    answers=st.lists(st.text(max_size=30), max_size=15),
    threads=st.integers(1, 4),
)
def test_budgeted_calls_stay_within_both_caps(max_calls, max_tokens, answers, threads):
    """Calls never pass the call cap; a call starts only while tokens are under the cap."""
    started: list[int] = []
    lock = threading.Lock()
    before: list[int] = []
    budget = LLMBudget(max_calls, max_tokens)

    def answer(prompt: str) -> str:
        with lock:
            started.append(int(prompt))
        return answers[int(prompt)]

    llm = budgeted(answer, budget)

    def call(index: int) -> bool:
        before_call = budget.tokens_used
        try:
            llm(str(index))
        except BudgetExhaustedError:
            return False
        with lock:
            before.append(before_call)
        return True

    with ThreadPoolExecutor(max_workers=threads) as pool:
        done = list(pool.map(call, range(len(answers))))
    if max_calls is not None:
        assert len(started) <= max_calls
    assert sum(done) == len(started) == budget.calls_used == llm.usage.calls
    if threads == 1 and max_tokens is not None:
        assert all(used < max_tokens for used in before)
        if not all(done):  # refused only once a cap was reached
            assert budget.tokens_used >= max_tokens or budget.calls_used == max_calls


def test_usage_of():
    assert usage_of(str.upper) is None
    assert usage_of(object()) is None
    llm = OpenAICompatibleLLM("http://127.0.0.1:9", "m")
    assert usage_of(llm) is llm.usage
    llm.close()
    usage = TokenUsage(calls=2, prompt_tokens=3, completion_tokens=4)
    assert usage.total_tokens == 7 and usage.to_dict()["totalTokens"] == 7
    assert usage == usage.snapshot()


# --- properties of the parts -----------------------------------------------------------


@settings(max_examples=200)
@given(st.text(max_size=60))
def test_any_base_url_text_makes_a_client_or_an_input_error(text):
    try:
        made = OpenAICompatibleLLM(text, "m")
    except InputError:
        return
    assert made.endpoint.endswith("/chat/completions")
    assert made.endpoint.startswith(("http://", "https://"))
    made.close()


@pytest.mark.parametrize(
    "url", ["http://[::1/x", "http://h:99999", "http://h:1 /v1", "http://h\x00"]
)
def test_urls_that_do_not_parse_are_input_errors(url):
    with pytest.raises(InputError, match="base_url"):
        OpenAICompatibleLLM(url, "m")


@pytest.mark.parametrize("key", ["sk-abc\nX-Injected: 1", "sk abc", "ключ"])
def test_keys_that_cannot_go_in_a_header_are_input_errors(monkeypatch, key):
    monkeypatch.setenv("GG_TEST_LLM_KEY", key)
    with pytest.raises(InputError, match="not hold a valid API key"):
        OpenAICompatibleLLM("http://127.0.0.1:9", "m", api_key_env="GG_TEST_LLM_KEY")


def test_a_redirect_is_not_followed_and_says_so(fake):
    fake.push(Reply(307, b"", {"Location": "https://elsewhere.example/v1/chat/completions"}))
    with pytest.raises(LLMResponseError, match="redirects") as info:
        client(fake)("q")
    assert info.value.status_code == 307 and len(fake.requests) == 1


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=20,
)
reply_like = st.fixed_dictionaries(
    {},
    optional={
        "choices": st.one_of(
            json_values,
            st.lists(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "message": st.one_of(
                            json_values,
                            st.fixed_dictionaries({}, optional={"content": json_values}),
                        )
                    },
                ),
                max_size=2,
            ),
        ),
        "usage": st.one_of(
            json_values,
            st.fixed_dictionaries(
                {}, optional={"prompt_tokens": json_values, "completion_tokens": json_values}
            ),
        ),
        "error": json_values,
    },
)


@settings(max_examples=200)
@given(st.one_of(st.binary(max_size=200), reply_like.map(lambda d: json.dumps(d).encode())))
def test_any_reply_body_parses_or_is_a_response_error(body):
    from groundgraph.llm.reply import parse_chat_completion

    try:
        completion = parse_chat_completion(body, "prompt")
    except LLMResponseError as error:
        assert str(error)
        return
    assert isinstance(completion.text, str)
    assert completion.prompt_tokens >= 0 and completion.completion_tokens >= 0


@settings(max_examples=200)
@given(
    header=st.one_of(st.none(), st.text(max_size=40), st.integers(-(10**6), 10**6).map(str)),
    attempt=st.integers(0, 40),
    backoff=st.floats(0, 10),
    cap=st.floats(0, 60),
)
def test_retry_delay_is_never_negative_and_never_past_the_cap(header, attempt, backoff, cap):
    from groundgraph.llm.retry import retry_delay

    delay = retry_delay(attempt, header, backoff, cap)
    assert 0.0 <= delay <= cap


def test_retry_after_reads_seconds_and_dates():
    from datetime import UTC, datetime

    from groundgraph.llm.retry import retry_after_seconds

    now = datetime(2025, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds("7", now) == 7.0
    assert retry_after_seconds("Wed, 01 Jan 2025 12:00:30 GMT", now) == 30.0
    assert retry_after_seconds("Wed, 01 Jan 2025 11:00:00 GMT", now) == 0.0
    assert retry_after_seconds("soon", now) is None
    assert retry_after_seconds("nan", now) is None
    assert retry_after_seconds("-5", now) == 0.0


def test_token_usage_is_plain_data():
    from dataclasses import asdict

    usage = TokenUsage(calls=1, prompt_tokens=2, completion_tokens=3)
    assert asdict(usage) == {
        "calls": 1,
        "prompt_tokens": 2,
        "completion_tokens": 3,
        "estimated_calls": 0,
    }
    assert usage == TokenUsage(1, 2, 3) != TokenUsage(1, 2, 4)


def test_the_client_is_a_prompt_synthesizers_model(fake):
    from groundgraph import DocumentGraph
    from groundgraph.memory import PromptSynthesizer

    fake.push(chat_reply("Heavy rainfall caused flooding."))
    graph = DocumentGraph()
    graph.add_text("Heavy rainfall caused flooding.")
    reply = graph.answer("flooding", synthesizer=PromptSynthesizer(client(fake)))
    assert reply["answer"] == "Heavy rainfall caused flooding."
    assert reply["sentences"][0]["supported"]
    (seen,) = fake.requests
    assert "Heavy rainfall caused flooding." in json.dumps(seen.body)
