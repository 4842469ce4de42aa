"""Starting jobs. Every upload is a job: one under BACKGROUND_IMPORT_MIN_BYTES runs at once in
the request that sent it, under the same lease as a worker's run (a request killed half-way
leaves a job a worker takes over); the rest are queued (jobs/publish.py). Statistics are never
counted in the request: an upload queues a statistics job.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import OperationalError, transaction
from django.utils import timezone

from jobs import payload, publish
from jobs.lease import put_back, runner_token
from jobs.models import Job, creator
from jobs.runs import execute


def background_min_bytes() -> int:
    return int(settings.BACKGROUND_IMPORT_MIN_BYTES)


def upload_size(source: Any, declared: int = 0) -> int:
    """An upload's size in bytes: pasted text's in UTF-8, an uploaded file's, else `declared`
    (a raw body's Content-Length), so that the web form and the API decide alike whether it
    runs in the request."""
    if isinstance(source, str):
        return len(source.encode("utf-8", "surrogatepass"))
    size = getattr(source, "size", None)  # an uploaded file
    return size if isinstance(size, int) else declared


def create_import_job(source: Any, user: Any, name: str = "", *, runner: str = "",
                      given: Mapping[str, str] | None = None) -> Job:
    """An import of `source` (bytes, text, an uploaded file or a binary stream), its upload
    stored a chunk at a time. With `runner`, the job is created already claimed by that run
    (an upload run in its request): no worker takes it unless that run dies. `given`: the
    tags for the records without their own (records.services.ImportOptions)."""
    now = timezone.now()
    with transaction.atomic():
        job = Job.objects.create(
            kind=Job.Kind.IMPORT,
            created_by=creator(user),
            payload_is_text=isinstance(source, str),
            payload_name=name[:255],
            options={"given": dict(given)} if given else {},
            **({"status": Job.Status.RUNNING, "runner": runner, "started_at": now,
                "heartbeat_at": now, "attempts": 1} if runner else {}),
        )
        job.payload_size = payload.store(job, source)
        job.save(update_fields=["payload_size"])
    return job


def resume(job: Job) -> None:
    """Queue a failed or abandoned job again: it goes on from `resume_at`."""
    Job.objects.filter(pk=job.pk).exclude(status=Job.Status.DONE).update(
        status=Job.Status.QUEUED, finished_at=None, heartbeat_at=None, runner="", run_after=None
    )
    publish.enqueue(job)


@dataclass(frozen=True)
class Submitted:
    """An upload's job, and whether it finished within the request."""

    job: Job
    finished: bool


def submit_upload(source: Any, user: Any, name: str = "", *, size: int | None = None,
                  given: Mapping[str, str] | None = None) -> Submitted:
    """The one entry point for uploads (web form and API): the job, run here when small (under
    BACKGROUND_IMPORT_MIN_BYTES), queued for a worker otherwise. A small upload the database
    stopped half-way is queued again for the worker (nothing to send again); if the database
    is still down, OperationalError: the request answers 503 like any other meanwhile."""
    inline = size is not None and size < background_min_bytes()
    token = runner_token() if inline else ""
    job = create_import_job(source, user, name, runner=token, given=given)
    if not inline:
        publish.enqueue(job)
        return Submitted(job, False)
    retry = execute(job, token)
    if retry is not None:
        if not put_back(job.pk, token, retry):
            # Still down: the answer is the 503 every request gets meanwhile (sending the file
            # again is safe; the job itself is taken over once its lease runs out).
            raise OperationalError(f"upload job {job.pk}: {retry.error}")
        publish.enqueue(job)
    job.refresh_from_db()
    return Submitted(job, job.finished)


def submit_revalidate(user: Any, *, stale: bool = False, update: bool = False) -> Job:
    job = Job.objects.create(kind=Job.Kind.REVALIDATE, created_by=creator(user),
                             options={"stale": stale, "update": update})
    publish.enqueue(job)
    return job
