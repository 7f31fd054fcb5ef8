"""The optional rate limit: token buckets with an injected clock, and a real uvicorn that
answers 429 with Retry-After past the limit, per key, over HTTP and MCP alike."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx
import pytest

from groundgraph.errors import InputError
from groundgraph.service import MemoryService, rate_limit
from groundgraph.service.http_app import create_app
from groundgraph.service.mcp_server import create_mcp
from groundgraph.service.rate_limit import RateLimit, TokenBuckets, check_rate
from groundgraph.service.serve import config_from
from service.test_service_serve_cli import start, stop, wait_until_up
from service_server import bearer, free_port, matrix_ring, running

MCP_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
MCP_ACCEPT = {"Accept": "application/json, text/event-stream"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_gives_its_burst_then_says_how_long_to_wait():
    clock = Clock()
    buckets = TokenBuckets(6, clock)  # a token every 10 s
    assert [buckets.take("a") for _ in range(6)] == [0.0] * 6
    wait = buckets.take("a")
    assert wait == pytest.approx(10.0)
    clock.now += 4.0
    assert buckets.take("a") == pytest.approx(6.0), "a refused request spends nothing"
    clock.now += 6.0
    assert buckets.take("a") == 0.0
    assert buckets.take("a") > 0.0


def test_a_bucket_refills_no_higher_than_its_limit():
    clock = Clock()
    buckets = TokenBuckets(3, clock)
    for _ in range(3):
        buckets.take("a")
    clock.now += 3600.0
    assert [buckets.take("a") for _ in range(3)] == [0.0] * 3
    assert buckets.take("a") > 0.0


def test_two_callers_have_their_own_buckets():
    buckets = TokenBuckets(2, Clock())
    assert buckets.take("a") == buckets.take("a") == 0.0
    assert buckets.take("a") > 0.0
    assert buckets.take("b") == 0.0


def test_a_flood_of_new_callers_holds_a_bounded_number_of_buckets(monkeypatch):
    monkeypatch.setattr(rate_limit, "MAX_BUCKETS", 50)
    clock = Clock()
    buckets = TokenBuckets(10, clock)
    for _ in range(10):
        buckets.take("key:spender")
    sizes = []
    for i in range(5_000):
        buckets.take(f"client:10.0.{i // 256}.{i % 256}")
        sizes.append(len(buckets))
        clock.now += 0.001
    assert max(sizes) <= 50
    # the flood made room by forgetting fuller buckets, never the one that was spent
    assert buckets.take("key:spender") > 0.0


@pytest.mark.parametrize("bad", [-1, 60_001, True, "12", 1.5])
def test_a_bad_limit_is_an_error_that_names_the_setting(bad):
    with pytest.raises(InputError, match="GROUNDGRAPH_RATE_LIMIT"):
        check_rate(bad, "GROUNDGRAPH_RATE_LIMIT")


def test_the_limit_comes_from_the_flag_else_the_environment():
    assert config_from({"db": "m.db"}, {}).rate_limit is None
    assert config_from({"db": "m.db"}, {"GROUNDGRAPH_RATE_LIMIT": "0"}).rate_limit is None
    assert config_from({"db": "m.db"}, {"GROUNDGRAPH_RATE_LIMIT": "90"}).rate_limit == 90
    flag = config_from({"db": "m.db", "rate_limit": 30}, {"GROUNDGRAPH_RATE_LIMIT": "90"})
    assert flag.rate_limit == 30
    assert any("30 requests a minute" in note for note in flag.check())
    with pytest.raises(InputError, match="GROUNDGRAPH_RATE_LIMIT='lots'"):
        config_from({"db": "m.db"}, {"GROUNDGRAPH_RATE_LIMIT": "lots"})


def test_over_the_limit_a_key_gets_429_with_retry_after(service):
    app = create_app(service, keys=matrix_ring(), allowed_hosts=["127.0.0.1"], rate_limit=5)
    with running(app) as base, httpx.Client(base_url=base) as client:
        answers = [client.get("/sessions", headers=bearer("alice")) for _ in range(6)]
        assert [a.status_code for a in answers[:5]] == [200] * 5
        refused = answers[5]
        assert refused.status_code == 429
        retry = int(refused.headers["retry-after"])
        assert 1 <= retry <= 12  # a token comes back every 60 / 5 s
        detail = refused.json()["detail"]
        assert "5 requests a minute for this key" in detail and f"retry in {retry} s" in detail
        # another key has its own bucket; the probes are never limited
        assert client.get("/sessions", headers=bearer("bob")).status_code == 200
        assert {client.get("/health").status_code for _ in range(10)} == {200}
        assert client.get("/ready").status_code == 200
        # a refused caller's writes are refused too, and nothing is stored
        pushed = client.post(
            "/sessions/acme/alice/memory", json={"text": "Over the limit."}, headers=bearer("alice")
        )
        assert pushed.status_code == 429
    assert not service.facts(["Over the limit."])["facts"][0]["stored"]


def test_without_a_valid_key_a_caller_counts_by_its_address(service):
    app = create_app(service, keys=matrix_ring(), allowed_hosts=["127.0.0.1"], rate_limit=3)
    with running(app) as base, httpx.Client(base_url=base) as client:
        guesses = [
            client.get("/sessions", headers={"X-API-Key": f"guess-{i}"}).status_code
            for i in range(4)
        ]
        assert guesses == [401, 401, 401, 429]
        last = client.get("/sessions", headers={"X-API-Key": "guess-again"})
        assert "for this client address" in last.json()["detail"]
        assert client.get("/sessions", headers=bearer("alice")).status_code == 200


def test_mcp_over_http_is_counted_with_the_other_routes(service):
    ring = matrix_ring()
    mcp = create_mcp(service, keys=ring)
    app = create_app(service, keys=ring, allowed_hosts=["127.0.0.1"], mcp=mcp, rate_limit=3)
    with running(app) as base, httpx.Client(base_url=base) as client:
        alice = {**bearer("alice"), **MCP_ACCEPT}
        assert client.get("/sessions", headers=alice).status_code == 200
        assert client.post("/mcp", json=MCP_LIST, headers=alice).status_code == 200
        assert client.post("/mcp", json=MCP_LIST, headers=alice).status_code == 200
        refused = client.post("/mcp", json=MCP_LIST, headers=alice)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert "rate limit" in refused.json()["detail"]
        bob = {**bearer("bob"), **MCP_ACCEPT}
        assert client.post("/mcp", json=MCP_LIST, headers=bob).status_code == 200


def test_on_a_real_server_the_bucket_refills_with_time(service):
    ring = matrix_ring()
    clock = Clock()
    inner = create_app(service, keys=ring, allowed_hosts=["127.0.0.1"])
    app = RateLimit(inner, per_minute=2, keys=ring, clock=clock)
    with running(app) as base, httpx.Client(base_url=base, headers=bearer("alice")) as client:
        assert [client.get("/stats").status_code for _ in range(3)] == [200, 200, 429]
        assert client.get("/stats").headers["retry-after"] == "30"
        clock.now += 29.0
        assert client.get("/stats").headers["retry-after"] == "1"
        clock.now += 1.0
        assert client.get("/stats").status_code == 200
        assert client.get("/stats").status_code == 429


def test_a_limit_off_is_no_wrapper():
    app = create_app(MemoryService(), rate_limit=0)
    assert not isinstance(app, RateLimit)
    assert isinstance(create_app(MemoryService(), rate_limit=10), RateLimit)


@pytest.mark.slow
def test_a_bad_limit_stops_serve_with_one_clear_line(tmp_path):
    env = {**os.environ, "GROUNDGRAPH_RATE_LIMIT": "-5"}
    done = subprocess.run(
        [sys.executable, "-m", "groundgraph", "--db", str(tmp_path / "m.db"), "serve"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 2, done.stderr
    assert "GROUNDGRAPH_RATE_LIMIT is -5" in done.stderr and "Traceback" not in done.stderr
    flag = subprocess.run(
        [sys.executable, "-m", "groundgraph", "serve", "--rate-limit", "-1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert flag.returncode == 2 and "--rate-limit" in flag.stderr


@pytest.mark.slow
def test_groundgraph_serve_limits_by_the_environment(tmp_path):
    port = free_port()
    process, lines = start(tmp_path, {"GROUNDGRAPH_PORT": str(port), "GROUNDGRAPH_RATE_LIMIT": "3"})
    try:
        assert any("rate limit: 3 requests a minute per client address" in x for x in lines), lines
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base)  # /health: not counted
        codes = [httpx.get(base + "/stats").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
    finally:
        stop(process)
