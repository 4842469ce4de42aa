"""The Celery transport: the tasks that run jobs and their parts, and the periodic checks.

Each task is acknowledged late and requeued when its worker process is lost; the lease
(jobs/lease.py) decides who runs a row, so a second delivery does nothing. A task the database
stops is retried with a growing pause (1, 2, 4 ... DB_RETRY_SECONDS), as often as it takes, from
its last committed progress. Beat's `take_over` queues again the work of dead runners and lost
messages, `catch_up_stats` the statistics (docs/deploy.md, "With Celery"). Task names are
fixed: jobs.publish sends them by name.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task

from jobs import publish
from jobs.lease import (
    DATABASE_GONE,
    DB_RETRY_SECONDS,
    Heartbeat,
    claim,
    claim_part,
    fail,
    put_back,
    runner_token,
)
from jobs.parts import run_part
from jobs.runs import execute

logger = logging.getLogger(__name__)

OPTIONS = {"bind": True, "acks_late": True, "reject_on_worker_lost": True, "max_retries": None}


def pause(task: Task) -> int:
    """Seconds before the next try of a task the database stopped: doubled each time."""
    return int(min(DB_RETRY_SECONDS, 2 ** task.request.retries))


def _claimed(task: Task, take: Any, pk: int, held: str | None) -> tuple[str, Any]:
    """A new run's token and the row `take` (`claim` or `claim_part`) claimed for it (None:
    nothing to do, or another runner holds it: should it die, `take_over` queues it again);
    the task is retried while the database is gone."""
    token = runner_token()
    try:
        return token, take(pk, token, held)
    except DATABASE_GONE as exc:
        logger.warning("%s %s: database unavailable (%s); tried again", task.name, pk, exc)
        raise task.retry(countdown=pause(task), kwargs={"held": held}) from None


@shared_task(name=publish.RUN_JOB, **OPTIONS)
def run_job(self: Task, job_id: int, held: str | None = None) -> None:
    """Run a job (any kind) from its last committed progress. `held`: the lease this task's
    previous try held when the database stopped it."""
    token, job = _claimed(self, claim, job_id, held)
    if job is None:
        return
    eager = bool(self.request.is_eager)
    with Heartbeat(job.pk, token, enabled=not eager):
        retry = execute(job, token)
    if retry is None:
        return
    if eager:
        fail(job_id, token, retry.error, not_stored=retry.not_stored)
        return
    put_back(job_id, token, retry, delay=0)
    raise self.retry(countdown=pause(self), kwargs={"held": token})


@shared_task(name=publish.RUN_PART, **OPTIONS)
def run_job_part(self: Task, part_id: int, held: str | None = None) -> None:
    """Run one part of a split job (jobs/parts.py), then end the job if it was the last."""
    token, part = _claimed(self, claim_part, part_id, held)
    if part is None:
        return
    if run_part(part_id, token, heartbeat=not self.request.is_eager) is not None:
        raise self.retry(countdown=pause(self), kwargs={"held": token})


def _periodic(check: Any, what: str) -> None:
    try:
        check()
    except DATABASE_GONE as exc:
        logger.warning("%s: database unavailable (%s); next time", what, exc)


@shared_task(name="jobs.take_over")
def take_over() -> None:
    """Periodic (beat): queue again the work of runners presumed dead (jobs.publish)."""
    _periodic(publish.take_over_abandoned, "take-over check")


@shared_task(name="jobs.catch_up_stats")
def catch_up_stats() -> None:
    """Periodic (beat): make sure a statistics job runs when games wait to be counted."""
    _periodic(publish.request_stats_if_due, "statistics check")
