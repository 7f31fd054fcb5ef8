"""Folder ingest jobs over a real uvicorn: ``POST /jobs`` under the ingest roots only,
``GET /jobs/{id}`` with progress and counts, records that outlive the server, and keys."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph.graph import DocumentGraph
from groundgraph.service import MemoryService
from groundgraph.service.http_app import create_app
from service_server import bearer, free_port, matrix_ring, running

FINISHED = ("done", "failed", "interrupted")


def write_docs(folder: Path, count: int, word: str = "alpha") -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for i in range(count):
        path = folder / f"note-{i:04d}.md"
        path.write_text(f"# Note {i}\n\nThe {word} section number {i} of the notes.\n", "utf-8")
        made.append(path)
    return made


def wait_for(base: str, job_id: str, headers: dict[str, str] | None = None) -> dict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        record = httpx.get(f"{base}/jobs/{job_id}", headers=headers).json()
        if record["status"] in FINISHED:
            return record
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish: {record}")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    found = tmp_path / "root"
    write_docs(found / "notes", 6)
    return found


def serve(db: Path, root: Path, **options):
    service = MemoryService(DocumentGraph(str(db)))
    return service, running(create_app(service, ingest_roots=[root], **options))


def test_a_job_indexes_a_folder_and_reports_its_counts(tmp_path, root):
    service, server = serve(tmp_path / "m.db", root)
    with server as base:
        answer = httpx.post(f"{base}/jobs", json={"paths": ["notes"]})
        assert answer.status_code == 202
        queued = answer.json()
        assert queued["status"] in ("queued", "running")
        record = wait_for(base, queued["id"])
        assert record["status"] == "done", record
        assert record["files_total"] == record["files_done"] == 6
        assert (record["added"], record["changed"], record["unchanged"]) == (6, 0, 0)
        hits = httpx.post(f"{base}/graph/search", json={"query": "alpha section"}).json()
        assert hits, "the indexed notes are searchable"
        # the same folder again: nothing changed; one file edited, one removed with prune
        (root / "notes" / "note-0000.md").write_text("# Note 0\n\nNew words.\n", "utf-8")
        (root / "notes" / "note-0001.md").unlink()
        again = httpx.post(f"{base}/jobs", json={"paths": ["notes"], "prune": True}).json()
        record = wait_for(base, again["id"])
        assert record["status"] == "done", record
        assert (record["changed"], record["unchanged"], record["removed"]) == (1, 4, 1)
        ids = {d["docId"] for d in httpx.get(f"{base}/graph/documents").json()}
        assert len(ids) == 5
    service.graph.close()


def test_a_json_lines_file_counts_once_and_its_records_one_by_one(tmp_path, root):
    lines = root / "notes" / "records.jsonl"
    lines.write_text(
        '{"id": "r1", "text": "The first record."}\n'
        '{"id": "r2", "text": "The second record."}\n'
        '{"id": "r2", "text": "The same id again."}\n',
        encoding="utf-8",
    )
    service, server = serve(tmp_path / "m.db", root)
    with server as base:
        for added, unchanged in ((8, 0), (0, 8)):
            job = httpx.post(f"{base}/jobs", json={"paths": ["notes"]}).json()
            record = wait_for(base, job["id"])
            assert record["files_total"] == record["files_done"] == 7, record
            assert (record["added"], record["unchanged"]) == (added, unchanged), record
            assert any("'r2' was already met" in s["reason"] for s in record["skipped_files"])
    service.graph.close()


def test_a_finished_job_is_reported_after_a_restart(tmp_path, root):
    service, server = serve(tmp_path / "m.db", root)
    with server as base:
        job = httpx.post(f"{base}/jobs", json={"paths": [str(root / "notes")]}).json()
        first = wait_for(base, job["id"])
    service.graph.close()
    service, server = serve(tmp_path / "m.db", root)
    with server as base:
        again = httpx.get(f"{base}/jobs/{job['id']}")
        assert again.status_code == 200
        assert again.json() == first
    service.graph.close()


@pytest.mark.slow
def test_a_job_cut_short_by_a_killed_server_reads_interrupted(tmp_path):
    root = tmp_path / "root"
    write_docs(root / "many", 3000)
    db = str(tmp_path / "m.db")

    def start() -> tuple[subprocess.Popen[str], str]:
        port = free_port()
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "groundgraph",
                "--db",
                db,
                "serve",
                "--port",
                str(port),
                "--ingest-root",
                str(root),
            ],
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "GROUNDGRAPH_WORKERS": "0"},
        )
        assert process.stderr is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            if " on http://" in line or not line:
                break
        base = f"http://127.0.0.1:{port}"
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/ready").status_code == 200:
                    return process, base
            except httpx.TransportError:
                time.sleep(0.05)
        process.kill()
        raise AssertionError("groundgraph serve did not start")

    process, base = start()
    try:
        job = httpx.post(f"{base}/jobs", json={"paths": ["many"]}).json()
        deadline = time.monotonic() + 60
        record = job
        # Running, and its files counted (on a loaded machine the count comes a moment later).
        while record["status"] != "running" or not record.get("files_total"):
            assert time.monotonic() < deadline and record["status"] not in FINISHED, record
            time.sleep(0.02)
            record = httpx.get(f"{base}/jobs/{job['id']}").json()
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        assert process.stderr is not None
        process.stderr.close()
    process, base = start()
    try:
        after = httpx.get(f"{base}/jobs/{job['id']}").json()
        assert after["status"] == "interrupted"
        assert "submit it again" in after["error"]
        assert after["files_done"] < after["files_total"] == 3000
    finally:
        process.terminate()
        process.wait(timeout=30)
        assert process.stderr is not None
        process.stderr.close()


def test_paths_outside_the_roots_are_refused_and_never_read(tmp_path, root):
    outside = tmp_path / "secret"
    write_docs(outside, 2, word="zephyrsecret")
    (root / "escape").symlink_to(outside, target_is_directory=True)
    (root / "notes" / "leak.md").symlink_to(outside / "note-0000.md")
    service, server = serve(tmp_path / "m.db", root)
    with server as base:
        for path in (
            str(outside),
            "../secret",
            "escape",
            str(root / "escape" / "note-0000.md"),
            "/etc/passwd",
            "/",
        ):
            answer = httpx.post(f"{base}/jobs", json={"paths": [path]})
            assert answer.status_code == 403, (path, answer.text)
            assert "ingest roots" in answer.json()["detail"]
        missing = httpx.post(f"{base}/jobs", json={"paths": ["nowhere"]})
        assert missing.status_code == 404
        job = httpx.post(f"{base}/jobs", json={"paths": ["."]}).json()
        record = wait_for(base, job["id"])
        assert record["status"] == "done" and record["added"] == 6, record
        hits = httpx.post(f"{base}/graph/search", json={"query": "zephyrsecret"}).json()
        assert hits == []
    service.graph.close()


def test_a_server_without_roots_refuses_every_job(tmp_path):
    service = MemoryService(DocumentGraph())
    with running(create_app(service)) as base:
        answer = httpx.post(f"{base}/jobs", json={"paths": [str(tmp_path)]})
        assert answer.status_code == 403 and "--ingest-root" in answer.json()["detail"]
    service.graph.close()


def test_a_scoped_key_ingests_for_its_scope_and_sees_only_its_jobs(tmp_path, root):
    for i in range(3):
        text = f"# Alice {i}\n\nThe kestrel section {i} of Alice's notes.\n"
        (root / "alice-notes").mkdir(exist_ok=True)
        (root / "alice-notes" / f"alice-{i}.md").write_text(text, "utf-8")
    service, server = serve(tmp_path / "m.db", root, keys=matrix_ring())
    with server as base:
        body = {"paths": ["notes"]}
        assert httpx.post(f"{base}/jobs", json=body).status_code == 401
        wrong = {"Authorization": "Bearer not-a-key-at-all"}
        assert httpx.post(f"{base}/jobs", json=body, headers=wrong).status_code == 401
        assert httpx.post(f"{base}/jobs", json=body, headers=bearer("alice-ro")).status_code == 403
        admin = httpx.post(f"{base}/jobs", json=body, headers=bearer("admin")).json()
        assert wait_for(base, admin["id"], bearer("admin"))["status"] == "done"
        unknown = httpx.get(f"{base}/jobs/{'0' * 32}", headers=bearer("alice"))
        for name in ("alice", "bob"):  # another's job is answered as an unknown one
            seen = httpx.get(f"{base}/jobs/{admin['id']}", headers=bearer(name))
            assert seen.status_code == unknown.status_code == 404
            assert seen.json()["detail"].replace(admin["id"], "0" * 32) == unknown.json()["detail"]
        # Alice's job adds her folder and her own copy of the notes for her scope, under
        # her scope's document ids; the admin's notes (no scopes) stay, one of them pruned
        # from disk but not hers to remove
        (root / "notes" / "note-0005.md").unlink()
        mine = {"paths": ["alice-notes", "notes"], "prune": True}
        job = httpx.post(f"{base}/jobs", json=mine, headers=bearer("alice"))
        assert job.status_code == 202 and job.json()["scopes"] == ["acme/alice"]
        record = wait_for(base, job.json()["id"], bearer("alice"))
        assert record["status"] == "done", record
        assert (record["added"], record["skipped"], record["removed"]) == (8, 0, 0), record
        held = {d.doc_id: d.scopes for d in service.graph.store.reads.documents()}
        assert sorted(s for s in held.values()) == [()] * 6 + [("acme/alice",)] * 8
        assert all(i.startswith("acme/alice~") for i, s in held.items() if s), held
        assert (
            httpx.get(f"{base}/jobs/{job.json()['id']}", headers=bearer("bob")).status_code == 404
        )
        # Bob's job over the same folder makes his own copies: it replaces nothing of hers
        # and learns nothing of it (as if she had never indexed it)
        theirs = httpx.post(f"{base}/jobs", json={"paths": ["alice-notes"]}, headers=bearer("bob"))
        record = wait_for(base, theirs.json()["id"], bearer("bob"))
        assert (record["added"], record["skipped"]) == (3, 0), record
        assert "acme/alice" not in str(record)
        hits = httpx.post(f"{base}/graph/search", json={"query": "kestrel"}, headers=bearer("bob"))
        assert len(hits.json()) == 3 and all(
            h["docId"].startswith("acme/bob~") for h in hits.json()
        )
        hits = httpx.post(
            f"{base}/graph/search", json={"query": "kestrel"}, headers=bearer("alice")
        )
        assert len(hits.json()) == 3
    service.graph.close()


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
bodies = json_values | st.fixed_dictionaries(
    {"paths": json_values}, optional={"prune": json_values, "force": json_values}
)


def test_hostile_bodies_get_a_clear_4xx(tmp_path, root):
    service, server = serve(tmp_path / "m.db", root)
    with server as base, httpx.Client(base_url=base) as client:

        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        @given(body=bodies)
        def check(body):
            answer = client.post("/jobs", json=body)
            assert answer.status_code in (202, 403, 404, 422), (body, answer.text)
            assert "detail" in answer.json() or answer.status_code == 202

        check()
        for raw in (b"", b"{", b"[]" * 10, b'{"paths": "notes"}', b'{"paths": ["\\u0000"]}'):
            answer = client.post("/jobs", content=raw, headers={"content-type": "application/json"})
            assert answer.status_code == 422, (raw, answer.text)
        assert client.get("/jobs/" + "a" * 5000).status_code in (404, 414)
    service.graph.close()


def test_a_live_workers_job_is_left_running_and_a_silent_ones_is_interrupted(tmp_path, root):
    import json
    import socket

    from groundgraph.service.access import Access
    from groundgraph.service.jobs import INDEX_SETTING, RECORD_SETTING, IngestJobs, JobRecord

    service = MemoryService(DocumentGraph(str(tmp_path / "m.db")))
    live_owner = f"{socket.gethostname()}:{os.getppid()}"  # a process that runs
    fresh = JobRecord("a" * 32, ("x",), False, status="running", owner=live_owner)
    silent = JobRecord(
        "b" * 32, ("x",), False, status="running", owner="elsewhere:1", heartbeat=time.time() - 999
    )
    settings_part = service.graph.store.settings
    settings_part.set_setting(INDEX_SETTING, json.dumps([fresh.id, silent.id]))
    for record in (fresh, silent):
        settings_part.set_setting(RECORD_SETTING + record.id, json.dumps(record.to_stored()))
    board = IngestJobs(service, [root])
    everything = Access.everything()
    assert board.get(fresh.id, everything).status == "running"
    assert board.get(silent.id, everything).status == "interrupted"
    assert "owner" not in board.get(fresh.id, everything).to_dict()
    service.graph.close()


def _answer(record: dict) -> dict:
    """A job record without what differs between any two runs (ids and times)."""
    return {k: v for k, v in record.items() if k not in ("id", "created", "started", "finished")}


def test_a_json_lines_record_id_held_by_another_tenant_is_never_revealed(tmp_path, root):
    records = root / "shared" / "records.jsonl"
    records.parent.mkdir()
    records.write_text(
        '{"id": "r1", "text": "The first kestrel record."}\n'
        '{"id": "r2", "text": "The second kestrel record."}\n',
        encoding="utf-8",
    )
    body = {"paths": ["shared"]}

    def bobs_record(db: Path, alice_first: bool) -> dict:
        service, server = serve(db, root, keys=matrix_ring())
        with server as base:
            if alice_first:  # Alice and the admin hold r1 and r2 first
                for name in ("admin", "alice"):
                    job = httpx.post(f"{base}/jobs", json=body, headers=bearer(name)).json()
                    assert wait_for(base, job["id"], bearer(name))["added"] == 2
                again = httpx.post(f"{base}/jobs", json=body, headers=bearer("alice")).json()
                seen = wait_for(base, again["id"], bearer("alice"))
                assert (seen["added"], seen["unchanged"], seen["skipped"]) == (0, 2, 0), seen
            job = httpx.post(f"{base}/jobs", json=body, headers=bearer("bob")).json()
            record = wait_for(base, job["id"], bearer("bob"))
            held = {d.doc_id for d in service.graph.store.reads.documents()}
        service.graph.close()
        assert {"acme/bob~r1", "acme/bob~r2"} <= held
        assert not alice_first or {"r1", "r2", "acme/alice~r1", "acme/alice~r2"} <= held
        return record

    after_others = bobs_record(tmp_path / "shared.db", alice_first=True)
    alone = bobs_record(tmp_path / "alone.db", alice_first=False)
    assert after_others["status"] == "done" and after_others["added"] == 2, after_others
    assert _answer(after_others) == _answer(alone)
