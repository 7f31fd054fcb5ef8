"""Reading an OpenAI-style chat completion reply, strictly.

Only the fields we use are read, and each one is checked: a reply without
``choices[0].message.content`` raises ``LLMResponseError`` naming what was missing, never a
``KeyError`` from deep inside. Token counts come from ``usage``; a server that omits it is
counted by the estimate in ``groundgraph.llm.usage``.
"""

from __future__ import annotations

import json
from typing import Any

from groundgraph.errors import LLMResponseError
from groundgraph.llm.usage import Completion, estimate_tokens

SHOWN_CHARS = 300  # how much of a bad reply an error message quotes


def excerpt(body: bytes) -> str:
    """The start of a reply body, printable, for an error message."""
    text = body[: SHOWN_CHARS * 4].decode("utf-8", errors="replace")
    text = " ".join(text.split())
    return text[:SHOWN_CHARS] + ("…" if len(text) > SHOWN_CHARS else "")


def _load_json(body: bytes) -> Any:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LLMResponseError(
            f"the LLM reply is not UTF-8 text (bad byte at {error.start}): "
            "check that base_url points at an OpenAI-compatible server"
        ) from error
    try:
        return json.loads(text)
    except RecursionError as error:
        raise LLMResponseError("the LLM reply is JSON nested too deeply to read") from error
    except json.JSONDecodeError as error:
        raise LLMResponseError(
            f"the LLM reply is not JSON ({error.msg} at {error.pos}): {excerpt(body)!r}; "
            "check that base_url points at an OpenAI-compatible server"
        ) from error


def error_detail(body: bytes) -> str:
    """What an error reply says, whether it is OpenAI-style JSON, FastAPI JSON or text."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return excerpt(body)
    if isinstance(data, dict):
        error = data.get("error", data.get("detail"))
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return excerpt(error["message"].encode("utf-8"))
        if isinstance(error, str):
            return excerpt(error.encode("utf-8"))
    return excerpt(body)


def _count(usage: dict[str, Any], name: str) -> int:
    value = usage.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise LLMResponseError(
            f"the LLM reply's usage.{name} is {value!r}, not a whole number ≥ 0: "
            "the server's token accounting is broken; use a server that reports usage "
            "correctly or none at all"
        )
    return value


def parse_chat_completion(body: bytes, sent_text: str) -> Completion:
    """The text and token counts of a ``/v1/chat/completions`` reply.

    ``sent_text`` is everything the request carried (system prompt and prompt), used only
    to estimate prompt tokens when the reply has no ``usage``.
    """
    data = _load_json(body)
    if not isinstance(data, dict):
        raise LLMResponseError(
            f"the LLM reply is a JSON {type(data).__name__}, not an object with 'choices': "
            f"{excerpt(body)!r}"
        )
    if "choices" not in data:
        detail = f": the server says {error_detail(body)!r}" if "error" in data else ""
        raise LLMResponseError(f"the LLM reply has no 'choices'{detail}")
    choices = data["choices"]
    if not isinstance(choices, list) or not choices:
        raise LLMResponseError(
            f"the LLM reply's 'choices' is {choices!r:.80}, not a list of answers"
        )
    first = choices[0]
    message = first.get("message") if isinstance(first, dict) else None
    if not isinstance(message, dict):
        raise LLMResponseError("the LLM reply has no 'choices[0].message' object")
    content = message.get("content")
    finish = first.get("finish_reason")
    finish_reason = finish if isinstance(finish, str) else None
    if not isinstance(content, str):
        raise LLMResponseError(
            f"the LLM reply's 'choices[0].message.content' is {type(content).__name__}, "
            f"not text (finish_reason {finish_reason!r}): the model answered without text"
        )
    model = data.get("model")
    model_name = model if isinstance(model, str) else None
    usage = data.get("usage")
    if usage is None:
        return Completion(
            content,
            estimate_tokens(sent_text),
            estimate_tokens(content),
            estimated=True,
            finish_reason=finish_reason,
            model=model_name,
        )
    if not isinstance(usage, dict):
        raise LLMResponseError(f"the LLM reply's 'usage' is {usage!r:.80}, not an object")
    return Completion(
        content,
        _count(usage, "prompt_tokens"),
        _count(usage, "completion_tokens"),
        finish_reason=finish_reason,
        model=model_name,
    )
