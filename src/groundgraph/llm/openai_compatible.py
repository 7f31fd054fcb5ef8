"""A client for any server that speaks OpenAI's ``/v1/chat/completions``.

Ollama, vLLM, llama.cpp's server, LM Studio and the hosted APIs all do. One ``httpx.Client``
(a connection pool, safe to share) serves every thread; usage and budget updates take a
lock, so Graph-of-Thought branches may call one client concurrently. httpx is imported
when a client is made, so ``import groundgraph`` works without the ``[llm]`` extra.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from groundgraph.errors import (
    InputError,
    InputTooLargeError,
    LLMConnectionError,
    LLMError,
    LLMResponseError,
)
from groundgraph.llm.budget import LLMBudget, call_within
from groundgraph.llm.reply import error_detail, parse_chat_completion
from groundgraph.llm.retry import is_retryable_status, retry_delay
from groundgraph.llm.usage import Completion, TokenUsage

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)

MAX_PROMPT_CHARS = 1_000_000  # ~250k tokens: past the context window of most models
MAX_RESPONSE_BYTES = 8 * 1024 * 1024  # a chat reply is text; megabytes mean a wrong server
CHAT_PATH = "/v1/chat/completions"

_STATUS_HINTS = {
    400: "the server rejected the request: check the model name, max_tokens and prompt length",
    401: "the server wants an API key: set api_key_env to the variable that holds it",
    403: "the API key was refused: check the key in api_key_env and its permissions",
    404: f"no such endpoint or model: check base_url (we POST to base_url + {CHAT_PATH!r}) "
    "and the model name",
    413: "the request is too large for the server: shorten the prompt",
    422: "the server could not use the request: check the model name and options",
    429: "the server is rate limiting: wait, lower concurrency, or raise max_retries",
}


def chat_endpoint(base_url: str) -> str:
    """``base_url`` (with or without ``/v1``, or a full ``…/chat/completions`` URL) → the
    chat completions URL."""
    if not isinstance(base_url, str) or not base_url.strip():
        raise InputError("base_url must be the server's URL, e.g. 'http://localhost:11434'")
    url = base_url.strip()
    wrong = f"base_url {base_url!r} is not an http(s) URL: give e.g. 'http://localhost:8000'"
    if not url.isprintable() or any(char.isspace() for char in url):
        raise InputError(wrong + " (it has spaces or control characters)")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (parsing the port is the check)
    except ValueError as error:
        raise InputError(f"{wrong} ({error})") from error
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(wrong)
    if parts.query or parts.fragment:
        raise InputError(f"base_url {base_url!r} must not carry a query or fragment")
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if url.endswith("/v1"):
        url = url[: -len("/v1")]
    return url + CHAT_PATH


def _number(name: str, value: object, low: float, high: float | None = None) -> float:
    span = f"between {low} and {high}" if high is not None else f"≥ {low}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{name} must be a number {span}, not {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < low or (high is not None and number > high):
        raise InputError(f"{name} must be a number {span}, not {value!r}")
    return number


def _count(name: str, value: object, low: int, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InputError(f"{name} must be a whole number ≥ {low}, not {value!r}")
    return value


def _text(name: str, value: object, limit: int, if_empty: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"{name} must be str, not {type(value).__name__}")
    if not value.strip():
        raise InputError(f"{name} is empty: {if_empty}")
    if len(value) > limit:
        raise InputTooLargeError(
            name, len(value), limit, hint="shorten it, or raise max_prompt_chars on the client"
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InputError(
            f"{name} is not valid Unicode text (a lone surrogate at {error.start})"
        ) from error
    return value


def _api_key(variable: object) -> str:
    """The key held by the environment variable named ``variable``, checked."""
    if not isinstance(variable, str) or not variable:
        raise InputError(f"api_key_env must name an environment variable, not {variable!r}")
    key = os.environ.get(variable, "").strip()
    if not key:
        raise InputError(
            f"api_key_env names ${variable}, which is not set: export it with "
            "your API key, or pass api_key_env=None for a server without keys"
        )
    if not (key.isascii() and key.isprintable()) or any(char.isspace() for char in key):
        raise InputError(
            f"${variable} does not hold a valid API key (it has spaces, line breaks "
            "or non-ASCII characters): copy the key again"
        )
    return key


class OpenAICompatibleLLM:
    """``llm(prompt) -> str`` over an OpenAI-compatible chat completions server.

    Each call sends the optional ``system`` prompt and ``prompt`` as messages; connection
    errors, 429 and 5xx are retried ``max_retries`` times with backoff (honouring
    Retry-After up to ``max_retry_wait`` seconds), other errors are raised at once.
    ``timeout`` bounds one attempt, first byte sent to last byte read.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        temperature: float = 0.0,
        max_tokens: int | None = None,
        system: str | None = None,
        budget: LLMBudget | None = None,
        max_prompt_chars: int = MAX_PROMPT_CHARS,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        retry_backoff: float = 0.5,
        max_retry_wait: float = 30.0,
    ) -> None:
        self.endpoint = chat_endpoint(base_url)
        self.base_url = base_url
        if not isinstance(model, str) or not model.strip():
            raise InputError("model must name the model to use, e.g. 'llama3.2'")
        self.model = model
        self.timeout = _number("timeout", timeout, 0.001)
        self.max_retries = _count("max_retries", max_retries, 0) or 0
        self.temperature = _number("temperature", temperature, 0.0, 2.0)
        self.max_tokens = _count("max_tokens", max_tokens, 1, optional=True)
        self.max_prompt_chars = _count("max_prompt_chars", max_prompt_chars, 1) or 1
        self.max_response_bytes = _count("max_response_bytes", max_response_bytes, 1) or 1
        self.retry_backoff = _number("retry_backoff", retry_backoff, 0.0)
        self.max_retry_wait = _number("max_retry_wait", max_retry_wait, 0.0)
        self.system = (
            None
            if system is None
            else _text("system", system, self.max_prompt_chars, "pass None for no system prompt")
        )
        if budget is not None and not isinstance(budget, LLMBudget):
            raise InputError(f"budget must be an LLMBudget or None, not {type(budget).__name__}")
        self.budget = budget
        self.usage = TokenUsage()
        self._headers = {"Content-Type": "application/json", "User-Agent": "groundgraph"}
        if api_key_env is not None:
            self._headers["Authorization"] = f"Bearer {_api_key(api_key_env)}"
        self.api_key_env = api_key_env
        try:
            import httpx
        except ImportError as error:
            raise LLMError(
                "OpenAICompatibleLLM needs httpx, which is not installed: "
                "pip install 'groundgraph[llm]'"
            ) from error
        try:
            httpx.URL(self.endpoint)
        except httpx.InvalidURL as error:
            raise InputError(f"base_url {base_url!r} is not a usable URL: {error}") from error
        self._client: httpx.Client = httpx.Client(timeout=httpx.Timeout(self.timeout))

    def __call__(self, prompt: str) -> str:
        return self.complete(prompt).text

    def complete(self, prompt: str, *, system: str | None = None) -> Completion:
        """Answer ``prompt``: its text, token counts and finish reason. ``system`` replaces
        the client's system prompt for this call."""
        _text("prompt", prompt, self.max_prompt_chars, "give the text the model should answer")
        if system is not None:
            _text("system", system, self.max_prompt_chars, "pass None for the client's own")
        said = self.system if system is None else system
        completion = call_within(
            self.budget, prompt, lambda text: self._complete_unbudgeted(text, said)
        )
        self.usage.add(completion)
        return completion

    def _request_body(self, prompt: str, system: str | None = None) -> bytes:
        messages = [{"role": "user", "content": prompt}]
        if system is not None:
            messages.insert(0, {"role": "system", "content": system})
        body: dict[str, object] = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "stream": False,
        }
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        return json.dumps(body, ensure_ascii=False).encode("utf-8")

    def _complete_unbudgeted(self, prompt: str, system: str | None) -> Completion:
        body = self._post(self._request_body(prompt, system))
        sent = prompt if system is None else system + "\n" + prompt
        return parse_chat_completion(body, sent)

    def _post(self, content: bytes) -> bytes:
        """POST with retries; the reply body of the first 2xx answer."""
        import httpx

        attempts = self.max_retries + 1
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                status, body, retry_after = self._send_once(content)
            except httpx.TransportError as error:
                if last:
                    raise LLMConnectionError(
                        f"could not get an answer from {self.endpoint} in {attempts} "
                        f"attempt(s): {type(error).__name__}: {error or 'no detail'}; check "
                        "that the server is running, that base_url is right, and the timeout"
                    ) from error
                delay = retry_delay(attempt, None, self.retry_backoff, self.max_retry_wait)
                log.info("LLM call failed (%s); retrying in %.2fs", type(error).__name__, delay)
                time.sleep(delay)
                continue
            if 200 <= status < 300:
                return body
            if is_retryable_status(status) and not last:
                delay = retry_delay(attempt, retry_after, self.retry_backoff, self.max_retry_wait)
                log.info("LLM server answered %d; retrying in %.2fs", status, delay)
                time.sleep(delay)
                continue
            retried = is_retryable_status(status) and attempts > 1
            tried = f" after {attempts} attempts" if retried else ""
            hint = _STATUS_HINTS.get(status, "the server failed: check its log")
            if 300 <= status < 400:
                hint = "the server redirects: put the URL it points to in base_url"
            raise LLMResponseError(
                f"{self.endpoint} answered HTTP {status}{tried}: {error_detail(body)!r}; {hint}",
                status_code=status,
            )
        raise AssertionError("unreachable: the loop returns or raises")  # pragma: no cover

    def _send_once(self, content: bytes) -> tuple[int, bytes, str | None]:
        """One POST: status, body (capped) and the Retry-After header."""
        import httpx

        deadline = time.monotonic() + self.timeout
        with self._client.stream(
            "POST", self.endpoint, content=content, headers=self._headers
        ) as response:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > self.max_response_bytes:
                raise self._too_large(int(declared))
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > self.max_response_bytes:
                    raise self._too_large(size)
                if time.monotonic() > deadline:
                    raise httpx.ReadTimeout(f"the reply took longer than {self.timeout}s")
                chunks.append(chunk)
            return response.status_code, b"".join(chunks), response.headers.get("retry-after")

    def _too_large(self, size: int) -> LLMResponseError:
        return LLMResponseError(
            f"the reply from {self.endpoint} is over {self.max_response_bytes:,} bytes "
            f"(at least {size:,}): check that base_url points at a chat completions server, "
            "or raise max_response_bytes"
        )

    def close(self) -> None:
        """Close the connection pool; the client cannot be used after."""
        self._client.close()

    def __del__(self) -> None:
        # A client dropped without close() would leak its pooled sockets.
        client = getattr(self, "_client", None)
        if client is not None:
            with contextlib.suppress(Exception):
                client.close()

    def __enter__(self) -> OpenAICompatibleLLM:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"OpenAICompatibleLLM({self.endpoint!r}, model={self.model!r})"
