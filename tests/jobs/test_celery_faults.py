"""The Celery transport's answers to a database that goes away and to workers that die: a task
that cannot reach the database is tried again (not lost), the periodic take-over queues again the
work of a runner presumed dead (its lease ran out, or its process is gone), and a statistics job
row nobody runs never holds the count back. Run in-process (eager); scripts/fault_celery.py does
the same against a real broker, worker and PostgreSQL."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from celery.exceptions import Retry
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import OperationalError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from jobs import lease, parts, publish, tasks
from jobs.models import Job, JobPart
from jobs.queue import create_import_job
from jobs.runs import execute
from records.models import Game
from records.services import import_records, importing, storing

from .conftest import failing_at, make_upload

pytestmark = pytest.mark.django_db

DEAD = f"{lease.HOST}:999999999:dead"  # a runner of this host whose process is gone


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[tuple[str, int]]:
    """A broker is configured; what is sent to it is kept here instead."""
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/15"
    messages: list[tuple[str, int]] = []
    monkeypatch.setattr(publish, "_send", lambda name, pk, queue: messages.append((name, pk)))
    return messages


def _failing_once(real: Any) -> Any:
    return failing_at(real, 1, OperationalError("connection refused"))


def test_a_job_whose_task_cannot_reach_the_database_is_tried_again(
        user: AbstractUser, monkeypatch: pytest.MonkeyPatch) -> None:
    job = create_import_job(make_upload(3).data, user)
    monkeypatch.setattr(tasks, "claim", _failing_once(lease.claim))

    tasks.run_job.apply(args=[job.pk])  # eager: the retry runs at once

    job.refresh_from_db()
    assert (job.status, job.stored) == (Job.Status.DONE, 3)


def test_a_part_whose_task_cannot_reach_the_database_is_tried_again(
        user: AbstractUser, monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.JOB_PARTS, settings.JOB_PART_MIN_SIZE = 2, 3
    job = create_import_job(make_upload(6).data, user)
    token = lease.runner_token()
    runs_job = lease.claim(job.pk, token)
    assert runs_job is not None
    assert execute(runs_job, token) is None
    parts = list(JobPart.objects.filter(job=job).order_by("number"))
    assert len(parts) == 2
    monkeypatch.setattr(tasks, "claim_part", _failing_once(lease.claim_part))

    for part in parts:
        tasks.run_job_part.apply(args=[part.pk])

    job.refresh_from_db()
    assert (job.status, job.stored, job.duplicates) == (Job.Status.DONE, 6, 1)
    assert Game.objects.count() == 6


def test_a_split_job_whose_last_part_ended_without_ending_it_ends_when_taken_over(
        user: AbstractUser, monkeypatch: pytest.MonkeyPatch, settings: Any,
        sent: list[tuple[str, int]]) -> None:
    """A worker killed -9 between marking the last part done and ending the job: no part is
    left to end it, so the job's next delivery (the take-over's) does."""
    settings.JOB_PARTS, settings.JOB_PART_MIN_SIZE = 2, 3
    job = create_import_job(make_upload(6).data, user)
    token = lease.runner_token()
    runs_job = lease.claim(job.pk, token)
    assert runs_job is not None and execute(runs_job, token) is None
    ends_job = parts.finish_job
    monkeypatch.setattr(parts, "finish_job", lambda job_id: False)  # killed before it
    for part in JobPart.objects.filter(job=job):
        tasks.run_job_part.apply(args=[part.pk])
    monkeypatch.setattr(parts, "finish_job", ends_job)
    Job.objects.filter(pk=job.pk).update(runner=DEAD)  # the killed worker's run
    assert not JobPart.objects.filter(job=job, done=False).exists()
    sent.clear()

    tasks.take_over.apply()
    assert sent == [(publish.RUN_JOB, job.pk)]
    tasks.run_job.apply(args=[job.pk])

    job.refresh_from_db()
    assert (job.status, job.stored, job.duplicates) == (Job.Status.DONE, 6, 1)
    assert Game.objects.count() == 6


def _database_gone_at_second_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 4 records; the second one meets a database that stays down past the
    import's own retries (once: the next try finds it back)."""
    monkeypatch.setattr(importing, "BATCH_RECORDS", 4)
    monkeypatch.setattr(importing, "BATCH_SECONDS", 3600.0)
    gone = OperationalError("server closed the connection unexpectedly")
    monkeypatch.setattr(storing, "store_retrying",
                        failing_at(storing.store_retrying, 2, gone, returned=True))


