"""Fixtures for every test that touches analyses (the analysis tests, the web pages', the
browser's), registered for the whole suite by tests/conftest.py: a low sample count and a way
to run the queued jobs as a worker would."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings

from jobs.models import Job
from jobs.publish import RUN_JOB
from jobs.tasks import run_job

# Two deals an option, the fewest that give an estimate its standard error: every path runs, at
# half the cost of four (the method's own tests and bench/analysis.py measure the reviewer at its
# full sample count).
SAMPLES = 2


@pytest.fixture
def few_analysis_samples() -> Iterator[None]:
    with override_settings(ANALYSIS_SAMPLES=SAMPLES, ANALYSIS_MAX_SAMPLES=50):
        yield


@pytest.fixture
def held_jobs(monkeypatch: pytest.MonkeyPatch) -> list[Job]:
    """Jobs stay queued (as with a busy worker) even when a test configures a broker; the
    list holds those handed to it."""
    held: list[Job] = []

    def send(name: str, pk: int, queue: str | None) -> None:  # what Celery would be sent
        if name == RUN_JOB:
            held.append(Job(pk=pk))

    monkeypatch.setattr("jobs.publish._send", send)
    return held


def run_queued() -> int:
    """Run every queued job once, oldest first, as the worker does; returns how many ran."""
    ran = 0
    for job in Job.objects.filter(status=Job.Status.QUEUED).order_by("pk"):
        run_job.apply(args=[job.pk])
        ran += 1
    return ran
