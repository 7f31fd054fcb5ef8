"""``groundgraph reason`` end to end: a real subprocess against a loopback OpenAI-style server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from groundgraph import DocumentGraph
from thought_fakes import BAKERY, GUIDE

# Every test here runs the CLI in a subprocess.
pytestmark = pytest.mark.slow

QUESTION = "My config fails. What should I check?"
EDIT = "Edit config.json to customize settings."
SEE = "If config fails, see the Configuration section."
PROMPT_TOKENS, COMPLETION_TOKENS = 120, 9


def model_reply(prompt: str) -> str:
    """The fake model: two candidates to generate, then a merge of both."""
    if "candidate answers" in prompt:
        return json.dumps({"thoughts": [{"answer": EDIT}, {"answer": SEE}, {"answer": "Pray."}]})
    if "Merge the candidates" in prompt:
        return json.dumps({"answer": f"{SEE} {EDIT}"})
    return json.dumps({"answer": "Unexpected."})


class FakeOpenAI(BaseHTTPRequestHandler):
    requests: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        FakeOpenAI.requests.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        prompt = body["messages"][-1]["content"]
        data = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": model_reply(prompt)},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": PROMPT_TOKENS,
                "completion_tokens": COMPLETION_TOKENS,
                "total_tokens": PROMPT_TOKENS + COMPLETION_TOKENS,
            },
        }
        payload = json.dumps(data).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
        pass


@pytest.fixture
def server() -> Iterator[str]:
    FakeOpenAI.requests = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeOpenAI)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "graph.db"
    with DocumentGraph(path) as graph:
        graph.add_document(GUIDE, "User Guide")
        graph.add_document(BAKERY, "Bakery Handbook")
    return path


def run(
    db: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "groundgraph", "--db", str(db), "reason", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_reason_prints_answer_claims_citations_and_calls(db, server):
    result = run(db, QUESTION, "--llm-url", server, "--model", "tiny")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"{SEE} {EDIT}"
    assert f"  supported   1.00  {SEE}  [user-guide#4]" in lines
    assert f"  supported   1.00  {EDIT}  [user-guide#2]" in lines
    assert "  [user-guide#4] Troubleshooting" in lines and "  [user-guide#2] Configuration" in lines
    calls = len(FakeOpenAI.requests)
    assert calls == 2
    total = calls * (PROMPT_TOKENS + COMPLETION_TOKENS)
    assert (
        f"LLM calls: {calls} of 16; tokens: {total:,} (prompt {calls * PROMPT_TOKENS:,}, "
        f"completion {calls * COMPLETION_TOKENS:,})"
    ) in lines
    request = FakeOpenAI.requests[0]
    assert request["path"] == "/v1/chat/completions" and request["body"]["model"] == "tiny"
    assert QUESTION in request["body"]["messages"][-1]["content"]


def test_reason_json(db, server):
    result = run(db, QUESTION, "--llm-url", server + "/v1", "--model", "tiny", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["answer"] == f"{SEE} {EDIT}" and data["unsupported"] == []
    assert data["llmCalls"] == len(FakeOpenAI.requests) == 2
    assert data["tokens"] == {
        "promptTokens": 2 * PROMPT_TOKENS,
        "completionTokens": 2 * COMPLETION_TOKENS,
        "totalTokens": 2 * (PROMPT_TOKENS + COMPLETION_TOKENS),
        "estimated": False,
    }
    assert [c["nodeId"] for c in data["citations"]] == ["user-guide#4", "user-guide#2"]


def test_reason_stops_at_the_call_budget(db, server):
    result = run(db, QUESTION, "--llm-url", server, "--model", "tiny", "--max-llm-calls", "1")
    assert result.returncode == 0, result.stderr
    assert len(FakeOpenAI.requests) == 1
    assert "budget exhausted" in result.stdout
    assert result.stdout.splitlines()[0] in (EDIT, SEE)


def test_reason_sends_the_api_key_from_the_named_variable(db, server):
    env = {"GG_TEST_KEY": "sk-test-123"}
    result = run(
        db, QUESTION, "--llm-url", server, "--model", "m", "--api-key-env", "GG_TEST_KEY", env=env
    )
    assert result.returncode == 0, result.stderr
    assert {r["auth"] for r in FakeOpenAI.requests} == {"Bearer sk-test-123"}


def test_reason_errors_are_one_line(db, server):
    unset = run(
        db, QUESTION, "--llm-url", server, "--model", "m", "--api-key-env", "GG_NOT_SET_ANYWHERE"
    )
    assert unset.returncode == 2 and "GG_NOT_SET_ANYWHERE" in unset.stderr
    assert "Traceback" not in unset.stderr
    empty = run(db, "  ", "--llm-url", server, "--model", "m")
    assert empty.returncode == 2 and "question is empty" in empty.stderr
    bad_url = run(db, QUESTION, "--llm-url", "ftp://x", "--model", "m")
    assert bad_url.returncode == 2 and "not an http(s) URL" in bad_url.stderr
    assert FakeOpenAI.requests == []


def test_reason_reports_a_server_that_is_down(db):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = run(
        db, QUESTION, "--llm-url", f"http://127.0.0.1:{port}", "--model", "m", "--timeout", "2"
    )
    assert result.returncode == 5
    assert "failed" in result.stderr and "Traceback" not in result.stderr


def test_reason_help_names_every_option(db):
    result = run(db, "--help")
    assert result.returncode == 0
    for option in (
        "--llm-url",
        "--model",
        "--api-key-env",
        "--max-llm-calls",
        "--json",
        "--max-workers",
    ):
        assert option in result.stdout
