"""``groundgraph serve`` in a subprocess: it refuses an open server off loopback, says so on
loopback, reads its configuration from the environment, and makes keys."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx
import pytest

from groundgraph.service import KeyRing
from service_server import free_port

pytestmark = pytest.mark.slow


def groundgraph(*args: str, env: dict[str, str] | None = None, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        **kwargs,
    )


def test_it_refuses_to_listen_off_loopback_without_keys(tmp_path):
    done = groundgraph("--db", str(tmp_path / "m.db"), "serve", "--host", "0.0.0.0")
    assert done.returncode == 2
    assert "refusing to listen on 0.0.0.0 without API keys" in done.stderr
    assert "Traceback" not in done.stderr
    by_env = groundgraph("--db", str(tmp_path / "m.db"), "serve", env={"GROUNDGRAPH_HOST": "::"})
    assert by_env.returncode == 2 and "without API keys" in by_env.stderr


def test_a_bad_keys_file_is_one_clear_line(tmp_path):
    keys = tmp_path / "keys.json"
    keys.write_text('[{"name": "a", "sha256": "short", "scopes": ["x"]}]', encoding="utf-8")
    done = groundgraph("--db", str(tmp_path / "m.db"), "serve", "--keys", str(keys))
    assert done.returncode == 2 and "sha256" in done.stderr and "Traceback" not in done.stderr


def test_new_key_prints_a_key_and_the_entry_that_admits_it():
    done = groundgraph("serve", "--new-key", "acme/alice", "--read-only")
    made = json.loads(done.stdout)
    ring = KeyRing.load(None, json.dumps([made["entry"]]))
    access = ring.check(made["key"])
    assert access is not None and access.scopes == ("acme/alice",) and not access.writes
    assert made["key"] not in json.dumps(made["entry"])


def start(tmp_path, env: dict[str, str]) -> tuple[subprocess.Popen[str], list[str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "groundgraph", "--db", str(tmp_path / "m.db"), "serve"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )
    assert process.stderr is not None
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        lines.append(line)
        if " on http://" in line or not line:
            break
    return process, lines


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    process.wait(timeout=30)
    if process.stderr is not None:
        process.stderr.close()


def wait_until_up(base: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/health")
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("the server did not come up")


def test_on_loopback_it_serves_without_keys_and_says_so(tmp_path):
    port = free_port()
    process, lines = start(tmp_path, {"GROUNDGRAPH_PORT": str(port)})
    try:
        assert any("no API keys" in line for line in lines), lines
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base)
        pushed = httpx.post(base + "/sessions/s/memory", json={"text": "Heavy rain fell."})
        assert pushed.status_code == 200
        assert httpx.post(base + "/query", json={"query": "rain"}).json() == {
            "facts": ["Heavy rain fell."]
        }
    finally:
        stop(process)


def test_keys_from_the_environment_guard_every_route(tmp_path):
    made = json.loads(groundgraph("serve", "--new-key", "team").stdout)
    port = free_port()
    env = {"GROUNDGRAPH_PORT": str(port), "GROUNDGRAPH_KEYS": json.dumps([made["entry"]])}
    process, lines = start(tmp_path, env)
    try:
        assert any("1 API key" in line for line in lines), lines
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base)
        assert httpx.get(base + "/stats").status_code == 401
        key = {"X-API-Key": made["key"]}
        assert httpx.get(base + "/stats", headers=key).json()["facts"] == 0
    finally:
        stop(process)
