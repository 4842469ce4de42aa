"""`manage.py resume_jobs [ID ...]`: continue background jobs that stopped before the end.

Without ids: every failed job, and every queued or running job whose lease ran out (no
progress for JOB_LEASE_SECONDS: its worker, or the request running it in-process, died).
Each goes on from its `resume_at`; records already stored are not stored again. With a broker
the jobs are queued for the workers; without one they run here, one after the other. (The
worker, `run_jobs`, takes abandoned jobs over by itself: this is for failed ones, or for a
set-up where no worker runs.)
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Q, QuerySet
from django.utils import timezone

from jobs.models import Job
from jobs.lease import lease_seconds
from jobs.publish import uses_celery
from jobs.queue import resume
from jobs.worker import run_here


def stopped_jobs() -> QuerySet[Job]:
    expired = timezone.now() - datetime.timedelta(seconds=lease_seconds())
    abandoned = Q(status__in=[Job.Status.QUEUED, Job.Status.RUNNING]) & (
        Q(heartbeat_at__lt=expired) | Q(heartbeat_at__isnull=True, created_at__lt=expired)
    )
    return Job.objects.filter(Q(status=Job.Status.FAILED) | abandoned)


class Command(BaseCommand):
    help = "Continue failed or abandoned background jobs from where they stopped."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("ids", nargs="*", type=int, help="these jobs (default: all stopped)")

    def handle(self, *args: Any, **options: Any) -> None:
        jobs = stopped_jobs()
        if options["ids"]:
            jobs = Job.objects.filter(pk__in=options["ids"]).exclude(status=Job.Status.DONE)
            missing = set(options["ids"]) - set(jobs.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"no unfinished job with id {', '.join(map(str, missing))}")
        for job in jobs.defer("report").order_by("pk"):
            self.stdout.write(f"job {job.pk} ({job.kind}): resuming at {job.resume_at}")
            resume(job)
            if not uses_celery():
                run_here(job.pk)
                job.refresh_from_db()
                self.stdout.write(f"job {job.pk}: {job.status}"
                                  + (f" ({job.error})" if job.error else ""))
