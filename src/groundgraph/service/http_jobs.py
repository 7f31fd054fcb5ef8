"""The folder ingest routes: ``POST /jobs`` queues a job, ``GET /jobs/{id}`` reports it.

    POST /jobs {"paths": ["handbook", "/srv/docs/notes.md"], "prune": false}
      -> 202 {"id": "...", "status": "queued", ...}
    GET /jobs/{id}
      -> {"id": ..., "status": "running", "files_done": 12, "files_total": 40, ...}

The POST needs a read-write key: a key bound to scopes indexes for its scopes (the
documents it adds are read by them, and it replaces or prunes only documents it may write,
``service.document_access``); a key sees only the jobs its scopes submitted, another's
being answered as an unknown id. Paths must lie under the server's ingest roots
(``service.jobs``); a path outside them is a 403, a missing one a 404, a bad body a 422.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Depends, Request

from groundgraph.errors import InputError
from groundgraph.service.access import Access
from groundgraph.service.http_calls import Calls, LimitedRoute, caller, calls
from groundgraph.service.jobs import IngestJobs, JobRecord

_FIELDS = frozenset({"paths", "prune", "force"})
_BODY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "paths": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Files and folders under the server's ingest roots (a relative "
            "path is taken under the first root).",
        },
        "prune": {
            "type": "boolean",
            "default": False,
            "description": "Remove the documents whose files under these paths are gone.",
        },
        "force": {
            "type": "boolean",
            "default": False,
            "description": "Read and replace every file, changed or not.",
        },
    },
    "required": ["paths"],
    "additionalProperties": False,
}


def jobs(request: Request) -> IngestJobs:
    found: IngestJobs = request.app.state.jobs
    return found


def jobs_router() -> APIRouter:
    router = APIRouter(tags=["jobs"], route_class=LimitedRoute)

    @router.post(
        "/jobs",
        status_code=202,
        summary="Index files and folders under the ingest roots, as a background job.",
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _BODY_SCHEMA}},
            }
        },
    )
    async def submit_job(
        body: Any = Body(default=None),  # noqa: B008
        who: Access = Depends(caller),  # noqa: B008
        run: Calls = Depends(calls),  # noqa: B008
        board: IngestJobs = Depends(jobs),  # noqa: B008
    ) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise InputError('the body must be a JSON object: {"paths": [...], "prune": false}')
        unknown = sorted(set(body) - _FIELDS)
        if unknown:
            raise InputError(
                f"POST /jobs takes no field {unknown[0]!r}; it takes paths, prune, force"
            )
        if "paths" not in body:
            raise InputError("POST /jobs needs the field 'paths'")
        record: JobRecord = await run.write(
            board.submit,
            body["paths"],
            body.get("prune", False),
            who,
            body.get("force", False),
        )
        return record.to_dict()

    @router.get("/jobs/{job_id}", summary="How far an ingest job got, and what it did.")
    async def job_status(
        job_id: str,
        who: Access = Depends(caller),  # noqa: B008
        run: Calls = Depends(calls),  # noqa: B008
        board: IngestJobs = Depends(jobs),  # noqa: B008
    ) -> dict[str, Any]:
        record: JobRecord = await run.read(board.get, job_id, who)
        return record.to_dict()

    return router
