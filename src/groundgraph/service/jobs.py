"""Folder ingest as a background job: ``POST /jobs`` starts one, ``GET /jobs/{id}`` reports it.

A job indexes files and folders that lie under the *ingest roots* the server was started
with (``groundgraph serve --ingest-root DIR``): each path is resolved (symlinks followed)
and refused unless it lands under a root, and each file the folder walk plans is checked
the same way, so nothing outside the roots is read. Jobs run one at a time on a thread of
their own; the indexing takes the service's lock one batch at a time, so reads and
memory writes go on between batches.

A job's record (:class:`JobRecord`) is kept in the store's settings as JSON, written when
the job is queued, starts and ends, and at most every ``SAVE_SECONDS`` in between, so a
restarted server still reports it. A job found ``queued`` or ``running`` whose process has
stopped (on this host: its pid no longer runs; elsewhere: it has not saved the record for
``STALE_SECONDS``) was cut short and reads ``interrupted``; another live worker's job is
left alone.

    jobs = IngestJobs(service, roots=[Path("/srv/docs")])
    record = jobs.submit(["/srv/docs/handbook"], prune=False, access=Access.everything())
    jobs.get(record.id).status        # queued, running, done, failed or interrupted
"""

from __future__ import annotations

import json
import os
import queue
import re
import socket
import threading
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Literal

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph import DocumentGraph
from groundgraph.graph.reindex import UnchangedFile
from groundgraph.ingest import SkippedFile, plan_folder
from groundgraph.model.views import ReplacedText
from groundgraph.service.access import Access, AccessDeniedError
from groundgraph.service.document_access import id_space, may_write, namespaced_id
from groundgraph.service.memory_service import MemoryService
from groundgraph.store import now_iso

Status = Literal["queued", "running", "done", "failed", "interrupted"]
#: The settings key of the list of job ids, and of one job's record.
INDEX_SETTING = "service.jobs"
RECORD_SETTING = "service.job."
#: How many job records are kept (the oldest are dropped from the store).
KEPT_JOBS = 200
#: Most paths one job may name, and the longest path.
MAX_PATHS = 100
MAX_PATH_CHARS = 4_096
#: Longest gap between two saves of a running job's progress.
SAVE_SECONDS = 0.5
_JOB_ID = re.compile(r"[0-9a-f]{32}")
#: How many skipped files a record names (the count is always whole).
SHOWN_SKIPPED = 50


#: This process, as a job's owner; and how long an unfinished job of another process may go
#: unsaved before it counts as cut short.
OWNER = f"{socket.gethostname()}:{os.getpid()}"
STALE_SECONDS = 120.0


def _gone(record: JobRecord) -> bool:
    """Whether the process that ran ``record`` has stopped (or stopped saving it)."""
    host, _, pid = record.owner.rpartition(":")
    if record.owner == OWNER:
        return True  # this process holds every job it runs in memory: not this one
    if host == socket.gethostname() and pid.isdigit():
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            pass  # alive, under another user
    return time.time() - record.heartbeat > STALE_SECONDS


class OutsideRootsError(AccessDeniedError):
    """A job named a path that does not lie under the server's ingest roots (HTTP 403)."""


@dataclass(frozen=True)
class JobRecord:
    """What one ingest job asked for and how far it got; ``to_dict`` is its JSON form."""

    id: str
    paths: tuple[str, ...]
    prune: bool
    force: bool = False
    status: Status = "queued"
    files_done: int = 0
    files_total: int = 0
    added: int = 0
    changed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: int = 0
    #: The scopes that read what the job adds: its key's (None: a key for every scope,
    #: whose documents have no scopes).
    scopes: tuple[str, ...] | None = None
    skipped_files: tuple[dict[str, Any], ...] = ()
    error: str | None = None
    created: str = field(default_factory=now_iso)
    started: str | None = None
    finished: str | None = None
    #: The process running the job (``host:pid``) and when it last saved; kept in the
    #: store, not shown.
    owner: str = field(default_factory=lambda: OWNER)
    heartbeat: float = field(default_factory=time.time)

    def to_dict(self) -> dict[str, Any]:
        """The record as an answer shows it."""
        found = self.to_stored()
        del found["owner"], found["heartbeat"]
        return found

    def to_stored(self) -> dict[str, Any]:
        """The record as the store keeps it."""
        found = asdict(self)
        found["paths"] = list(self.paths)
        found["skipped_files"] = list(self.skipped_files)
        found["scopes"] = None if self.scopes is None else list(self.scopes)
        return found

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JobRecord:
        given = dict(data)
        given["paths"] = tuple(given.get("paths", ()))
        given["skipped_files"] = tuple(given.get("skipped_files", ()))
        scopes = given.get("scopes")
        given["scopes"] = None if scopes is None else tuple(scopes)
        return cls(**given)

    def access(self) -> Access:
        """What the job may write: the scopes of the key that submitted it."""
        return Access.everything() if self.scopes is None else Access(self.scopes, True)

    def visible_to(self, access: Access) -> bool:
        """Whether ``access`` may see the job: a key that may name every scope it writes."""
        if access.unrestricted:
            return True
        return self.scopes is not None and all(access.names(s) for s in self.scopes)


