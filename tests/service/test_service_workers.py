"""``groundgraph serve --workers N``: several uvicorn workers over one PostgreSQL store,
each answering for the others' writes and jobs; over SQLite, refused in one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx
import pytest

from postgres_server import fresh_schema_url
from service_server import free_port

pytestmark = pytest.mark.slow


def test_several_workers_over_sqlite_are_refused_in_one_line(tmp_path):
    for args, env in (
        (["serve", "--workers", "2"], {}),
        (["serve"], {"GROUNDGRAPH_SERVE_WORKERS": "3"}),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "groundgraph", "--db", str(tmp_path / "m.db"), *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, **env},
        )
        assert done.returncode == 2, done.stderr
        assert "needs a PostgreSQL store" in done.stderr and "one writer" in done.stderr
        assert "--workers 1" in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "m.db").exists()


def _bound_clients(base: str) -> tuple[dict[int, httpx.Client], list[httpx.Client]]:
    """Keep-alive clients until two are held by different workers (pid -> client)."""
    by_worker: dict[int, httpx.Client] = {}
    opened = []
    deadline = time.monotonic() + 60
    while len(by_worker) < 2 and time.monotonic() < deadline:
        client = httpx.Client(base_url=base, timeout=30)
        opened.append(client)
        worker = client.get("/health").json()["worker"]
        by_worker.setdefault(worker, client)
    return by_worker, opened


def _same_worker(client: httpx.Client, worker: int) -> None:
    assert client.get("/health").json()["worker"] == worker, "the connection moved"


@pytest.mark.postgres
def test_two_workers_over_postgres_see_each_others_writes_and_jobs(tmp_path):
    url = fresh_schema_url("workers")
    notes = tmp_path / "docs" / "notes"
    notes.mkdir(parents=True)
    (notes / "river.md").write_text("# River\n\nThe Zephyr river floods in spring.\n", "utf-8")
    port = free_port()
    args = ["--db", url, "serve", "--workers", "2", "--port", str(port)]
    process = subprocess.Popen(
        [sys.executable, "-m", "groundgraph", *args, "--ingest-root", str(tmp_path / "docs")],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    opened: list[httpx.Client] = []
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        while line and " on http://" not in line:
            line = process.stderr.readline()
        assert "(2 workers)" in line, line
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(base + "/ready").raise_for_status()
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        by_worker, opened = _bound_clients(base)
        assert len(by_worker) == 2, "one worker answered every connection"
        assert process.pid not in by_worker  # the workers, not uvicorn's supervisor
        (one, first), (other, second) = by_worker.items()
        for n in range(5):
            fact = f"Storm {n} closed the harbour."
            pushed = first.post("/sessions/port/memory", json={"text": fact})
            assert pushed.status_code == 200, pushed.text
            found = second.post("/query", json={"query": f"storm {n} harbour"}).json()
            assert fact in found["facts"], found
        assert second.get("/stats").json()["facts"] == first.get("/stats").json()["facts"] == 5
        job = second.post("/jobs", json={"paths": ["notes"]})
        assert job.status_code == 202, job.text
        record = job.json()
        while record["status"] in ("queued", "running") and time.monotonic() < deadline + 60:
            time.sleep(0.2)
            record = first.get(f"/jobs/{record['id']}").json()
        assert record["status"] == "done" and record["added"] == 1, record
        hits = first.post("/graph/search", json={"query": "Zephyr river floods"}).json()
        assert hits, "the document the other worker indexed is searchable here"
        _same_worker(first, one)
        _same_worker(second, other)
    finally:
        for client in opened:
            client.close()
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        process.stderr.close()  # type: ignore[union-attr]
