"""What `/healthz?detail=1` says about the background work: the queue, and the statistics
(games stored and not counted yet, ratings waiting, the last count that failed), so that a
count that failed is seen without reading the log."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from jobs.models import Job
from ratings.services import games_due, pending_ratings


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
