"""The MCP tools of folder ingest jobs: ``got_ingest_folder`` starts one, ``got_job_status``
reports it (the tools of ``POST /jobs`` and ``GET /jobs/{id}``, ``service.http_jobs``).

Both call the same :class:`~groundgraph.service.jobs.IngestJobs` as the HTTP routes, with
the caller's access, so they are scoped as the routes are: a read-write key starts a job,
which indexes for the key's scopes; a key sees only the jobs of its scopes; paths only
under the server's ingest roots. Sharing one ``IngestJobs`` with the app, a job started
over MCP is reported over HTTP and the other way round.

    status = await client.call_tool("got_job_status", {"job_id": started["id"]})
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import Field

from groundgraph.service.access import Access
from groundgraph.service.jobs import MAX_PATHS, IngestJobs

INGEST_TOOL = "got_ingest_folder"
STATUS_TOOL = "got_job_status"

Paths = Annotated[
    list[str],
    Field(
        description="Files and folders under the server's ingest roots (a relative path is "
        f"taken under the first root); at most {MAX_PATHS}."
    ),
]
Prune = Annotated[
    bool, Field(description="Remove the documents whose files under these paths are gone.")
]
Force = Annotated[bool, Field(description="Read and replace every file, changed or not.")]
JobId = Annotated[str, Field(description="The id got_ingest_folder answered.")]


def job_tools(
    jobs: IngestJobs, caller: Callable[[], Access]
) -> tuple[Callable[..., dict[str, Any]], Callable[..., dict[str, Any]]]:
    """The write tool that starts a job and the read tool that reports one."""

    def got_ingest_folder(
        paths: Paths, prune: Prune = False, force: Force = False
    ) -> dict[str, Any]:
        """Index files and folders under the server's ingest roots as a background job;
        answers the queued job's record (its id for got_job_status)."""
        return jobs.submit(paths, prune, caller(), force).to_dict()

    def got_job_status(job_id: JobId) -> dict[str, Any]:
        """How far an ingest job got: status (queued, running, done, failed, interrupted),
        files_done of files_total, and the documents added, changed, unchanged, removed."""
        return jobs.get(job_id, caller()).to_dict()

    return got_ingest_folder, got_job_status
