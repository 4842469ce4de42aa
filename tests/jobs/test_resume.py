"""Progress and resumption: a job killed between batches resumes at `resume_at` and ends with
every valid record stored exactly once; one run at a time holds a job."""

from __future__ import annotations

import datetime
import io
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.management import CommandError, call_command
from django.db import OperationalError
from django.utils import timezone

import records.services
import records.services.importing
import records.services.storing
from jobs import lease, runs, tasks, work
from jobs.models import Job
from jobs.queue import create_import_job, resume
from records.models import Game
import fourcolor
from fourcolor.notation.identity import identity_text
from records.services import sha256_text

from .conftest import Upload, failing_at, make_upload, run_worker

pytestmark = pytest.mark.django_db
BATCH = 4


class Killed(BaseException):
    """Stands for SIGKILL: nothing in the task may catch it."""


@pytest.fixture(autouse=True)
def _small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records.services.importing, "BATCH_RECORDS", BATCH)
    monkeypatch.setattr(records.services.importing, "BATCH_SECONDS", 3600.0)


def _kill_at_progress(monkeypatch: pytest.MonkeyPatch, call: int) -> None:
    """Die when the job writes its `call`-th progress report: the batch before is committed,
    its progress never written (the worst moment for a kill)."""
    real = runs.update
    calls = {"progress": 0}

    def update(job: Job, token: str, **fields: Any) -> None:
        if "resume_at" in fields:
            calls["progress"] += 1
            if calls["progress"] == call:
                raise Killed
        real(job, token, **fields)

    monkeypatch.setattr(runs, "update", update)


def _abandon(job: Job) -> None:
    """The killed worker's lease runs out."""
    old = timezone.now() - datetime.timedelta(seconds=lease.lease_seconds() + 1)
    Job.objects.filter(pk=job.pk).update(heartbeat_at=old)


def _assert_stored_once(upload: Upload) -> None:
    hashes = list(Game.objects.values_list("content_hash", flat=True))
    assert len(hashes) == len(set(hashes)) == len(upload.valid)
    canonical = set(Game.objects.values_list("canonical_text", flat=True))
    assert {sha256_text(identity_text(fourcolor.parse_record(text)))
            for text in canonical} == set(hashes)
    # No partial game: every game has all its seats.
    for game in Game.objects.prefetch_related("seats"):
        assert game.seats.count() == game.players


def test_it_resumes_a_killed_import_where_its_progress_says(
    monkeypatch: pytest.MonkeyPatch, user: AbstractUser
) -> None:
    upload = make_upload(13)  # 15 records: batches of 4 valid records
    job = create_import_job(upload.data, user)
    _kill_at_progress(monkeypatch, call=3)

    with pytest.raises(Killed):
        tasks.run_job.apply(args=[job.pk], throw=True)

    job.refresh_from_db()
    assert (job.status, job.resume_at, job.stored, job.total) == ("running", 2 * BATCH, 8, 15)
    # Killed while writing the third batch's progress, which commits with the batch's games.
    assert Game.objects.count() == 2 * BATCH
    monkeypatch.undo()
    monkeypatch.setattr(records.services.importing, "BATCH_RECORDS", BATCH)
    _abandon(job)

    tasks.run_job.apply(args=[job.pk])

    job.refresh_from_db()
    assert (job.status, job.attempts, job.resume_at, job.not_stored) == ("done", 2, 15, 0)
    _assert_stored_once(upload)
    # Every record has exactly one verdict, in file order, as a run never killed gives them.
    results = job.report["results"]
    assert [r["index"] for r in results] == list(range(15))
    assert (job.stored, job.duplicates, job.refused) == (13, 1, 1)
    assert job.stored + job.duplicates + job.refused == job.seen == 15


def test_it_continues_a_job_from_resume_at(user: AbstractUser) -> None:
    upload = make_upload(10)
    job = create_import_job(upload.data, user)
    first = records.services.import_records(upload.data, user)
    partial = first.as_dict()
    # As if a run had reported the first 6 records and stopped: keep those 6 only.
    kept = [r for r in partial["results"] if r["index"] < 6]
    Game.objects.filter(pk__in=[r["game_id"] for r in partial["results"][6:10]]).delete()
    Job.objects.filter(pk=job.pk).update(
        resume_at=6, total=12, seen=6, stored=6, status=Job.Status.FAILED,
        report=partial | {"results": kept, "problems": [], "stored": 6, "duplicates": 0,
                          "refused": 0, "total": 6},
    )
    Job.objects.filter(pk=job.pk).update(status=Job.Status.QUEUED)

    tasks.run_job.apply(args=[job.pk])

    job.refresh_from_db()
    assert job.status == "done"
    assert [r["status"] for r in job.report["results"]] == upload.statuses
    assert (job.stored, job.duplicates, job.refused) == (10, 1, 1)
    _assert_stored_once(upload)


def test_it_leaves_a_job_alone_while_its_runner_holds_the_lease(user: AbstractUser) -> None:
    job = create_import_job(make_upload(3).data, user)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, heartbeat_at=timezone.now(),
                                         runner="someone-else")

    tasks.run_job.apply(args=[job.pk])

    job.refresh_from_db()
    assert (job.status, job.attempts, job.runner) == ("running", 0, "someone-else")
    assert not Game.objects.exists()


def test_it_stops_a_runner_whose_lease_was_taken_over(user: AbstractUser) -> None:
    job = create_import_job(make_upload(3).data, user)
    claimed = lease.claim(job.pk, "first")
    assert claimed is not None
    _abandon(job)
    assert lease.claim(job.pk, "second") is not None

    with pytest.raises(lease.LeaseLost):
        runs.update(claimed, "first", resume_at=3)

    job.refresh_from_db()
    assert (job.runner, job.resume_at, job.attempts) == ("second", 0, 2)


