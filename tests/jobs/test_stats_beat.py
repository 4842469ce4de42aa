"""With a broker, Celery beat's schedule entry ("statistics-catch-up", CELERY_BEAT_SCHEDULE) is
what finds games stored and never counted (a run that died between storing and counting): it
queues a statistics job, and that job counts them. Without a broker the database worker's own
periodic look does the same (tests/jobs/test_worker.py).

Two proofs: the schedule's entry driven by Celery's own beat scheduler in this process (a tick
once the interval has passed; tasks run eagerly without a broker), and a real
`celery -A config worker -B` against Redis and this test database (PostgreSQL: the worker is
another process; skipped otherwise), left alone until the games are counted.
"""

from __future__ import annotations

import datetime
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery import beat
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import connection

from config.celery import app
from jobs.models import Job
from ratings.models import CountedGame
from records.models import Game
from records.services import import_records
from tests.worker import database_url, run_worker

from .conftest import make_upload

ROOT = Path(__file__).resolve().parents[2]

ENTRY = "statistics-catch-up"


def _stored_not_counted(user: AbstractUser, count: int) -> None:
    """Games committed with nothing asking for their statistics, as a dead run leaves them."""
    import_records(make_upload(count).text, user, announce=False)
    assert Game.objects.filter(counted__isnull=True).count() == count
    assert not Job.objects.exists() and not CountedGame.objects.exists()


@pytest.mark.django_db
def test_it_schedules_the_catch_up_every_stats_check_interval() -> None:
    entry = beat.Scheduler(app).schedule[ENTRY]
    assert entry.task == "jobs.catch_up_stats" and entry.task in app.tasks
    assert entry.schedule.run_every == datetime.timedelta(seconds=settings.STATS_CHECK_SECONDS)


@pytest.mark.django_db
def test_it_counts_due_games_when_beat_runs_its_entry(user: AbstractUser) -> None:
    _stored_not_counted(user, 4)
    started = beat.Scheduler(app)
    assert started.tick() > 0  # beat just started: the entry waits for its interval
    assert not Job.objects.exists()

    # A beat whose entry last ran an interval ago: its first tick applies the entry (the
    # task runs in-process without a broker, as a worker would run it with one).
    scheduler = beat.Scheduler(app)
    entry = scheduler.schedule[ENTRY]
    entry.last_run_at = entry.last_run_at - entry.schedule.run_every
    assert scheduler.tick() == 0

    job = Job.objects.get()
    assert (job.kind, job.status) == (Job.Kind.STATS, Job.Status.QUEUED)
    scheduler.tick()  # not due again yet, and one queued job is enough anyway
    assert Job.objects.count() == 1
    assert run_worker() == 1
    job.refresh_from_db()
    assert (job.status, job.report["counted"]) == (Job.Status.DONE, 4)
    assert CountedGame.objects.count() == 4
    assert not Game.objects.filter(counted__isnull=True).exists()


@pytest.fixture
def broker_url(redis_broker: str) -> str:
    if connection.vendor != "postgresql":
        pytest.skip("the worker needs a database another process can reach: PostgreSQL")
    return redis_broker


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_celery_worker_with_beat_counts_games_a_dead_run_left(
    user: AbstractUser, broker_url: str, tmp_path: Path
) -> None:
    _stored_not_counted(user, 5)
    log = tmp_path / "celery.log"
    env = dict(os.environ, CELERY_BROKER_URL=broker_url, STATS_CHECK_SECONDS="1",
               DATABASE_URL=database_url(settings.DATABASES["default"]))
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-B",
               "-s", str(tmp_path / "beat-schedule"), "-l", "info", "--concurrency", "1",
               "--without-gossip", "--without-mingle", "--without-heartbeat"]
    with log.open("ab") as out:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out,
                                  start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not Job.objects.filter(
                kind=Job.Kind.STATS, status=Job.Status.DONE).exists():
            assert worker.poll() is None, log.read_text()[-3000:]
            time.sleep(0.5)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)

    text = log.read_text()
    jobs = list(Job.objects.filter(kind=Job.Kind.STATS))
    assert [(j.status, j.report.get("counted")) for j in jobs][:1] == [(Job.Status.DONE, 5)], \
        text[-3000:]
    assert CountedGame.objects.count() == 5
    assert not Game.objects.filter(counted__isnull=True).exists()
    # Beat sent the entry's task and the worker ran it, then the job it queued.
    assert "Sending due task statistics-catch-up (jobs.catch_up_stats)" in text
    assert "jobs.run_job" in text
