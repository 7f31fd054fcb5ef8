"""The MCP tools of folder ingest jobs: ``got_ingest_folder`` starts one and
``got_job_status`` reports it, through the SDK's own client (in-process, and over HTTP
with keys, scoped as ``POST /jobs`` and ``GET /jobs/{id}`` are)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from groundgraph.graph import DocumentGraph
from groundgraph.service import ApiKey, KeyRing, MemoryService, hash_key
from groundgraph.service.http_app import create_app
from groundgraph.service.jobs import IngestJobs
from groundgraph.service.mcp_server import WRITE_TOOLS, create_mcp
from service.test_service_jobs import FINISHED, write_docs
from service_server import MATRIX_KEYS, bearer, matrix_ring, running

INGEST, STATUS = "got_ingest_folder", "got_job_status"
OPS_KEY = "key-ops-ro-0123456789"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    found = tmp_path / "root"
    write_docs(found / "notes", 5, word="heron")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.md").write_text("# Secret\n\nKeep out.\n", "utf-8")
    return found


@pytest.fixture
def memory(tmp_path: Path):
    service = MemoryService(DocumentGraph(str(tmp_path / "m.db")))
    yield service
    service.graph.close()


async def until_finished(call: Any, job_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        result = await call(STATUS, {"job_id": job_id})
        assert not result.is_error, result.content
        if result.structured_content["status"] in FINISHED:
            return dict(result.structured_content)
        await asyncio.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish")


def test_the_write_tool_is_listed_only_with_writes(memory, root):
    jobs = IngestJobs(memory, [root])

    async def tools(writes: bool) -> dict[str, Any]:
        async with Client(create_mcp(memory, writes=writes, jobs=jobs)) as client:
            return {tool.name: tool for tool in (await client.list_tools()).tools}

    with_writes, read_only = asyncio.run(tools(True)), asyncio.run(tools(False))
    assert INGEST in WRITE_TOOLS
    assert INGEST in with_writes and STATUS in with_writes
    assert INGEST not in read_only and STATUS in read_only
    schema = with_writes[INGEST].input_schema
    assert schema["required"] == ["paths"] and schema["properties"]["paths"]["type"] == "array"
    assert with_writes[STATUS].annotations.read_only_hint
    assert not with_writes[INGEST].annotations.read_only_hint
    # without a board of jobs there are no job tools at all
    bare = asyncio.run(_names(create_mcp(memory, writes=True)))
    assert not {INGEST, STATUS} & bare


async def _names(server: Any) -> set[str]:
    async with Client(server) as client:
        return {tool.name for tool in (await client.list_tools()).tools}


def test_a_job_started_over_mcp_indexes_the_folder_and_reports_progress(memory, root):
    jobs = IngestJobs(memory, [root])

    async def run() -> tuple[dict[str, Any], dict[str, Any], Any]:
        async with Client(create_mcp(memory, writes=True, jobs=jobs)) as client:
            started = await client.call_tool(INGEST, {"paths": ["notes"]})
            assert not started.is_error, started.content
            queued = dict(started.structured_content)
            done = await until_finished(client.call_tool, queued["id"])
            hits = await client.call_tool("got_search", {"query": "heron section"})
            return queued, done, hits.structured_content

    queued, done, hits = asyncio.run(run())
    jobs.stop()
    assert queued["status"] in ("queued", "running")
    assert queued["paths"] == [str((root / "notes").resolve())]
    assert done["status"] == "done", done
    assert done["files_done"] == done["files_total"] == 5 and done["added"] == 5
    assert done == jobs.get(queued["id"], access=_everything()).to_dict()
    assert {hit["docId"] for hit in hits["result"]} >= {"note-0000"}


def _everything():
    from groundgraph.service.access import Access

    return Access.everything()


@pytest.mark.parametrize(
    ("tool", "arguments", "says"),
    [
        (INGEST, {"paths": ["../outside/secret.md"]}, "not under the server's ingest roots"),
        (INGEST, {"paths": ["/etc"]}, "not under the server's ingest roots"),
        (INGEST, {"paths": ["missing-folder"]}, "does not exist"),
        (INGEST, {"paths": []}, "non-empty list"),
        (INGEST, {"paths": ["notes\x00.md"]}, "without NUL"),
        (INGEST, {"paths": ["x"] * 101}, "at most 100"),
        (STATUS, {"job_id": "0" * 32}, "no job"),
        (STATUS, {"job_id": "../../etc/passwd"}, "no job"),
    ],
)
def test_a_bad_call_is_the_tools_error_saying_what_to_fix(memory, root, tool, arguments, says):
    async def run() -> Any:
        async with Client(create_mcp(memory, writes=True, jobs=IngestJobs(memory, [root]))) as c:
            return await c.call_tool(tool, arguments)

    result = asyncio.run(run())
    assert result.is_error and says in result.content[0].text, result.content
    assert "Secret" not in json.dumps(memory.verb("documents", {}))


def test_without_ingest_roots_every_job_is_refused_saying_how_to_allow_one(memory):
    async def run() -> Any:
        async with Client(create_mcp(memory, writes=True, jobs=IngestJobs(memory))) as client:
            return await client.call_tool(INGEST, {"paths": ["notes"]})

    result = asyncio.run(run())
    assert result.is_error and "--ingest-root" in result.content[0].text


def ops_ring() -> KeyRing:
    return KeyRing([*matrix_ring().keys, ApiKey("ops", hash_key(OPS_KEY), None, False)])


async def call_as(base: str, key: str, name: str, arguments: dict[str, Any]) -> Any:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}) as http,
        Client(streamable_http_client(base + "/mcp", http_client=http)) as client,
    ):
        return await client.call_tool(name, arguments)


@pytest.mark.slow
def test_over_http_the_tools_are_scoped_as_the_job_routes(memory, root):
    ring = ops_ring()
    jobs = IngestJobs(memory, [root])
    mcp = create_mcp(memory, writes=True, keys=ring, jobs=jobs)
    app = create_app(memory, keys=ring, allowed_hosts=["127.0.0.1"], mcp=mcp, jobs=jobs)
    keys = {name: key for name, (key, _, _) in MATRIX_KEYS.items()} | {"ops": OPS_KEY}
    with running(app) as base:

        def call(who: str, name: str, arguments: dict[str, Any]) -> Any:
            return asyncio.run(call_as(base, keys[who], name, arguments))

        ingest = {"paths": ["notes"]}
        for who in ("alice-ro", "ops"):
            refused = call(who, INGEST, ingest)
            assert refused.is_error and "read-only" in refused.content[0].text, who
            http = httpx.post(base + "/jobs", json=ingest, headers=_header(keys[who]))
            assert http.status_code == 403, who
        started = call("admin", INGEST, ingest)
        assert not started.is_error, started.content
        job_id = started.structured_content["id"]
        # the same board: the route reports the MCP job, and a read-only '*' key may read it
        deadline = time.monotonic() + 60
        while (
            httpx.get(f"{base}/jobs/{job_id}", headers=bearer("admin")).json()["status"]
            not in FINISHED
        ):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        over_http = httpx.get(f"{base}/jobs/{job_id}", headers=bearer("admin")).json()
        seen = call("ops", STATUS, {"job_id": job_id})
        assert not seen.is_error and seen.structured_content == over_http
        assert over_http["status"] == "done"
        unknown = "0" * 32
        for who in ("alice", "alice-ro", "bob"):  # the '*' job is unknown to scoped keys
            hidden = call(who, STATUS, {"job_id": job_id})
            never = call(who, STATUS, {"job_id": unknown})
            assert hidden.is_error and never.is_error, who
            assert hidden.content[0].text.replace(job_id, unknown) == never.content[0].text
            http = httpx.get(f"{base}/jobs/{job_id}", headers=_header(keys[who]))
            assert http.status_code == 404, who
        # a scoped read-write key's job indexes for its scopes, and only it sees the job
        own = call("alice", INGEST, ingest)
        assert not own.is_error and own.structured_content["scopes"] == ["acme/alice"]
        assert call("bob", STATUS, {"job_id": own.structured_content["id"]}).is_error
        assert not call("alice", STATUS, {"job_id": own.structured_content["id"]}).is_error
        # and a job started over HTTP is reported over MCP
        posted = httpx.post(base + "/jobs", json=ingest, headers=bearer("admin")).json()
        assert not call("admin", STATUS, {"job_id": posted["id"]}).is_error
    jobs.stop()


def test_over_mcp_a_record_id_another_tenant_holds_is_never_revealed(memory, root):
    (root / "notes" / "records.jsonl").write_text(
        '{"id": "r1", "text": "The first heron record."}\n', encoding="utf-8"
    )
    ring = ops_ring()
    jobs = IngestJobs(memory, [root])
    mcp = create_mcp(memory, writes=True, keys=ring, jobs=jobs)
    app = create_app(memory, keys=ring, allowed_hosts=["127.0.0.1"], mcp=mcp, jobs=jobs)
    keys = {name: key for name, (key, _, _) in MATRIX_KEYS.items()}
    with running(app) as base:

        async def ingest(who: str) -> dict[str, Any]:
            async with (
                httpx2.AsyncClient(headers=_header(keys[who])) as http,
                Client(streamable_http_client(base + "/mcp", http_client=http)) as client,
            ):
                started = await client.call_tool(INGEST, {"paths": ["notes"]})
                assert not started.is_error, started.content
                return await until_finished(client.call_tool, started.structured_content["id"])

        for who, added in (("admin", 6), ("alice", 6), ("alice", 0), ("bob", 6)):
            record = asyncio.run(ingest(who))
            assert record["status"] == "done", record
            assert (record["added"], record["skipped"]) == (added, 0), (who, record)
            assert record["unchanged"] == 6 - added, (who, record)
            assert "alice" not in json.dumps(record) or who == "alice", record
    held = {d.doc_id for d in memory.graph.store.reads.documents()}
    assert {"r1", "acme/alice~r1", "acme/bob~r1"} <= held
    jobs.stop()


def _header(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.mark.slow
def test_groundgraph_mcp_over_stdio_runs_jobs_under_its_ingest_roots(tmp_path, root):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "groundgraph", "--db", str(tmp_path / "s.db"), "mcp", "--writes"],
        env={**os.environ, "GROUNDGRAPH_INGEST_ROOTS": str(root)},
    )

    async def run() -> tuple[dict[str, Any], Any]:
        async with Client(params) as client:
            started = await client.call_tool(INGEST, {"paths": ["notes"]})
            assert not started.is_error, started.content
            done = await until_finished(client.call_tool, started.structured_content["id"])
            outside = await client.call_tool(INGEST, {"paths": [str(tmp_path / "outside")]})
            return done, outside

    done, outside = asyncio.run(run())
    assert done["status"] == "done" and done["added"] == 5
    assert outside.is_error and "ingest roots" in outside.content[0].text
    graph = DocumentGraph(str(tmp_path / "s.db"))
    try:
        assert len(graph.documents()) == 5
    finally:
        graph.close()
