"""What `/healthz` says about the background work: `degraded` with its reasons when games wait
to be counted longer than a bound, or a job (or a part of one) made no progress past its lease
(its runner died and nothing took it over: no worker, no beat); with `?detail=1` the queue and
the statistics (games not counted yet, ratings waiting, the last count that failed)."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from jobs.lease import lease_seconds
from jobs.models import Job, JobPart
from ratings.services import games_due, pending_ratings
from records.models import Game

# Looking for old uncounted games is an anti-join of the games with the counted ones (hundreds
# of milliseconds at a million rounds): the answer is kept this long.
LAG_CACHE_SECONDS = 30
LAG_KEY = "jobs:health:uncounted"


def counting_bound() -> int:
    """Seconds a stored game may wait to be counted before the site says it is degraded:
    several statistics checks, and at least five minutes (a large count takes a while)."""
    return max(300, 3 * int(settings.STATS_CHECK_SECONDS))


def degraded() -> list[str]:
    """Why the background work is behind (empty: it is not)."""
    now = timezone.now()
    reasons = []
    bound = counting_bound()
    cutoff = now - datetime.timedelta(seconds=bound)
    late = cache.get_or_set(
        LAG_KEY, Game.objects.filter(counted__isnull=True, uploaded_at__lt=cutoff).count,
        LAG_CACHE_SECONDS)
    if late:
        reasons.append(f"{late} stored games waiting more than {bound} s to be counted in "
                       "the statistics")
    expired = now - datetime.timedelta(seconds=lease_seconds())
    stalled = list(Job.objects.filter(status=Job.Status.RUNNING, heartbeat_at__lt=expired)
                   .order_by("pk").values_list("pk", flat=True)[:10])
    # A part that waits for a worker is not stalled (its job's row says whether any moves).
    stalled += list(JobPart.objects.filter(done=False, heartbeat_at__lt=expired)
                    .exclude(runner="").exclude(job__status__in=Job.FINISHED)
                    .exclude(job_id__in=stalled)
                    .order_by("job_id").values_list("job_id", flat=True).distinct()[:10])
    if stalled:
        reasons.append(f"no progress for more than {lease_seconds()} s (the lease) on job "
                       f"{', '.join(str(pk) for pk in sorted(set(stalled)))}")
    return reasons


def queue_health() -> dict[str, Any]:
    queued = Job.objects.filter(status=Job.Status.QUEUED)
    oldest = queued.order_by("created_at").values_list("created_at", flat=True).first()
    return {
        "queued": queued.count(),
        "running": Job.objects.filter(status=Job.Status.RUNNING).count(),
        "oldest_queued_seconds": (
            round((timezone.now() - oldest).total_seconds(), 1) if oldest else None
        ),
    }


def statistics_health() -> dict[str, Any]:
    last = (
        Job.objects.filter(kind=Job.Kind.STATS, status__in=Job.FINISHED)
        .order_by("-finished_at", "-pk").values("pk", "status", "finished_at", "error").first()
    )
    failure = None
    if last is not None and last["status"] == Job.Status.FAILED:
        failure = {"job": last["pk"], "at": last["finished_at"], "error": last["error"]}
    return {
        "games_due": games_due(),
        "ratings_pending": sorted(pending_ratings()),
        "last_failure": failure,
    }