def test_it_marks_a_job_failed_with_what_was_not_stored_and_resumes_it(
    monkeypatch: pytest.MonkeyPatch, user: AbstractUser
) -> None:
    upload = make_upload(13)
    job = create_import_job(upload.data, user)
    real = records.services.storing.store_retrying
    calls = {"n": 0}

    def store(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 2:  # the database stays down past the import's own retries
            return OperationalError("server closed the connection unexpectedly")
        return real(*args, **kwargs)

    monkeypatch.setattr(records.services.storing, "store_retrying", store)

    tasks.run_job.apply(args=[job.pk])

    job.refresh_from_db()
    assert job.status == "failed" and "database unavailable" in job.error
    assert f"resumed from record {BATCH + 1}" in job.error
    assert (job.resume_at, job.stored, job.not_stored) == (BATCH, BATCH, 15 - BATCH)
    assert [r["index"] for r in job.report["results"]] == list(range(BATCH))
    assert Game.objects.count() == BATCH
    monkeypatch.setattr(records.services.storing, "store_retrying", real)

    resume(job)
    run_worker()

    job.refresh_from_db()
    assert (job.status, job.error, job.not_stored) == ("done", "", 0)
    assert (job.stored, job.duplicates, job.refused) == (13, 1, 1)
    assert [r["status"] for r in job.report["results"]] == upload.statuses
    _assert_stored_once(upload)


def test_it_revalidates_in_chunks_and_resumes_after_the_last_reported_one(
    monkeypatch: pytest.MonkeyPatch, user: AbstractUser
) -> None:
    upload = make_upload(7)
    records.services.import_records(upload.text, user)
    monkeypatch.setattr(work, "REVALIDATE_CHUNK", 3)
    job = Job.objects.create(kind=Job.Kind.REVALIDATE, created_by=user)
    real_update = runs.update
    _kill_at_progress(monkeypatch, call=2)

    with pytest.raises(Killed):
        tasks.run_job.apply(args=[job.pk], throw=True)
    job.refresh_from_db()
    assert (job.resume_at, job.report["checked"]) == (3, 3)
    monkeypatch.setattr(runs, "update", real_update)
    _abandon(job)

    tasks.run_job.apply(args=[job.pk])

    job.refresh_from_db()
    assert (job.status, job.resume_at, job.total) == ("done", 7, 7)
    assert (job.report["checked"], job.report["unchanged"]) == (7, 7)


def test_it_resumes_stopped_jobs_from_the_command(user: AbstractUser) -> None:
    upload = make_upload(5)
    failed = create_import_job(upload.data, user)
    Job.objects.filter(pk=failed.pk).update(status=Job.Status.FAILED, error="database down")
    running = create_import_job(make_upload(3, start=500).data, user)
    Job.objects.filter(pk=running.pk).update(status=Job.Status.RUNNING,
                                             heartbeat_at=timezone.now(), runner="alive")
    out = io.StringIO()

    call_command("resume_jobs", stdout=out)

    assert f"job {failed.pk}: done" in out.getvalue()
    assert Job.objects.get(pk=failed.pk).stored == 5
    assert Job.objects.get(pk=running.pk).runner == "alive"  # its lease is fresh: left alone
    with pytest.raises(CommandError, match="no unfinished job with id 999"):
        call_command("resume_jobs", "999", stdout=out)


def test_it_revalidates_in_the_background_from_the_command(user: AbstractUser) -> None:
    records.services.import_records(make_upload(4).text, user)
    Game.objects.filter(pk=Game.objects.order_by("pk").first().pk).update(points=999)
    out = io.StringIO()

    call_command("revalidate", "--background", stdout=out)

    job = Job.objects.get()
    assert (job.kind, job.status, job.created_by) == ("revalidate", "queued", None)
    assert f"job {job.pk} queued for the job worker: follow it at /jobs/{job.pk}/" in (
        out.getvalue())
    call_command("run_jobs", "--until-empty", stdout=out)
    job.refresh_from_db()
    assert job.status == "done"
    assert (job.report["checked"], job.report["unchanged"], job.report["changed"]) == (4, 3, 1)


def test_it_queues_a_job_the_database_stopped_again_for_the_worker(
    monkeypatch: pytest.MonkeyPatch, user: AbstractUser
) -> None:
    """No broker: the worker does not give up on a lost database; the job waits
    DB_RETRY_SECONDS and goes on from `resume_at`, with no command to run."""
    upload = make_upload(13)
    job = create_import_job(upload.data, user)
    storing = records.services.storing
    gone = OperationalError("server closed the connection unexpectedly")
    monkeypatch.setattr(storing, "store_retrying",
                        failing_at(storing.store_retrying, 2, gone, returned=True))

    run_worker()

    job.refresh_from_db()
    assert (job.status, job.resume_at, job.not_stored) == ("queued", BATCH, 15 - BATCH)
    assert "tried again automatically" in job.error
    assert job.run_after is not None and job.run_after > timezone.now()
    assert run_worker() == 0  # held back until run_after
    Job.objects.filter(pk=job.pk).update(run_after=timezone.now())

    run_worker()

    job.refresh_from_db()
    assert (job.status, job.error, job.not_stored, job.attempts) == ("done", "", 0, 2)
    assert [r["status"] for r in job.report["results"]] == upload.statuses
    _assert_stored_once(upload)
