"""What every HTTP route shares: who the caller is (its key), the field limits checked
before a body is parsed, and running a service call on a worker thread.

A read that runs longer than the limit is answered 504 (its thread finishes on its own);
a write is never cut short: it is answered once it is committed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from functools import partial
from typing import Any

import anyio
from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.responses import Response

from groundgraph.model.valid_text import valid_json
from groundgraph.service.access import Access
from groundgraph.service.keys import KeyRing, presented_key
from groundgraph.service.limits import FieldTooLargeError, Limits
from groundgraph.service.memory_service import MemoryService

UNAUTHORISED = "invalid or missing API key"


@dataclass(frozen=True)
class Calls:
    """The service and limits of one app, and how a route calls the service."""

    service: MemoryService
    limits: Limits

    async def read(self, method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            with anyio.fail_after(self.limits.timeout_seconds):
                found = await anyio.to_thread.run_sync(
                    partial(method, *args, **kwargs), abandon_on_cancel=True
                )
                return valid_json(found)
        except TimeoutError:
            raise HTTPException(
                504, f"the request took over {self.limits.timeout_seconds:g} s: narrow it"
            ) from None

    async def write(self, method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return valid_json(await anyio.to_thread.run_sync(partial(method, *args, **kwargs)))


def calls(request: Request) -> Calls:
    found: Calls = request.app.state.calls
    return found


def caller(request: Request) -> Access:
    """The caller's access: its key's, or everything when the app has no keys (loopback)."""
    keys: KeyRing = request.app.state.keys
    if not keys:
        return Access.everything()
    presented = presented_key(
        request.headers.get("authorization"), request.headers.get("x-api-key")
    )
    access = keys.check(presented) if presented is not None else None
    if access is None:
        raise HTTPException(401, UNAUTHORISED, headers={"WWW-Authenticate": "Bearer"})
    return access


class LimitedRoute(APIRoute):
    """A route whose JSON body is held to the app's field limits before it is parsed:
    a text or list over its limit is a 422 naming the field and the limit."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def limited(request: Request) -> Response:
            raw = await request.body()
            if raw:
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None  # FastAPI answers the parse error itself
                if isinstance(body, dict):
                    limits: Limits = request.app.state.calls.limits
                    try:
                        limits.check(body)
                    except FieldTooLargeError as error:
                        raise RequestValidationError([field_error(error)]) from None
            return await handler(request)

        return limited


def field_error(error: FieldTooLargeError) -> dict[str, Any]:
    """A FastAPI-style validation error for a field over its limit."""
    return {
        "type": "too_long",
        "loc": ["body", *error.field.split(".")],
        "msg": str(error),
        "input": None,
        "ctx": {"limit": error.limit, "unit": error.unit, "size": error.size},
    }
