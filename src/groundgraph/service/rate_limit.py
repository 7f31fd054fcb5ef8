"""The optional rate limit: a token bucket per API key (per client address without one).

Each caller may send ``per_minute`` requests in a burst, and then one more every
``60 / per_minute`` seconds: its bucket holds ``per_minute`` tokens, a request takes one,
and tokens flow back at ``per_minute / 60`` a second. A request that finds the bucket empty
is answered 429 with ``Retry-After`` (whole seconds until a token is back) and a JSON
``{"detail": ...}`` that says the limit and when to retry; it costs the caller nothing.

Who a caller is: the name of the key it sent when that key is valid, else the address it
connects from (so a guesser of keys is held to the limit of its address). MCP over HTTP
(``/mcp``) is counted as any other route; the probes ``/health`` and ``/ready`` are never
limited. Buckets live in the process: each uvicorn worker counts on its own.

    limited = RateLimit(app, per_minute=120, keys=ring)
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.requests import Request

from groundgraph.errors import InputError
from groundgraph.service.guard import ASGIApp, Receive, Scope, Send
from groundgraph.service.keys import KeyRing, presented_key

#: Paths that are never limited (a load balancer's probes).
UNLIMITED_PATHS = frozenset({"/health", "/ready"})
#: The highest limit accepted (a request a millisecond, well past what one process serves).
MAX_PER_MINUTE = 60_000
#: How many callers' buckets are held before the full ones are dropped.
MAX_BUCKETS = 10_000


def check_rate(per_minute: object, where: str = "--rate-limit") -> int | None:
    """A limit as given (None or 0: off); anything but a whole number from 0 to
    MAX_PER_MINUTE is an InputError naming ``where``."""
    if per_minute is None:
        return None
    if isinstance(per_minute, bool) or not isinstance(per_minute, int):
        raise InputError(f"{where} takes a whole number of requests a minute")
    if not 0 <= per_minute <= MAX_PER_MINUTE:
        raise InputError(
            f"{where} is {per_minute}: give 1 to {MAX_PER_MINUTE:,} requests a minute, or 0 "
            "for no limit"
        )
    return per_minute or None


@dataclass
class _Bucket:
    tokens: float
    when: float


class TokenBuckets:
    """One token bucket per caller; :meth:`take` spends a token or says how long to wait."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute < 1:
            raise InputError("a rate limit is at least 1 request a minute")
        self.per_minute = per_minute
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: dict[str, _Bucket] = {}

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, caller: str) -> float:
        """Spend one of ``caller``'s tokens: 0.0 if there was one, else the seconds until
        there is one (nothing is spent)."""
        now = self.clock()
        bucket = self._buckets.get(caller)
        if bucket is None:
            self._make_room(now)
            bucket = self._buckets[caller] = _Bucket(float(self.per_minute), now)
        else:
            elapsed = max(0.0, now - bucket.when)
            bucket.tokens = min(float(self.per_minute), bucket.tokens + elapsed * self.rate)
            bucket.when = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate

    def _make_room(self, now: float) -> None:
        """Past MAX_BUCKETS callers, forget the buckets that have filled up again (they
        hold what a new bucket would); if none has, the fuller half. A caller that spent
        its tokens is forgotten last, so a flood of new addresses cannot refill it, and
        the sort is paid once per many new callers."""
        if len(self._buckets) < MAX_BUCKETS:
            return
        held = {
            name: min(float(self.per_minute), b.tokens + max(0.0, now - b.when) * self.rate)
            for name, b in self._buckets.items()
        }
        gone = [name for name, tokens in held.items() if tokens >= self.per_minute]
        if not gone:
            fullest = sorted(held, key=lambda name: (-held[name], name))
            gone = fullest[: max(1, len(fullest) // 2)]
        for name in gone:
            del self._buckets[name]


def caller_name(scope: Scope, keys: KeyRing) -> str:
    """Who a request counts against: ``key:NAME`` for a valid key, else ``client:ADDRESS``."""
    if keys:
        headers = Request(scope).headers
        presented = presented_key(headers.get("authorization"), headers.get("x-api-key"))
        access = keys.check(presented) if presented is not None else None
        if access is not None:
            return f"key:{access.key}"
    client = scope.get("client")
    return f"client:{client[0] if client else 'unknown'}"


class RateLimit:
    """Wraps an ASGI app with the limit of the module docstring."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        per_minute: int,
        keys: KeyRing,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.keys = keys
        self.buckets = TokenBuckets(per_minute, clock)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in UNLIMITED_PATHS:
            await self.app(scope, receive, send)
            return
        caller = caller_name(scope, self.keys)
        wait = self.buckets.take(caller)
        if wait <= 0.0:
            await self.app(scope, receive, send)
            return
        who = "key" if caller.startswith("key:") else "client address"
        await self._refuse(send, who, max(1, math.ceil(wait)))

    async def _refuse(self, send: Send, who: str, retry_after: int) -> None:
        limit = self.buckets.per_minute
        detail = (
            f"rate limit: at most {limit:,} requests a minute for this {who}; "
            f"retry in {retry_after} s"
        )
        body = json.dumps({"detail": detail}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(retry_after).encode()),
        ]
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})
