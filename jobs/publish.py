"""Handing queued work to its transport, and Celery's periodic checks that nothing waits for a
runner that is gone.

Without a broker the database worker (jobs/worker.py) reads the job table: a committed row is
all it needs. With CELERY_BROKER_URL a message is sent, by task name, once the row commits; a
message delivered twice is harmless, as the lease decides who runs a row (jobs/lease.py).
"""

from __future__ import annotations

import datetime
import logging

from celery import current_app, current_task
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from jobs.lease import lease_seconds, taken_over
from jobs.models import Job, JobPart
from ratings.services import stats_due

logger = logging.getLogger(__name__)

RUN_JOB = "jobs.run_job"
RUN_PART = "jobs.run_part"


def uses_celery() -> bool:
    """A broker is configured: Celery's workers run the jobs (else the database worker)."""
    return bool(getattr(settings, "CELERY_BROKER_URL", ""))


def _send(name: str, pk: int, queue: str | None) -> None:
    def send() -> None:
        try:
            # current_app: config's app, loaded with Django (config/__init__.py).
            current_app.send_task(name, args=[pk], queue=queue)
        except BrokerUnavailable as exc:
            # The row is committed: the periodic check sends it once the broker is back. The
            # request that queued it (an upload) is answered all the same.
            logger.warning("%s %s not sent (broker unavailable: %s); the periodic check sends "
                           "it again", name, pk, exc)

    transaction.on_commit(send)


def enqueue(job: Job, queue: str | None = None) -> None:
    """Hand a queued job to the workers once its row is committed (on `queue`, else Celery's
    default one)."""
    if uses_celery():
        _send(RUN_JOB, job.pk, queue)


def dispatch_part(part_id: int, queue: str | None = None) -> None:
    """Hand a part of a split job to the workers (the database worker finds it by itself)."""
    if uses_celery():
        _send(RUN_PART, part_id, queue)


def current_queue() -> str | None:
    """The queue the running Celery task came by (None outside one): the pieces of a split
    job go where the job itself went, so a deployment that routes a kind of job to workers
    of its own keeps its pieces there."""
    info = getattr(getattr(current_task, "request", None), "delivery_info", None) or {}
    return info.get("routing_key") or None


def request_stats() -> None:
    """Make sure a statistics job is queued (one waiting is enough: it counts every game due
    when it runs)."""
    if Job.objects.filter(kind=Job.Kind.STATS, status=Job.Status.QUEUED).exists():
        return
    enqueue(Job.objects.create(kind=Job.Kind.STATS))


def request_stats_if_due() -> bool:
    """The periodic statistics check: when something is due, a statistics job is queued, or
    the one queued is sent again (under Celery its message may be lost: a row nobody runs must
    never hold the count back; a second delivery runs it once). Whether something was due."""
    if not stats_due():
        return False
    waiting = (Job.objects.filter(kind=Job.Kind.STATS, status=Job.Status.QUEUED)
               .order_by("pk").first())
    if waiting is None:
        request_stats()
    elif waiting.run_after is None or waiting.run_after <= timezone.now():
        enqueue(waiting)
    return True


def take_over_abandoned() -> int:
    """Queue again the jobs and parts whose runner is presumed dead (lease run out, or its
    process on this host gone), and the queued jobs and parts nobody took for a lease (their
    message lost): Celery's counterpart of the database worker's takeover. How many were
    queued again."""
    now = timezone.now()
    again = 0
    for pk, runner in Job.objects.filter(taken_over(Job, now)).values_list("pk", "runner"):
        if Job.objects.filter(pk=pk, runner=runner, status=Job.Status.RUNNING).update(
                status=Job.Status.QUEUED, runner="", heartbeat_at=None, run_after=None):
            logger.warning("job %s: taken over from runner %s (it stopped)", pk, runner)
            enqueue(Job(pk=pk))
            again += 1
    idle = now - datetime.timedelta(seconds=lease_seconds())
    # Queued jobs nobody took for a lease: their message may be lost (with a killed worker
    # holding a put-back job's retry, with a Redis that was not persisted, or never sent: queued
    # before a switch from the database worker). Sent again, once a lease: a second delivery
    # of a job that runs or ran does nothing.
    stuck = Job.objects.filter(Q(run_after__lt=idle) | Q(run_after__isnull=True,
                                                          created_at__lt=idle),
                               status=Job.Status.QUEUED)
    for pk in stuck.values_list("pk", flat=True):
        if Job.objects.filter(pk=pk, status=Job.Status.QUEUED).update(run_after=now):
            enqueue(Job(pk=pk))
            again += 1
    # A part nobody took while its whole job made no progress for a lease: its message is lost
    # (not merely waiting behind the job's other parts).
    unclaimed = Q(done=False, runner="", heartbeat_at__lt=idle, job__heartbeat_at__lt=idle)
    parts = (JobPart.objects.filter(taken_over(JobPart, now) | unclaimed)
             .exclude(job__status__in=Job.FINISHED))
    for pk, runner in parts.values_list("pk", "runner"):
        if JobPart.objects.filter(pk=pk, runner=runner, done=False).update(
                runner="", heartbeat_at=now):
            logger.warning("job part %s: queued again (runner %r stopped)", pk, runner)
            dispatch_part(pk)
            again += 1
    return again

