"""With a broker, a large upload and a revalidation are split into parts (jobs/parts.py) that
real Celery workers run side by side, the job showing the whole progress and, at the end, the
report of a serial run: every record's verdict in file order (a record repeated in another part
stored once, its first occurrence "stored"), the same games stored. A batch of analyses
(jobs/batches.py) runs its games' analyses on the workers side by side, with the results of
one request per game. A worker killed -9 mid-analysis: its analyses are delivered again and
redone, and the batch ends with every game analysed as a serial run would.

A real `celery -A config worker --concurrency 2` on Redis and this test database (PostgreSQL:
the workers are other processes; skipped otherwise).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from itertools import pairwise
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import connection

from config.celery import app
from fourcolor.analysis import analyse
from jobs.analysis import Parameters
from jobs.batches import submit_batch
from jobs.models import Job, JobPart
from records.analysis import load_record
from jobs.queue import submit_revalidate, submit_upload
from records.models import Game, GameAnalysis
from records.services import ImportReport
from tests.worker import database_url

from .conftest import make_upload

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PART_ENV = {"JOB_PARTS": "3", "JOB_PART_MIN_SIZE": "4", "ANALYSIS_SAMPLES": "4"}


@pytest.fixture
def broker(settings: Any, redis_broker: str) -> Iterator[str]:
    if connection.vendor != "postgresql":
        pytest.skip("the workers need a database other processes can reach: PostgreSQL")
    settings.CELERY_BROKER_URL = redis_broker
    settings.JOB_PARTS, settings.JOB_PART_MIN_SIZE = 3, 4
    before = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=redis_broker, task_always_eager=False)
    yield redis_broker
    app.conf.update(before)


def _worker(url: str, log: Path, beat: bool = False, **extra: str) -> subprocess.Popen[Any]:
    env = dict(os.environ, CELERY_BROKER_URL=url,
               DATABASE_URL=database_url(settings.DATABASES["default"]), **{**PART_ENV, **extra})
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "info",
               "--concurrency", "2", "--without-gossip", "--without-mingle",
               "--without-heartbeat"]
    if beat:
        command += ["-B", "-s", str(log.with_name("beat-schedule"))]
    with log.open("ab") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out,
                                start_new_session=True)


def _stop(worker: subprocess.Popen[Any]) -> None:
    os.killpg(worker.pid, signal.SIGTERM)
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)


def _wait(job: Job, worker: subprocess.Popen[Any], log: Path, seconds: float = 120
          ) -> list[tuple[int, int]]:
    """Until the job ends; the (resume_at, total) progress seen on the way."""
    seen = []
    deadline = time.monotonic() + seconds
    while not job.finished:
        assert time.monotonic() < deadline and worker.poll() is None, log.read_text()[-3000:]
        time.sleep(0.2)
        job.refresh_from_db()
        seen.append((job.resume_at, job.total or 0))
    return seen


def test_celery_workers_run_an_uploads_parts_and_the_report_is_a_serial_ones(
        user: AbstractUser, broker: str, tmp_path: Path) -> None:
    upload = make_upload(20)  # 22 records: the repeat of the first one is in the last part
    log = tmp_path / "celery.log"
    worker = _worker(broker, log)
    try:
        job = submit_upload(upload.data, user, "big.fcn", size=len(upload.data)).job
        progress = _wait(job, worker, log)
        revalidation = submit_revalidate(user)
        _wait(revalidation, worker, log)
    finally:
        _stop(worker)

    assert job.status == Job.Status.DONE, (job.error, log.read_text()[-3000:])
    report = ImportReport.from_dict(job.report)
    assert [r.status for r in report.results] == upload.statuses
    assert [r.index for r in report.results] == list(range(22))
    assert (job.total, job.seen, job.resume_at) == (22, 22, 22)
    assert (job.stored, job.duplicates, job.refused) == (20, 1, 1)
    assert report.results[20].game_id == report.results[0].game_id
    assert Game.objects.count() == Game.objects.values("content_hash").distinct().count() == 20
    # Three parts, each run by a worker; the job counted their progress as they went.
    parts = list(JobPart.objects.filter(job=job).order_by("number"))
    assert [(p.first_index, p.stop_index) for p in parts] == [(0, 8), (8, 15), (15, None)]
    assert all(p.done and p.attempts == 1 for p in parts)
    assert all(done <= total for done, total in progress)
    text = log.read_text()
    assert text.count("jobs.run_part") >= 3

    assert revalidation.status == Job.Status.DONE, revalidation.error
    assert (revalidation.report["checked"], revalidation.report["unchanged"]) == (20, 20)
    assert JobPart.objects.filter(job=revalidation).count() == 3
    assert revalidation.total == revalidation.seen == 20


def test_celery_workers_run_a_batchs_analyses_side_by_side(
        user: AbstractUser, broker: str, tmp_path: Path, settings: Any) -> None:
    settings.ANALYSIS_SAMPLES = 4
    upload = make_upload(6)  # 8 records: two parts
    upload_job = submit_upload(upload.data, user, "six.fcn", size=len(upload.data)).job
    log = tmp_path / "celery.log"
    worker = _worker(broker, log, ANALYSIS_ON_UPLOAD="true")
    try:
        _wait(upload_job, worker, log)
        assert Game.objects.count() == 6 and upload_job.parts.count() == 2
        # The last part to end queued the analyses of what the upload stored.
        deadline = time.monotonic() + 30
        while (on_upload := Job.objects.filter(kind=Job.Kind.ANALYSES).first()) is None:
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
        _wait(on_upload, worker, log, seconds=300)
        games = list(Game.objects.order_by("pk").values_list("pk", flat=True))
        batch = submit_batch(user, Parameters.of(seed=1), games=games)
        progress = _wait(batch, worker, log, seconds=300)
    finally:
        _stop(worker)

    assert (on_upload.status, on_upload.stored, on_upload.options["upload"]["job"]) == (
        Job.Status.DONE, 6, upload_job.pk)

    assert batch.status == Job.Status.DONE, (batch.error, log.read_text()[-3000:])
    assert (batch.total, batch.stored, batch.refused, batch.resume_at) == (6, 6, 0, 6)
    assert all(done <= total for done, total in progress)
    children = list(batch.children.order_by("pk"))
    assert len(children) == 6 and all(c.status == "done" and c.attempts == 1 for c in children)
    # Two worker processes took them: runs overlapped in time.
    spans = sorted((c.started_at, c.finished_at) for c in children)
    assert any(later[0] < earlier[1] for earlier, later in pairwise(spans)), spans
    for pk in games:
        expected = analyse(load_record(Game.objects.get(pk=pk)), samples=4, seed=1)
        assert GameAnalysis.objects.get(game_id=pk).result == expected.to_dict()


def test_a_killed_celery_workers_analysis_is_redone_and_the_batch_ends(
        user: AbstractUser, broker: str, tmp_path: Path, settings: Any) -> None:
    settings.ANALYSIS_SAMPLES = 64
    games = [g.pk for g in _games(3)]
    # Quick redelivery and takeover, for the workers only (as tests/jobs/test_worker_kill.py).
    fast = {"ANALYSIS_SAMPLES": "64", "CELERY_VISIBILITY_TIMEOUT": "3",
            "CELERY_RESTORE_INTERVAL": "1", "JOB_LEASE_SECONDS": "3"}
    log = tmp_path / "celery.log"
    worker = _worker(broker, log, **fast)
    try:
        batch = submit_batch(user, Parameters.of(), games=games)
        deadline = time.monotonic() + 60
        while not Job.objects.filter(batch=batch, status=Job.Status.RUNNING).exists():
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.05)
        os.killpg(worker.pid, signal.SIGKILL)  # mid-analysis (one or two: two processes)
        worker.wait(timeout=10)
        killed = list(Job.objects.filter(batch=batch, status=Job.Status.RUNNING))
        # With beat, as deployed: a message the kill lost (taken off Redis's queue, not yet
        # noted as unacknowledged) is sent again by its take-over check.
        worker = _worker(broker, log, beat=True, **fast)
        _wait(batch, worker, log, seconds=300)
    finally:
        _stop(worker)

    batch.refresh_from_db()
    assert (batch.status, batch.stored, batch.refused) == (Job.Status.DONE, 3, 0), batch.error
    assert killed
    for job in killed:
        job.refresh_from_db()
        assert job.status == Job.Status.DONE and job.attempts >= 2
    for pk in games:
        expected = analyse(load_record(Game.objects.get(pk=pk)), samples=64, seed=0)
        assert GameAnalysis.objects.get(game_id=pk).result == expected.to_dict()


def _games(count: int) -> list[Game]:
    from tests.api.conftest import round_text, store

    ids = store([round_text(110 + n, "classic", 4, ("An", "Bình", "Chi", "Dũng"))
                 for n in range(count)])
    return list(Game.objects.filter(pk__in=ids).order_by("pk"))
