"""The database-backed worker (`manage.py run_jobs`), which runs the jobs when no Celery broker
is configured; the web server starts it beside itself (jobs/supervisor.py). Each worker claims
a part of a started job, else the oldest runnable job (jobs.lease.claimable), runs it while a
thread keeps its lease fresh, and every STATS_CHECK_SECONDS queues a statistics job when
games wait to be counted (docs/deploy.md, "Background jobs").

On PostgreSQL the candidate row is read with FOR UPDATE SKIP LOCKED, so workers do not wait
for each other; SQLite's transactions are serialised anyway (IMMEDIATE, config/settings.py).
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from jobs.lease import Heartbeat, claim, claimable, put_back, runner_token, take
from jobs.models import Job, JobPart
from jobs.parts import run_part
from jobs.publish import request_stats_if_due
from jobs.runs import execute

logger = logging.getLogger(__name__)

DEFAULT_POLL_SECONDS = 1.0


def _claim_first(model: Any, rows: Q, order: tuple[str, ...], token: str) -> Any:
    """The first of `rows` of `model` (Job or JobPart) in `order`, claimed for `token`; None
    when there is none."""
    for _ in range(5):  # another worker may take the candidate first: look again
        with transaction.atomic():
            candidates = model.objects.filter(rows).order_by(*order)
            if connection.features.has_select_for_update_skip_locked:
                candidates = candidates.select_for_update(skip_locked=True, of=("self",))
            row = candidates.values("pk", "runner").first()
            if row is None:
                return None
            taken = take(model, Q(**row) & rows, token)
        if taken:
            if row["runner"]:
                logger.warning("%s %s: taken over from runner %s (it stopped)",
                               model._meta.model_name, row["pk"], row["runner"])
            return model.objects.get(pk=row["pk"])
    return None


def claim_next(token: str) -> Job | None:
    """Take the oldest runnable job for `token` (not one held back by `run_after`); None when
    there is none."""
    now = timezone.now()
    rows = claimable(Job, now) & (Q(run_after__isnull=True) | Q(run_after__lte=now))
    return _claim_first(Job, rows, ("created_at", "pk"), token)


def claim_next_part(token: str, job_id: int | None = None) -> JobPart | None:
    """Take the first runnable part (of the oldest job; of job `job_id` only, if given)."""
    rows = claimable(JobPart, timezone.now())
    if job_id is not None:
        rows &= Q(job_id=job_id)
    return _claim_first(JobPart, rows, ("job_id", "number"), token)


def run_one(job: Job, token: str) -> None:
    """Run a job this worker claimed, then its parts if it was split (other workers take some
    meanwhile); queue it again if the database stopped it."""
    logger.info("job %s (%s): started at %s", job.pk, job.kind, job.resume_at)
    with Heartbeat(job.pk, token):
        retry = execute(job, token)
    if retry is not None:
        put_back(job.pk, token, retry)
    else:
        while (part := claim_next_part(token, job.pk)) is not None:
            if run_part(part.pk, token) is not None:
                break  # the database stopped it: the part waits for the next look
    logger.info("job %s: %s", job.pk, "queued again" if retry else "ended")


def run_here(job_id: int) -> None:
    """Run a job in this process now, as a worker would (a command's own run), unless another
    runner holds it or it is over."""
    token = runner_token()
    if (job := claim(job_id, token)) is not None:
        run_one(job, token)


class Worker:
    """One worker process: claims and runs jobs one at a time until stopped."""

    def __init__(self, *, poll: float | None = None, stats_check: float | None = None,
                 parent_pid: int | None = None) -> None:
        self.poll = poll if poll is not None else DEFAULT_POLL_SECONDS
        self.stats_check = stats_check if stats_check is not None else float(
            settings.STATS_CHECK_SECONDS)
        self.parent_pid = parent_pid
        self.stopping = False
        self._next_check = 0.0

    def stop(self, *args: Any) -> None:
        """Finish the job at hand, then exit (SIGTERM, SIGINT)."""
        self.stopping = True

    def orphaned(self) -> bool:
        """The process that started this worker (the web server) is gone: exit with it."""
        return self.parent_pid is not None and os.getppid() != self.parent_pid

    def run_once(self) -> bool:
        """Run at most one job (after the statistics check, when one is due); whether there
        was one."""
        if time.monotonic() >= self._next_check:
            self._next_check = time.monotonic() + self.stats_check
            request_stats_if_due()
        token = runner_token()
        part = claim_next_part(token)
        if part is not None:
            run_part(part.pk, token)
            return True
        job = claim_next(token)
        if job is None:
            return False
        run_one(job, token)
        return True

    def run_forever(self) -> None:
        while not self.stopping and not self.orphaned():
            # Between jobs, as between requests: drop a connection that broke or aged out.
            close_old_connections()
            try:
                busy = self.run_once()
            except (OperationalError, InterfaceError) as exc:
                logger.warning("job worker: database unavailable (%s); trying again",
                               " ".join(str(exc).split()))
                connection.close()
                busy = False
            if not busy:
                self._sleep(self.poll)

    def drain(self) -> int:
        """Run jobs until none is runnable; how many ran (`run_jobs --until-empty`). The
        statistics check runs once, first (a count that keeps failing is not queued again and
        again)."""
        ran = 0
        while self.run_once():
            self._next_check = float("inf")
            ran += 1
        return ran

    def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while not self.stopping and time.monotonic() < end:
            time.sleep(min(0.2, end - time.monotonic()))
