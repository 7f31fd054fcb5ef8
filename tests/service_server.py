"""A real uvicorn serving a groundgraph app on a free loopback port, for the service tests.

with running(create_app(service, keys=ring)) as base:
    httpx.get(base + "/health")
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from groundgraph.service import ApiKey, KeyRing, hash_key

#: The keys of the auth matrix: name -> (key, scopes or None for '*', writes).
MATRIX_KEYS: dict[str, tuple[str, tuple[str, ...] | None, bool]] = {
    "admin": ("key-admin-0123456789", None, True),
    "alice": ("key-alice-0123456789", ("acme/alice",), True),
    "alice-ro": ("key-alice-ro-0123456", ("acme/alice",), False),
    "bob": ("key-bob-0123456789ab", ("acme/bob",), True),
}


def matrix_ring() -> KeyRing:
    return KeyRing(
        ApiKey(name, hash_key(key), scopes, writes)
        for name, (key, scopes, writes) in MATRIX_KEYS.items()
    )


def bearer(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {MATRIX_KEYS[name][0]}"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread; yields its base URL; stops it after."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
