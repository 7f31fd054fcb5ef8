"""The ASGI guard in front of every route: Host and Origin checks and the body limit.

- ``Host`` must be one of the allowed hosts (any port) when a list is given: a page on
  another site that rebinds its DNS name to 127.0.0.1 sends its own name, and gets 421;
- a browser's ``Origin``, when sent, must be an allowed origin or the server's own host:
  403 otherwise (absent Origin, as from curl or an SDK, is fine);
- a body over ``max_body_bytes`` is refused with 413, by its Content-Length before it is
  read, or as soon as the bytes streamed in pass the limit.

Each refusal says why in its body, not only in the server log.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")


def host_name(host: str) -> str:
    """``host`` without its port (``[::1]:8000`` -> ``[::1]``)."""
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RequestGuard:
    """Wraps an ASGI app with the checks of the module docstring."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        allowed_hosts: Sequence[str] | None,
        allowed_origins: Sequence[str] = (),
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.allowed_hosts = None if allowed_hosts is None else {h.lower() for h in allowed_hosts}
        self.allowed_origins = {o.rstrip("/").lower() for o in allowed_origins}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if self.allowed_hosts is not None and host_name(host.lower()) not in self.allowed_hosts:
            await _refuse(
                send,
                421,
                f"Host {host[:100]!r} is not served here: add it to GROUNDGRAPH_ALLOWED_HOSTS",
            )
            return
        origin = headers.get("origin")
        if origin is not None and not self._origin_ok(origin, host):
            await _refuse(
                send,
                403,
                f"Origin {origin[:100]!r} is not allowed: add it to GROUNDGRAPH_CORS_ORIGINS",
            )
            return
        length = headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body_bytes:
            await _refuse(send, 413, self._too_large())
            return
        await self._limited(scope, receive, send)

    def _origin_ok(self, origin: str, host: str) -> bool:
        if origin.rstrip("/").lower() in self.allowed_origins:
            return True
        return urlsplit(origin).netloc.lower() == host.lower()

    def _too_large(self) -> str:
        return f"the request body is over the limit of {self.max_body_bytes:,} bytes"

    async def _limited(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read a body of unknown length up to the limit before the app sees it, then
        hand it over as one message (413 as soon as it passes the limit)."""
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_body_bytes:
                await _refuse(send, 413, self._too_large())
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        whole = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    """A receive that gives ``messages`` first, then what ``then`` gives."""
    pending = list(messages)

    async def receive() -> Message:
        if pending:
            return pending.pop(0)
        if then is None:
            return {"type": "http.disconnect"}
        return await then()

    return receive