def check_roots(roots: Iterable[Path | str]) -> tuple[Path, ...]:
    """The ingest roots, resolved; each must be an existing folder."""
    found = []
    for root in roots:
        path = Path(root).expanduser().resolve()
        if not path.is_dir():
            raise InputError(f"ingest root {str(root)!r} is not a folder: name an existing folder")
        found.append(path)
    return tuple(found)


def _under(path: Path, roots: Sequence[Path]) -> bool:
    return any(path == root or path.is_relative_to(root) for root in roots)


def resolve_paths(paths: object, roots: Sequence[Path]) -> list[Path]:
    """The job's paths, resolved (a relative one against the first root), each under a
    root; a bad list is an InputError, a path outside the roots an OutsideRootsError."""
    if not roots:
        raise OutsideRootsError(
            "this server takes no folder ingest: start it with --ingest-root DIR "
            "(GROUNDGRAPH_INGEST_ROOTS) to allow ingesting the folders under DIR"
        )
    if not isinstance(paths, list) or not paths:
        raise InputError("field 'paths' must be a non-empty list of file or folder paths")
    if len(paths) > MAX_PATHS:
        raise InputError(f"field 'paths' holds {len(paths)} paths; at most {MAX_PATHS}")
    resolved = []
    for i, given in enumerate(paths):
        if not isinstance(given, str) or not given.strip() or "\x00" in given:
            raise InputError(f"field 'paths[{i}]' must be a non-empty path without NUL")
        if len(given) > MAX_PATH_CHARS:
            raise InputError(f"field 'paths[{i}]' is over {MAX_PATH_CHARS} characters")
        path = Path(given)
        path = (path if path.is_absolute() else roots[0] / path).resolve()
        if not _under(path, roots):
            raise OutsideRootsError(
                f"path {given[:200]!r} is not under the server's ingest roots "
                f"({', '.join(str(r) for r in roots)}): name a file or folder inside one"
            )
        if not path.exists():
            raise NotFoundError(f"path {given[:200]!r} does not exist under the ingest roots")
        resolved.append(path)
    return resolved


