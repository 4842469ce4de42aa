"""Fixtures for the analysis tests: small bot-played rounds stored through the import service,
a low sample count (the method's own tests and bench measure it at full strength), and a way
to run the queued jobs as a worker would."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from jobs.models import Job
from jobs.tasks import TASKS
from tests.api.conftest import (  # noqa: F401
    _fresh_caches,
    api,
    client_for,
    other_user,
    round_text,
    staff,
    store,
    user,
)

# Enough to exercise every path, cheap enough for a unit test.
SAMPLES = 4


@pytest.fixture(autouse=True)
def _few_samples() -> Any:
    with override_settings(ANALYSIS_SAMPLES=SAMPLES, ANALYSIS_MAX_SAMPLES=50):
        yield


@pytest.fixture
def held_jobs(monkeypatch: pytest.MonkeyPatch) -> list[Job]:
    """Jobs stay queued (as with a busy worker) instead of running; the list holds them."""
    held: list[Job] = []
    monkeypatch.setattr("jobs.queue.enqueue", held.append)
    return held


def run_queued() -> int:
    """Run every queued job once, oldest first, as the worker does; returns how many ran."""
    ran = 0
    for job in Job.objects.filter(status=Job.Status.QUEUED).order_by("pk"):
        TASKS[job.kind].apply(args=[job.pk])
        ran += 1
    return ran


@pytest.fixture
def game_id(db: None, user: Any) -> int:
    """A two-seat classic round (a short one: a few dozen decisions)."""
    (pk,) = store([round_text(5, "classic", 2, ("An", "Bình"))], user)
    return pk


@pytest.fixture
def four_seat_id(db: None, user: Any) -> int:
    (pk,) = store([round_text(7, "classic", 4, ("An", "Bình", "Chi", "Dũng"))], user)
    return pk
