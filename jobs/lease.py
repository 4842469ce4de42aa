"""Who runs a job (or a part of a split job) right now: its lease.

A job is run by one runner at a time, the one whose token is in `runner` and who refreshes
`heartbeat_at` (with every progress report, and every JOB_LEASE_SECONDS / 6 from a thread of its
own, `Heartbeat`). A runner that stops refreshing it is presumed dead once the lease is older
than JOB_LEASE_SECONDS, or at once when its process on this host is gone (`taken_over`); another
runner then claims the row and goes on from its last committed progress, and the old runner,
should it wake, finds the lease gone (`LeaseLost`) and stops without writing.

Both transports use these: the database worker (jobs/worker.py) and Celery (jobs/tasks.py).
"""

from __future__ import annotations

import datetime
import logging
import os
import socket
import threading
import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, connections, transaction
from django.db.models import Q
from django.utils import timezone

from jobs.models import Job, JobPart

logger = logging.getLogger(__name__)

# A job the database stopped runs again after this many seconds (as often as it takes).
DB_RETRY_SECONDS = 15
HOST = socket.gethostname()[:12]
DATABASE_GONE = (OperationalError, InterfaceError)


class Busy(Exception):
    """Another runner holds the lease."""


class LeaseLost(Exception):
    """This runner's lease was taken over (it was presumed dead): stop without writing."""


def lease_seconds() -> int:
    return int(settings.JOB_LEASE_SECONDS)


def runner_token() -> str:
    """A run's token: host and process, so that a runner on the same host can tell that the
    process holding a lease is gone (`taken_over`), then a random part (32 characters in all)."""
    return f"{HOST}:{os.getpid()}:{uuid.uuid4().hex}"[:32]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def dead_runners(runners: Any) -> list[str]:
    """Of these runner tokens, those of a process of this host that is gone."""
    prefix = f"{HOST}:"
    dead = []
    for runner in runners:
        pid = runner[len(prefix):].split(":", 1)[0] if runner.startswith(prefix) else ""
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            dead.append(runner)
    return dead


def taken_over(model: Any, now: datetime.datetime) -> Q:
    """Rows of `model` (Job or JobPart) held by a runner presumed dead: a lease older than
    JOB_LEASE_SECONDS, or a runner process of this host that is gone."""
    expired = now - datetime.timedelta(seconds=lease_seconds())
    held = (Q(status=Job.Status.RUNNING) if model is Job else Q(done=False)) & ~Q(runner="")
    dead = dead_runners(model.objects.filter(held).values_list("runner", flat=True))
    lapsed = Q(heartbeat_at__lt=expired) | Q(heartbeat_at__isnull=True)
    return held & (lapsed | Q(runner__in=dead))


def _fresh(row: Any, now: datetime.datetime) -> bool:
    return (row.heartbeat_at is not None
            and (now - row.heartbeat_at).total_seconds() < lease_seconds()
            and not dead_runners([row.runner]))


def claim(job_id: int, token: str, held: str | None = None) -> Job | None:
    """Take the job's lease for `token`: the job, or None when there is nothing to do (no such
    job, or finished). Raises Busy when another runner holds a fresh lease (`held`: a lease
    this run's previous try held, which it takes back)."""
    return _claim(Job, job_id, token, held)


def claim_part(part_id: int, token: str, held: str | None = None) -> JobPart | None:
    """Take a part's lease (None: nothing to do); Busy while another run holds it fresh."""
    return _claim(JobPart, part_id, token, held)


def _claim(model: Any, pk: int, token: str, held: str | None) -> Any:
    with transaction.atomic():
        row = model.objects.select_for_update().filter(pk=pk).first()
        if row is None or (row.finished if model is Job else row.done):
            return None
        now = timezone.now()
        running = model is JobPart or row.status == Job.Status.RUNNING
        if running and row.runner and row.runner != held and _fresh(row, now):
            raise Busy
        row.runner, row.heartbeat_at, row.attempts = token, now, row.attempts + 1
        fields = ["runner", "heartbeat_at", "attempts"]
        if model is Job:
            row.status, row.started_at, row.run_after = (Job.Status.RUNNING,
                                                         row.started_at or now, None)
            fields += ["status", "started_at", "run_after"]
        row.save(update_fields=fields)
    return row


def update(job: Job, token: str, **fields: Any) -> None:
    """Write progress if this runner still holds the lease (one short transaction)."""
    fields["heartbeat_at"] = timezone.now()
    if not Job.objects.filter(pk=job.pk, runner=token).update(**fields):
        raise LeaseLost(f"job {job.pk}: lease taken over by another runner")


def finish(job: Job, token: str, status: str, **fields: Any) -> None:
    """End the job (done or failed) if this runner still holds the lease."""
    fields.setdefault("error", "")
    update(job, token, status=status, finished_at=timezone.now(), **fields)


def fail(job_id: int, token: str, error: str, *, not_stored: int = 0) -> None:
    """Mark the job failed with its reason (`manage.py resume_jobs` goes on from there)."""
    try:
        Job.objects.filter(pk=job_id, runner=token).update(
            status=Job.Status.FAILED, finished_at=timezone.now(), error=error[:4000],
            not_stored=not_stored,
        )
    except DATABASE_GONE:
        logger.exception("job %s: could not record its failure", job_id)


@dataclass(frozen=True)
class Retry:
    """A run the database stopped: its progress is saved; run it again later."""

    error: str
    not_stored: int = 0


def put_back(job_id: int, token: str, retry: Retry, delay: float = DB_RETRY_SECONDS) -> bool:
    """Queue a job the database stopped again, to run after `delay` seconds (from `resume_at`:
    nothing is done twice); whether that was written. Left as it is when even that write
    fails: its lease then runs out and a worker takes it over all the same."""
    try:
        Job.objects.filter(pk=job_id, runner=token).update(
            status=Job.Status.QUEUED, runner="", heartbeat_at=None, not_stored=retry.not_stored,
            run_after=timezone.now() + datetime.timedelta(seconds=delay),
            error=f"{retry.error[:3900]} (tried again automatically)",
        )
    except DATABASE_GONE:
        logger.warning("job %s: could not queue it again (database unavailable); its lease "
                       "will run out and a worker will take it over", job_id)
        return False
    return True


def release_part(part_id: int, token: str) -> None:
    """Give up a part the database stopped: any runner takes it again (its lease runs out all
    the same when even this write fails)."""
    try:
        JobPart.objects.filter(pk=part_id, runner=token).update(runner="", heartbeat_at=None)
    except DATABASE_GONE:
        pass


class Heartbeat:
    """While a job runs, refresh its lease every JOB_LEASE_SECONDS / 6 from a thread of its
    own (with its own database connection): a job that reports no progress for a while (a
    long rating replay, one slow batch) is not taken for abandoned while its runner lives."""

    def __init__(self, row_id: int, token: str, *, enabled: bool = True, model: Any = Job
                 ) -> None:
        # `model`: JobPart for a part of a split job, which has a lease of its own.
        self.row_id, self.token, self.enabled, self.model = row_id, token, enabled, model
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Heartbeat:
        if self.enabled:
            self._thread = threading.Thread(target=self._beat, name=f"job-{self.row_id}-lease",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()

    def _beat(self) -> None:
        try:
            while not self._stop.wait(max(lease_seconds() / 6, 0.2)):
                try:
                    self.model.objects.filter(pk=self.row_id, runner=self.token).update(
                        heartbeat_at=timezone.now()
                    )
                except DATABASE_GONE:
                    logger.warning("job %s: lease not refreshed (database unavailable)",
                                   self.row_id)
        finally:
            connections.close_all()  # this thread's own connection