class IngestJobs:
    """The ingest jobs of one service: submitted, run one at a time, kept in the store."""

    def __init__(self, service: MemoryService, roots: Iterable[Path | str] = ()) -> None:
        self.service = service
        self.roots = check_roots(roots)
        self._records: dict[str, JobRecord] = {}
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._mark_interrupted()

    # ----------------------------------------------------------------- the store
    def _saved_ids(self, graph: DocumentGraph) -> list[str]:
        raw = graph.store.settings.get_setting(INDEX_SETTING)
        ids = json.loads(raw) if raw else []
        return [i for i in ids if isinstance(i, str)]

    def _save(self, record: JobRecord) -> None:
        self._records[record.id] = record
        with self.service.locked() as graph:
            settings = graph.store.settings
            ids = self._saved_ids(graph)
            if record.id not in ids:
                ids.append(record.id)
                for old in ids[:-KEPT_JOBS]:
                    settings.set_setting(RECORD_SETTING + old, "")
                    self._records.pop(old, None)
                ids = ids[-KEPT_JOBS:]
                settings.set_setting(INDEX_SETTING, json.dumps(ids))
            stored = replace(record, heartbeat=time.time()).to_stored()
            settings.set_setting(RECORD_SETTING + record.id, json.dumps(stored))

    def _load(self, job_id: str) -> JobRecord | None:
        with self.service.locked() as graph:
            raw = graph.store.settings.get_setting(RECORD_SETTING + job_id)
        return JobRecord.from_dict(json.loads(raw)) if raw else None

    def _mark_interrupted(self) -> None:
        with self.service.locked() as graph:
            ids = self._saved_ids(graph)
        for job_id in ids:
            record = self._load(job_id)
            if record is not None:
                self._settle(record)

    def _settle(self, record: JobRecord) -> JobRecord:
        """``record``, marked ``interrupted`` (and saved so) if it is unfinished and its
        process is gone: a process on this host that no longer runs, or one that has not
        saved it for ``STALE_SECONDS`` (another worker, or another host)."""
        if record.status not in ("queued", "running") or record.id in self._records:
            return record
        if not _gone(record):
            return record
        cut = replace(
            record,
            status="interrupted",
            error="the server stopped before the job ended: submit it again",
        )
        self._save(cut)
        return cut

    # ----------------------------------------------------------------- the API
    def submit(self, paths: object, prune: bool, access: Access, force: bool = False) -> JobRecord:
        """Queue a job over ``paths`` (checked against the roots); its queued record."""
        access.require_write()
        if not isinstance(prune, bool) or not isinstance(force, bool):
            raise InputError("fields 'prune' and 'force' must be true or false")
        resolved = resolve_paths(paths, self.roots)
        record = JobRecord(uuid.uuid4().hex, tuple(map(str, resolved)), prune, force)
        record = replace(record, scopes=access.scopes)
        self._save(record)
        self._start()
        self._queue.put(record.id)
        return record

    def get(self, job_id: str, access: Access) -> JobRecord:
        """The record of job ``job_id`` (NotFoundError if there is none, or if ``access``
        may not see it: the same answer)."""
        found = self._records.get(job_id) if _JOB_ID.fullmatch(job_id) else None
        if found is None and _JOB_ID.fullmatch(job_id):
            found = self._load(job_id)
            found = self._settle(found) if found is not None else None
        if found is None or not found.visible_to(access):
            raise NotFoundError(f"no job {job_id[:80]!r}: POST /jobs returns the id of a job")
        return found

    def stop(self, timeout: float = 30.0) -> None:
        """Stop after the current batch (its job reads ``interrupted``) and end the thread."""
        self._stopping.set()
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(timeout)

    # ----------------------------------------------------------------- running
    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="ingest-jobs", daemon=True)
            self._thread.start()

    def _work(self) -> None:
        while not self._stopping.is_set():
            job_id = self._queue.get()
            if job_id is None:
                return
            record = self._records[job_id]
            try:
                self._run(record)
            except Exception as error:  # a job's failure is its record, never the thread's end
                self._save(
                    replace(
                        self._records[job_id],
                        status="failed",
                        error=f"{type(error).__name__}: {error}"[:2_000],
                        finished=now_iso(),
                    )
                )

    def _run(self, record: JobRecord) -> None:
        paths = [Path(p) for p in record.paths]
        files, skipped = plan_folder(paths)
        outside = [f for f in files if not _under(Path(f.path).resolve(), self.roots)]
        files = [f for f in files if f not in outside]
        if record.scopes is not None:  # a scoped job's documents get its scopes' ids: a
            # file's id, and each id a JSON Lines record carries, as it is read
            space = id_space(record.scopes)
            files = [
                replace(
                    f,
                    doc_id=namespaced_id(f.doc_id, record.scopes) if f.doc_id else "",
                    id_space=space,
                )
                for f in files
            ]
        skipped += [SkippedFile(str(f.path), "outside the ingest roots; not read") for f in outside]
        counts = {"added": 0, "changed": 0, "unchanged": 0}
        noted = [s for s in skipped if not s.ignored]
        record = replace(record, status="running", files_total=len(files), started=now_iso())
        self._save(record)
        with self.service.locked() as graph:
            before = {d.doc_id for d in graph.store.reads.documents()}
            graph.writer.edge_lookups_last = False  # searches are served between its steps
            steps = graph.index_files(
                files,
                workers=0,
                force=record.force,
                scopes=record.scopes,
                may_replace=partial(may_write, record.access()),
            )
        done, saved, last = 0, time.monotonic(), None
        for result in self.service.stepwise(steps):
            if result[0] is not last:  # a file's notes follow it: count each file once
                done += 1
                last = result[0]
            if isinstance(result[1], ReplacedText):
                continue
            outcome = result[1]
            if isinstance(outcome, SkippedFile):
                noted.append(outcome)
            elif isinstance(outcome, UnchangedFile):
                counts["unchanged"] += 1
            else:
                for document in outcome:
                    counts["changed" if document.doc_id in before else "added"] += 1
            record = self._progress(record, done, counts, noted)
            if time.monotonic() - saved >= SAVE_SECONDS:
                self._save(record)
                saved = time.monotonic()
            if self._stopping.is_set():
                self._save(replace(record, status="interrupted", finished=now_iso()))
                return
        removed = self._prune(paths, record.access()) if record.prune else 0
        with self.service.locked() as graph:
            graph.save_index()
        final = replace(record, status="done", removed=removed, finished=now_iso())
        self._save(final)

    def _progress(
        self, record: JobRecord, done: int, counts: dict[str, int], noted: list[SkippedFile]
    ) -> JobRecord:
        shown = tuple(
            {"path": s.path, "line": s.line, "reason": s.reason} for s in noted[:SHOWN_SKIPPED]
        )
        record = replace(
            record,
            files_done=done,
            skipped=len(noted),
            skipped_files=shown,
            added=counts["added"],
            changed=counts["changed"],
            unchanged=counts["unchanged"],
        )
        self._records[record.id] = record
        return record

    def _prune(self, paths: list[Path], access: Access) -> int:
        with self.service.locked() as graph:
            planned = graph.plan_index([], prune=paths).removed
            held = graph.store.reads.get_document
            gone = [d for d in planned if (doc := held(d)) is not None and may_write(access, doc)]
            for doc_id in gone:
                graph.remove_document(doc_id)
        return len(gone)