def test_a_job_the_database_stops_midway_is_put_back_and_its_task_tried_again(
        user: AbstractUser, monkeypatch: pytest.MonkeyPatch) -> None:
    upload = make_upload(13)
    job = create_import_job(upload.data, user)
    _database_gone_at_second_batch(monkeypatch)

    with pytest.raises(Retry):
        tasks.run_job.run(job.pk)  # as a worker runs it: the task asks to be tried again

    job.refresh_from_db()
    assert (job.status, job.runner, job.resume_at, job.stored) == (Job.Status.QUEUED, "", 4, 4)
    tasks.run_job.apply(args=[job.pk])
    job.refresh_from_db()
    assert (job.status, job.stored, job.duplicates, job.refused) == (Job.Status.DONE, 13, 1, 1)
    assert Game.objects.count() == 13


def test_a_part_the_database_stops_midway_is_tried_again_from_its_last_batch(
        user: AbstractUser, monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.JOB_PARTS, settings.JOB_PART_MIN_SIZE = 2, 6
    job = create_import_job(make_upload(12).data, user)
    token = lease.runner_token()
    runs_job = lease.claim(job.pk, token)
    assert runs_job is not None and execute(runs_job, token) is None
    parts = list(JobPart.objects.filter(job=job).order_by("number"))
    assert len(parts) == 2
    _database_gone_at_second_batch(monkeypatch)

    for part in parts:
        tasks.run_job_part.apply(args=[part.pk])  # eager: the retry runs at once

    job.refresh_from_db()
    assert (job.status, job.stored, job.duplicates, job.refused) == (Job.Status.DONE, 12, 1, 1)
    assert Game.objects.count() == 12


def test_the_periodic_check_queues_again_a_job_whose_lease_ran_out(
        user: AbstractUser, sent: list[tuple[str, int]]) -> None:
    job = create_import_job(make_upload(3).data, user)
    old = timezone.now() - datetime.timedelta(seconds=lease.lease_seconds() + 1)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, runner="otherhost:1:x",
                                         heartbeat_at=old)

    tasks.take_over.apply()

    job.refresh_from_db()
    assert (job.status, job.runner) == (Job.Status.QUEUED, "")
    assert sent == [(publish.RUN_JOB, job.pk)]


def test_the_periodic_check_queues_again_at_once_a_job_whose_runner_process_is_gone(
        user: AbstractUser, sent: list[tuple[str, int]]) -> None:
    job = create_import_job(make_upload(3).data, user)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, runner=DEAD,
                                         heartbeat_at=timezone.now())
    alive = create_import_job(make_upload(2).data, user)
    Job.objects.filter(pk=alive.pk).update(status=Job.Status.RUNNING,
                                           runner=lease.runner_token(),
                                           heartbeat_at=timezone.now())

    tasks.take_over.apply()

    assert sent == [(publish.RUN_JOB, job.pk)]
    tasks.run_job.apply(args=[job.pk])
    job.refresh_from_db()
    assert (job.status, job.stored) == (Job.Status.DONE, 3)


def test_the_periodic_check_sends_again_a_part_nobody_runs(
        user: AbstractUser, sent: list[tuple[str, int]]) -> None:
    job = create_import_job(make_upload(3).data, user)
    old = timezone.now() - datetime.timedelta(seconds=lease.lease_seconds() + 1)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, runner="h:1:x",
                                         heartbeat_at=timezone.now())
    waiting = JobPart.objects.create(job=job, number=0, first_index=0, heartbeat_at=old)
    killed = JobPart.objects.create(job=job, number=1, first_index=2, runner=DEAD,
                                    heartbeat_at=timezone.now())
    JobPart.objects.create(job=job, number=2, first_index=3, heartbeat_at=timezone.now())

    tasks.take_over.apply()  # the job moves: a part nobody took yet waits behind the others

    assert sent == [(publish.RUN_PART, killed.pk)]
    sent.clear()
    Job.objects.filter(pk=job.pk).update(heartbeat_at=old, runner="")
    tasks.take_over.apply()  # the whole job stands still: that part's message is lost

    assert sent == [(publish.RUN_PART, waiting.pk)]
    sent.clear()
    Job.objects.filter(pk=job.pk).update(heartbeat_at=old, runner="otherhost:1:x")
    tasks.take_over.apply()  # its runner presumed dead too: the job, which sends its parts

    assert sent == [(publish.RUN_JOB, job.pk)]
    tasks.run_job.apply(args=[job.pk])
    assert (publish.RUN_PART, waiting.pk) in sent
    killed.refresh_from_db()
    assert killed.runner == ""


