"""Running the job queue inside a test: what `manage.py run_jobs` does with the jobs queued
now (the default set-up's worker), in the test's own process and database."""

from __future__ import annotations


def run_worker() -> int:
    """Run every runnable job (and queue statistics once if games are due); how many ran."""
    from jobs.worker import Worker

    return Worker(stats_check=3600).drain()
