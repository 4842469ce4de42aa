"""A real job worker killed with SIGKILL in the middle of a background import: another
worker takes the job over and it ends with every valid record stored exactly once. Both the
default set-up's database worker (`manage.py run_jobs`) and Celery workers, the job whole or
split in parts (the killed worker's parts redone by the next).

The workers are other processes on this test database (PostgreSQL: an in-memory SQLite test
database is not shared) and, for Celery, Redis database 5 (skipped without them). Quick
takeover: a 3 s lease and visibility timeout instead of production's minutes.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import connection
from django.db.models import Count, F

from config.celery import app
from jobs.models import Job, JobPart
from jobs.queue import create_import_job
from jobs.tasks import run_job
from records.models import Game
from scripts.served import celery, run_jobs, stop
from tests.worker import database_url

from .conftest import make_upload

RECORDS = 1200  # several of the import's 250-record batches: the kill lands mid-import
TAKEOVER = {"CELERY_VISIBILITY_TIMEOUT": "3", "CELERY_RESTORE_INTERVAL": "1",
            "JOB_LEASE_SECONDS": "3"}

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the workers need a database other processes can reach: PostgreSQL")


@pytest.fixture
def broker(redis_broker: str) -> Iterator[str]:
    before = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=redis_broker, task_always_eager=False)
    yield redis_broker
    app.conf.update(before)


def _kill_mid_import(user: AbstractUser, log: Path, broker: str = "", parts: int = 0
                     ) -> tuple[Job, int]:
    """The job after worker A was killed once it had handled a record and worker B ran it to
    its end; the records handled at the kill."""
    env = dict(os.environ, DATABASE_URL=database_url(settings.DATABASES["default"]),
               CELERY_BROKER_URL=broker, **TAKEOVER)
    if parts:
        env.update(JOB_PARTS=str(parts), JOB_PART_MIN_SIZE="1")
    job = create_import_job(make_upload(RECORDS).data, user, "kill.fcn")

    def worker(name: str) -> Any:
        if not broker:
            return run_jobs(env, log)
        return celery(env, log, concurrency=2 if parts else 1, beat=False, queue="kill",
                      name=name)

    if broker:
        run_job.apply_async(args=[job.pk], queue="kill")
    worker_a, worker_b = worker("kill-a"), None
    try:
        deadline = time.monotonic() + 120
        while job.resume_at < 1 and not job.finished:
            assert time.monotonic() < deadline and worker_a.poll() is None, log.read_text()
            time.sleep(0.05)
            job.refresh_from_db()
        # Somewhere in the next batch, maybe between its commit and report. A split job's parts
        # are killed at once: a part ends with its second batch, and the test asks for one
        # part the killed worker was running, to be redone.
        time.sleep(0 if parts else 0.1)
        stop(worker_a, signal.SIGKILL)
        job.refresh_from_db()
        assert not job.finished, "the job ended before the kill"
        killed_at = job.resume_at
        worker_b = worker("kill-b")
        while not job.finished:
            assert time.monotonic() < deadline + 120, log.read_text()[-3000:]
            time.sleep(0.2)
            job.refresh_from_db()
    finally:
        stop(worker_a, signal.SIGKILL)
        if worker_b is not None:
            stop(worker_b)
    # Every valid record stored once, none in part; the planted repeat a duplicate and the
    # illegal record refused, as a run never killed would report them.
    assert job.status == Job.Status.DONE, (job.error, log.read_text()[-3000:])
    assert (job.stored, job.duplicates, job.refused) == (RECORDS, 1, 1)
    assert (job.resume_at, job.seen, job.total) == (RECORDS + 2,) * 3
    hashes = Game.objects.values("content_hash").distinct().count()
    assert Game.objects.count() == hashes == RECORDS
    assert not Game.objects.annotate(n=Count("seats")).exclude(n=F("players")).exists()
    # The report keeps the first 1,000 records' results and counts the rest.
    assert [r["index"] for r in job.report["results"]] == list(range(1000))
    return job, killed_at


def test_it_resumes_an_import_whose_database_worker_was_killed(user: AbstractUser,
                                                                tmp_path: Path) -> None:
    job, killed_at = _kill_mid_import(user, tmp_path / "workers.log")
    assert 0 < killed_at < RECORDS + 2
    assert (job.attempts, job.not_stored, job.report["results_omitted"]) == (2, 0, 202)


def test_it_resumes_an_import_whose_celery_worker_was_killed(user: AbstractUser, broker: str,
                                                              tmp_path: Path) -> None:
    job, killed_at = _kill_mid_import(user, tmp_path / "workers.log", broker)
    assert 0 < killed_at < RECORDS + 2
    assert (job.attempts, job.not_stored) == (2, 0)


def test_it_redoes_the_parts_of_a_split_import_whose_celery_worker_was_killed(
        user: AbstractUser, broker: str, tmp_path: Path) -> None:
    job, _ = _kill_mid_import(user, tmp_path / "workers.log", broker, parts=3)
    # Split into three parts, the killed worker's parts (two at a time) redone by the next.
    attempts = list(JobPart.objects.filter(job=job).values_list("attempts", flat=True))
    assert len(attempts) == 3 and sum(n - 1 for n in attempts) >= 1
