"""Who runs a job (or a part of a split job) right now: its lease, for both transports.

The runner whose token is in `runner` refreshes `heartbeat_at` with every progress report and
from a thread of its own (`Heartbeat`). It is presumed dead once the lease is older than
JOB_LEASE_SECONDS, or at once when its process on this host is gone (`taken_over`); another
runner then claims the row and goes on from its last committed progress, and the old runner,
should it wake, finds the lease gone (`LeaseLost`) and stops without writing.
"""

from __future__ import annotations

import datetime
import logging
import os
import socket
import threading
import uuid
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, connections
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from jobs.models import Job, JobPart

logger = logging.getLogger(__name__)

# A job the database stopped runs again after this many seconds (as often as it takes).
DB_RETRY_SECONDS = 15
HOST = socket.gethostname()[:12]
DATABASE_GONE = (OperationalError, InterfaceError)


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


def claimable(model: Any, now: datetime.datetime, held: str | None = None) -> Q:
    """Rows of `model` (Job or JobPart) a runner may take now: a queued job, a part nobody
    holds (of a job not finished), a row whose runner is presumed dead (`taken_over`), or one
    `held` by this run's previous try (which takes it back)."""
    if model is Job:
        rows = Q(status=Job.Status.QUEUED) | taken_over(Job, now)
        mine = Q(status=Job.Status.RUNNING)
    else:
        rows = (Q(done=False, runner="") | taken_over(JobPart, now)) & ~Q(
            job__status__in=Job.FINISHED)
        mine = Q(done=False)
    return rows | (mine & Q(runner=held)) if held else rows


def take(model: Any, rows: Q, token: str) -> int:
    """Claim `rows` of `model` for `token` in one conditional UPDATE (of two runners that
    picked the same row, exactly one changes it); how many rows were claimed."""
    now = timezone.now()
    changes: dict[str, Any] = {"runner": token, "heartbeat_at": now,
                               "attempts": F("attempts") + 1}
    if model is Job:
        changes.update(status=Job.Status.RUNNING, run_after=None,
                       started_at=Coalesce("started_at", Value(now)))
    return int(model.objects.filter(rows).update(**changes))


def claim(job_id: int, token: str, held: str | None = None) -> Job | None:
    """Take the job's lease for `token` (`held`: the lease this run's previous try held): the
    job, or None when there is nothing to do (no such job, finished, or another runner holds
    a fresh lease)."""
    if take(Job, Q(pk=job_id) & claimable(Job, timezone.now(), held), token):
        return Job.objects.get(pk=job_id)
    return None


def claim_part(part_id: int, token: str, held: str | None = None) -> JobPart | None:
    """Take a part's lease, as `claim` a job's."""
    if take(JobPart, Q(pk=part_id) & claimable(JobPart, timezone.now(), held), token):
        return JobPart.objects.get(pk=part_id)
    return None


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


class Retry(Exception):
    """The database stopped a run: its progress is saved; run it again later (`not_stored`:
    the valid records of an import left to store)."""

    def __init__(self, error: str, not_stored: int = 0) -> None:
        super().__init__(error)
        self.error, self.not_stored = error, not_stored


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
