"""A real job worker killed with SIGKILL in the middle of a background import: another
worker takes the job over and it ends with every valid record stored exactly once. Both the
default set-up's database worker (`manage.py run_jobs`) and a Celery worker.

Runs scripts/fault_worker_kill.py against this test database (and, for Celery, Redis database
5). Needs PostgreSQL (the workers are other processes: an in-memory SQLite test database is
not shared), and for Celery a Redis server at 127.0.0.1:6379; skipped otherwise.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection

from jobs.models import Job
from records.models import Game

ROOT = Path(__file__).resolve().parents[2]
BROKER = "redis://127.0.0.1:6379/5"
sys.path.insert(0, str(ROOT / "scripts"))
from fault_worker_kill import database_url  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def broker() -> Any:
    if connection.vendor != "postgresql":
        pytest.skip("the workers need a database other processes can reach: PostgreSQL")
    client = redis.Redis.from_url(BROKER, socket_connect_timeout=1)
    try:
        client.flushdb()
    except redis.RedisError as exc:
        pytest.skip(f"no Redis server for the broker at {BROKER}: {exc}")
    yield client
    client.flushdb()


@pytest.fixture
def no_broker() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the workers need a database other processes can reach: PostgreSQL")


def test_it_resumes_an_import_whose_celery_worker_was_killed(broker: Any, tmp_path: Path
                                                              ) -> None:
    _check_killed_worker(tmp_path, {"CELERY_BROKER_URL": BROKER}, "celery")


def test_it_resumes_an_import_whose_database_worker_was_killed(no_broker: None, tmp_path: Path
                                                                ) -> None:
    _check_killed_worker(tmp_path, {"CELERY_BROKER_URL": ""}, "run_jobs")


def test_it_redoes_the_parts_of_a_split_import_whose_celery_worker_was_killed(
        broker: Any, tmp_path: Path) -> None:
    # A longer phase timeout than the unsplit runs': two workers' processes start, plan and
    # run two parts at a time on a machine that may be loaded.
    figures = _run_fault_script(tmp_path, {"CELERY_BROKER_URL": BROKER}, "--parts", "3",
                                "--timeout", "120")
    assert figures["ok"], figures
    # Split into three parts, the killed worker's parts (two at a time) redone by the next.
    assert (figures["parts"], figures["job_status"]) == (3, "done")
    assert figures["parts_redone"] >= 1
    assert figures["accepted"] == 1201 and figures["refused_reported"] == 1
    # The verdicts of a serial run, even for records the killed run stored and never
    # reported: 1,200 stored and the planted repeat a duplicate.
    assert (figures["stored_reported"], figures["duplicates_reported"]) == (1200, 1)
    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert (job.resume_at, job.seen, job.total) == (1202, 1202, 1202)
    assert Game.objects.count() == Game.objects.values("content_hash").distinct().count() == 1200
    assert [r["index"] for r in job.report["results"]] == list(range(1000))


def _run_fault_script(tmp_path: Path, extra: dict[str, str], *args: str) -> dict[str, Any]:
    env = dict(os.environ, DATABASE_URL=database_url(settings.DATABASES["default"]), **extra)
    command = [sys.executable, str(ROOT / "scripts" / "fault_worker_kill.py"), "--records",
               "1200", "--kill-after", "1", "--kill-delay", "0.1", "--timeout", "60", "--json",
               "--log", str(tmp_path / "workers.log"), *args]
    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=330)
    log = (tmp_path / "workers.log").read_text() if (tmp_path / "workers.log").exists() else ""
    assert run.returncode in (0, 1) and run.stdout.strip(), run.stderr + log[-3000:]
    figures: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return figures | {"log": log[-3000:]}


def _check_killed_worker(tmp_path: Path, extra: dict[str, str], workers: str) -> None:
    env = dict(os.environ, DATABASE_URL=database_url(settings.DATABASES["default"]), **extra)
    command = [sys.executable, str(ROOT / "scripts" / "fault_worker_kill.py"), "--records",
               "1200", "--kill-after", "1", "--kill-delay", "0.1", "--timeout", "60", "--json",
               "--log", str(tmp_path / "workers.log")]

    run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=150)

    log = (tmp_path / "workers.log").read_text() if (tmp_path / "workers.log").exists() else ""
    assert run.returncode in (0, 1), run.stderr + log[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["ok"], (figures, log[-3000:])
    assert figures["workers"] == workers
    # Killed mid-import (after a batch, before the end), resumed by the second worker. The
    # import stores up to 250 records per batch: 1,200 records make several batches, so the
    # kill lands with most of the file still to do.
    assert 0 < figures["killed_at_resume_at"] < 1202
    assert (figures["job_status"], figures["job_attempts"]) == ("done", 2)
    assert figures["accepted"] == 1201 and figures["refused_reported"] == 1
    # Seen from here too: the job and exactly one game per valid record.
    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert (job.status, job.resume_at, job.seen, job.not_stored) == ("done", 1202, 1202, 0)
    assert Game.objects.count() == Game.objects.values("content_hash").distinct().count() == 1200
    # The report keeps the first 1,000 records' results and counts the rest.
    assert [r["index"] for r in job.report["results"]] == list(range(1000))
    assert job.report["results_omitted"] == 202
