"""A scripted OpenAI-compatible server on loopback, for the LLM client's tests and docs.

It is a real HTTP server (stdlib ``http.server`` in a thread on a free port): the client
under test goes through real sockets, status codes and headers. Only the model is fake:
replies are scripted, or else a deterministic echo of the prompt.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering
    drip: float = 0.0  # seconds between body chunks of 16 bytes (a slow server)
    send_length: bool = True  # False: no Content-Length, the body ends when the socket closes


def chat_json(
    content: object, usage: object = "auto", model: str = "fake-model", finish: str = "stop"
) -> dict[str, Any]:
    """An OpenAI-style chat completion object."""
    data: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish,
            }
        ],
    }
    if usage == "auto":
        words = len(str(content).split())
        data["usage"] = {"prompt_tokens": 7, "completion_tokens": words, "total_tokens": 7 + words}
    elif usage is not None:
        data["usage"] = usage
    return data


def chat_reply(content: object = "hello there", usage: object = "auto", **options: Any) -> Reply:
    """A 200 reply carrying ``content``; ``usage`` "auto" counts 7 prompt tokens and one
    completion token per word, None leaves usage out, anything else is sent as given."""
    body = json.dumps(chat_json(content, usage)).encode()
    return Reply(200, body, {"Content-Type": "application/json"}, **options)


def status_reply(status: int, message: str = "scripted failure", **headers: str) -> Reply:
    body = json.dumps({"error": {"message": message, "type": "fake"}}).encode()
    return Reply(status, body, {"Content-Type": "application/json", **headers})


@dataclass
class Seen:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up mid-reply (timeouts, size caps) is expected, not news."""

    def handle_error(self, request: object, client_address: object) -> None:
        return


class FakeLLMServer:
    """Serves scripted replies in order, then echoes; records every request."""

    def __init__(self) -> None:
        self.script: deque[Reply] = deque()
        self.requests: list[Seen] = []
        self.active = 0  # requests being answered right now
        self.most_active = 0
        self._lock = threading.Lock()
        self._server = _QuietServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        assert isinstance(host, str)
        return f"http://{host}:{port}"

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self.script.extend(replies)

    def reset(self) -> None:
        with self._lock:
            self.script.clear()
            self.requests.clear()
            self.most_active = 0

    def start(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _next_reply(self, seen: Seen) -> Reply:
        with self._lock:
            self.requests.append(seen)
            if self.script:
                return self.script.popleft()
        messages = seen.body.get("messages", [])
        prompt = messages[-1]["content"] if messages else ""
        return chat_reply(f"echo: {prompt}")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    body = {"unreadable": raw.decode("utf-8", "replace")}
                seen = Seen(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                reply = server._next_reply(seen)
                with server._lock:
                    server.active += 1
                    server.most_active = max(server.most_active, server.active)
                try:
                    self._answer(reply)
                finally:
                    with server._lock:
                        server.active -= 1

            def _answer(self, reply: Reply) -> None:
                time.sleep(reply.delay)
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if reply.send_length:
                    self.send_header("Content-Length", str(len(reply.body)))
                else:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                try:
                    if reply.drip:
                        for start in range(0, len(reply.body), 16):
                            self.wfile.write(reply.body[start : start + 16])
                            self.wfile.flush()
                            time.sleep(reply.drip)
                    else:
                        self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up, as some tests make it do

        return Handler
