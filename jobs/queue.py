"""Starting jobs: when an upload becomes a job, storing its bytes, handing it to a worker.

In-process mode (no CELERY_BROKER_URL): Celery runs the task eagerly, in the request that
created the job, after the Job row is committed. Not in a thread, on purpose: the embedded
setup is SQLite, which has one writer at a time, and a thread would hold the write lock
against every other request for the whole import and die silently with its process (a
development-server reload, a gunicorn worker recycled) with nothing to deliver it again. In
the request, the job lives exactly as long as the request; its progress is still in the Job
row for another tab or the API to follow, and a job cut short keeps `resume_at`, so
`manage.py resume_jobs` continues it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction

from jobs.models import Job

DEFAULT_BACKGROUND_MIN_BYTES = 256 * 1024


def background_min_bytes() -> int:
    return int(getattr(settings, "BACKGROUND_IMPORT_MIN_BYTES", DEFAULT_BACKGROUND_MIN_BYTES))


def is_large(size: int) -> bool:
    """Whether an upload of `size` bytes runs as a background job."""
    return size >= background_min_bytes()


def in_process() -> bool:
    """No broker configured: jobs run in the request that starts them."""
    from config.celery import app

    return bool(app.conf.task_always_eager)


def _payload(source: Any) -> tuple[bytes, bool]:
    """The upload's bytes, and whether they came as text (see Job.payload)."""
    if isinstance(source, str):
        # surrogatepass: text decoded from JSON may hold a lone surrogate; it goes back to the
        # import as the same text, which refuses that record with its position.
        return source.encode("utf-8", "surrogatepass"), True
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), False
    chunks = getattr(source, "chunks", None)
    if callable(chunks):  # an UploadedFile: spooled to disk by Django, read piece by piece
        return b"".join(chunks()), False
    data = source.read()
    return (data.encode("utf-8", "surrogatepass"), True) if isinstance(data, str) else (data, False)


def create_import_job(source: Any, user: Any, name: str = "") -> Job:
    """A queued import of `source` (bytes, text, an uploaded file or a binary stream)."""
    payload, is_text = _payload(source)
    return Job.objects.create(
        kind=Job.Kind.IMPORT,
        created_by=user if getattr(user, "is_authenticated", False) else None,
        payload=payload,
        payload_is_text=is_text,
        payload_name=name[:255],
        payload_size=len(payload),
    )


def create_revalidate_job(user: Any, *, stale: bool = False, update: bool = False) -> Job:
    return Job.objects.create(
        kind=Job.Kind.REVALIDATE,
        created_by=user if getattr(user, "is_authenticated", False) else None,
        options={"stale": stale, "update": update},
    )


def enqueue(job: Job) -> None:
    """Hand the job to a worker once its row is committed (with no broker: run it now)."""
    from jobs.tasks import TASKS

    task = TASKS[job.kind]
    if in_process():
        # The row was written by this very connection: the task sees it, committed or not.
        task.apply(args=[job.pk])
        return
    # A worker on another connection must find the row: publish only after the commit.
    transaction.on_commit(lambda: task.delay(job.pk))


def resume(job: Job) -> None:
    """Queue a failed or abandoned job again: it goes on from `resume_at`."""
    Job.objects.filter(pk=job.pk).exclude(status=Job.Status.DONE).update(
        status=Job.Status.QUEUED, finished_at=None, heartbeat_at=None, runner=""
    )
    enqueue(job)


def submit_import(source: Any, user: Any, name: str = "") -> Job:
    job = create_import_job(source, user, name)
    enqueue(job)
    job.refresh_from_db()
    return job


def submit_revalidate(user: Any, *, stale: bool = False, update: bool = False) -> Job:
    job = create_revalidate_job(user, stale=stale, update=update)
    enqueue(job)
    job.refresh_from_db()
    return job