def _stored_not_counted(user: AbstractUser, count: int) -> None:
    import_records(make_upload(count).text, user, announce=False)
    assert Game.objects.filter(counted__isnull=True).count() == count


def test_a_queued_statistics_job_whose_message_was_lost_is_sent_again(
        user: AbstractUser, sent: list[tuple[str, int]]) -> None:
    _stored_not_counted(user, 2)
    orphan = Job.objects.create(kind=Job.Kind.STATS)  # queued before the switch to Celery

    tasks.catch_up_stats.apply()

    assert sent == [(publish.RUN_JOB, orphan.pk)]
    tasks.run_job.apply(args=[orphan.pk])
    assert not Game.objects.filter(counted__isnull=True).exists()


def test_a_running_statistics_job_nobody_runs_does_not_block_the_count(
        user: AbstractUser, sent: list[tuple[str, int]]) -> None:
    _stored_not_counted(user, 2)
    stuck = Job.objects.create(kind=Job.Kind.STATS, status=Job.Status.RUNNING, runner=DEAD,
                               heartbeat_at=timezone.now())

    tasks.catch_up_stats.apply()
    tasks.take_over.apply()

    fresh = Job.objects.get(kind=Job.Kind.STATS, status=Job.Status.QUEUED, pk__gt=stuck.pk)
    stuck.refresh_from_db()
    assert stuck.status == Job.Status.QUEUED  # taken over too: either one counts the games
    assert (publish.RUN_JOB, fresh.pk) in sent and (publish.RUN_JOB, stuck.pk) in sent
    for pk in (fresh.pk, stuck.pk):
        tasks.run_job.apply(args=[pk])
    assert not Game.objects.filter(counted__isnull=True).exists()


def test_the_checks_wait_for_a_database_that_is_down(monkeypatch: pytest.MonkeyPatch,
                                                     sent: list[tuple[str, int]]) -> None:
    def down() -> bool:
        raise OperationalError("connection refused")

    monkeypatch.setattr(publish, "stats_due", down)
    monkeypatch.setattr(publish, "take_over_abandoned", down)

    assert tasks.catch_up_stats.apply().successful()
    assert tasks.take_over.apply().successful()


def test_the_periodic_check_sends_again_a_queued_job_whose_message_was_lost(
        user: AbstractUser, sent: list[tuple[str, int]]) -> None:
    # Queued before a switch from the database worker to Celery, or its message lost with a
    # Redis that was not persisted: nobody would ever run it.
    lost = create_import_job(make_upload(3).data, user)
    old = timezone.now() - datetime.timedelta(seconds=lease.lease_seconds() + 1)
    Job.objects.filter(pk=lost.pk).update(created_at=old)
    create_import_job(make_upload(2, start=400).data, user)  # just queued: its message comes

    tasks.take_over.apply()

    assert sent == [(publish.RUN_JOB, lost.pk)]
    sent.clear()
    tasks.take_over.apply()  # sent again once a lease later, not at every check
    assert sent == []
    tasks.run_job.apply(args=[lost.pk])
    lost.refresh_from_db()
    assert (lost.status, lost.stored) == (Job.Status.DONE, 3)


def test_an_upload_is_answered_when_the_broker_is_down_and_its_job_sent_later(
        user: AbstractUser, client_for: Any, settings: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/15"

    def down(*args: Any, **kwargs: Any) -> None:
        raise BrokerUnavailable("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(publish.current_app, "send_task", down)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(user).post("/api/v1/uploads/", data=make_upload(8).data,
                                         content_type="text/x-fcn")

    assert response.status_code == 202, response.content[:300]
    job = Job.objects.get()
    assert job.status == Job.Status.QUEUED
    messages: list[tuple[str, int]] = []
    monkeypatch.setattr(publish.current_app, "send_task",
                        lambda name, args, queue: messages.append((name, args[0])))
    old = timezone.now() - datetime.timedelta(seconds=lease.lease_seconds() + 1)
    Job.objects.filter(pk=job.pk).update(created_at=old)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.take_over.apply()  # the broker back: the periodic check sends it
    assert messages == [(publish.RUN_JOB, job.pk)]


def test_a_dead_workers_job_is_taken_over_within_a_minute_by_the_defaults() -> None:
    # Another machine's worker waits for the lease to run out, then for beat's next check.
    check = settings.CELERY_BEAT_SCHEDULE["jobs-take-over"]["schedule"]

    assert lease.lease_seconds() + check <= 60
