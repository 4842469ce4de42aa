"""The database-backed worker (`manage.py run_jobs`): each job claimed by one worker, a dead
runner's job taken over, a job the database stopped held back and then resumed; statistics
counted by a job of their own, behind the uploads, and caught up when a run died between
storing and counting."""

from __future__ import annotations

import datetime
import io
import subprocess
import sys
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

import jobs.runs
import ratings.services
from jobs.models import Job
from jobs.lease import HOST, lease_seconds, runner_token
from jobs.publish import request_stats_if_due
from jobs.queue import create_import_job
from jobs.worker import Worker, claim_next
from ratings.models import CountedGame, PlayerTotals
from records.models import Game
from records.services import import_records

from .conftest import make_upload, run_worker

pytestmark = pytest.mark.django_db


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_it_gives_each_job_to_one_worker(user: AbstractUser) -> None:
    first = create_import_job(b"", user)
    second = create_import_job(b"", user)

    claims = [claim_next(runner_token()) for _ in range(3)]

    assert [job.pk if job else None for job in claims] == [first.pk, second.pk, None]
    assert {job.runner for job in claims if job} == {
        j.runner for j in Job.objects.filter(status=Job.Status.RUNNING)}
    assert [job.attempts for job in claims if job] == [1, 1]


def test_it_takes_over_at_once_a_job_whose_runner_process_is_gone(user: AbstractUser) -> None:
    now = timezone.now()
    dead = create_import_job(b"", user, runner=f"{HOST}:{_dead_pid()}:abc")
    alive = create_import_job(b"", user, runner=f"{HOST}:{__import__('os').getppid()}:abc")
    other_host = create_import_job(b"", user, runner="elsewhere:1:abc")
    Job.objects.update(heartbeat_at=now)  # every lease is fresh

    taken = claim_next(runner_token())

    assert taken is not None and taken.pk == dead.pk
    assert (taken.status, taken.attempts) == ("running", 2)
    assert claim_next(runner_token()) is None  # a live runner, or another host's: left alone
    assert {j.pk for j in Job.objects.filter(runner__endswith=":abc")} == {alive.pk,
                                                                           other_host.pk}


def test_it_takes_over_a_job_whose_lease_ran_out(user: AbstractUser) -> None:
    job = create_import_job(b"", user, runner="elsewhere:1:abc")
    stale = timezone.now() - datetime.timedelta(seconds=lease_seconds() + 1)
    Job.objects.filter(pk=job.pk).update(heartbeat_at=stale)

    taken = claim_next(runner_token())

    assert taken is not None and taken.pk == job.pk


def test_it_finishes_a_job_a_dead_request_left_half_done(user: AbstractUser,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """A request killed (gunicorn's timeout) in the middle of an upload it ran itself: the
    worker takes the job over and stores the rest, each record once."""
    upload = make_upload(9)
    job = create_import_job(upload.data, user, runner=f"{HOST}:{_dead_pid()}:req")

    run_worker()

    job.refresh_from_db()
    assert (job.status, job.stored, job.duplicates, job.refused) == ("done", 9, 1, 1)
    assert Game.objects.count() == 9


def test_it_refuses_to_start_beside_a_broker(settings: Any) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/1"

    with pytest.raises(CommandError, match="Celery"):
        call_command("run_jobs", "--until-empty")


def test_it_runs_the_queue_from_the_command(user: AbstractUser) -> None:
    create_import_job(make_upload(3).data, user)
    out = io.StringIO()

    call_command("run_jobs", "--until-empty", stdout=out)

    assert "2 jobs run" in out.getvalue()  # the import and the statistics it queued
    assert Game.objects.count() == 3
    assert CountedGame.objects.count() == 3


# --- statistics: behind the answer, never lost -------------------------------------------------


def test_it_answers_a_small_upload_before_counting_it(
    client_for: Any, user: AbstractUser, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.BACKGROUND_IMPORT_MIN_BYTES = 10**9  # in the request
    replays: list[str] = []
    real = ratings.services.rate_from
    monkeypatch.setattr(ratings.services, "rate_from",
                        lambda ruleset, *a, **k: replays.append(ruleset) or real(ruleset, *a, **k))
    client: APIClient = client_for(user)

    response = client.post("/api/v1/uploads/", data=make_upload(4).data,
                           content_type="text/x-fcn")

    assert response.status_code == 201 and response.json()["stored"] == 4
    assert (replays, CountedGame.objects.count()) == ([], 0)  # no rating replay in the request
    assert Job.objects.filter(kind=Job.Kind.STATS, status=Job.Status.QUEUED).count() == 1

    run_worker()

    assert CountedGame.objects.count() == 4 and replays
    assert PlayerTotals.objects.exists()


def test_it_answers_a_web_upload_before_counting_it(user: AbstractUser, settings: Any) -> None:
    settings.BACKGROUND_IMPORT_MIN_BYTES = 10**9
    client = Client()
    client.force_login(user)

    response = client.post("/upload/", {"text": make_upload(3).text})

    assert response.status_code == 303  # to the result page, the upload already stored
    assert Game.objects.count() == 3 and not CountedGame.objects.exists()
    run_worker()
    assert CountedGame.objects.count() == 3


def test_it_counts_games_a_dead_run_stored_without_counting(user: AbstractUser) -> None:
    """Games committed, then the run died before anything asked for their statistics: the
    worker's periodic look finds them (they are due by being stored and not counted)."""
    import_records(make_upload(5).text, user, announce=False)
    assert not Job.objects.exists()

    ran = Worker(stats_check=0).drain()

    assert ran == 1
    assert CountedGame.objects.count() == 5
    assert request_stats_if_due() is False  # nothing due any more: no job queued


def test_it_shows_a_count_that_failed(user: AbstractUser, monkeypatch: pytest.MonkeyPatch,
                                      client: Client) -> None:
    import_records(make_upload(3).text, user, announce=False)

    def broken(**kwargs: Any) -> Any:
        raise RuntimeError("totals table is read-only")

    monkeypatch.setattr(jobs.runs, "catch_up", broken)
    Worker(stats_check=0).drain()

    job = Job.objects.get(kind=Job.Kind.STATS)
    assert job.status == "failed" and f"logged as job {job.pk}" in job.error
    health = client.get("/healthz?detail=1").json()
    assert health["statistics"]["games_due"] == 3
    assert health["statistics"]["last_failure"]["job"] == job.pk
    assert health["statistics"]["last_failure"]["error"] == job.error

    monkeypatch.undo()
    Worker(stats_check=0).drain()  # the next look queues the count again

    assert CountedGame.objects.count() == 3
    health = client.get("/healthz?detail=1").json()
    assert health["statistics"]["games_due"] == 0
    assert health["statistics"]["last_failure"] is None


def test_it_says_ratings_are_updating_until_the_count_ran(client_for: Any, user: AbstractUser,
                                                           settings: Any) -> None:
    settings.BACKGROUND_IMPORT_MIN_BYTES = 10**9
    client: APIClient = client_for(user)
    client.post("/api/v1/uploads/", data=make_upload(3).data, content_type="text/x-fcn")
    player = Game.objects.first().seats.first().player  # type: ignore[union-attr]
    urls = ["/api/v1/stats/global/", "/api/v1/stats/leaderboard/?metric=rounds",
            f"/api/v1/players/{player.pk}/stats/"]

    before = [client.get(url).json()["ratings_updating"] for url in urls]
    run_worker()
    cache.clear()
    after = [client.get(url).json()["ratings_updating"] for url in urls]

    assert (before, after) == ([True] * 3, [False] * 3)


def test_it_says_ratings_are_updating_on_the_player_page(user: AbstractUser, client: Client
                                                          ) -> None:
    import_records(make_upload(3).text, user, announce=False)
    player = Game.objects.first().seats.first().player  # type: ignore[union-attr]

    before = client.get(f"/players/{player.pk}/")
    run_worker()
    cache.clear()
    after = client.get(f"/players/{player.pk}/")

    assert b'data-field="ratings-updating"' in before.content
    assert b'data-field="ratings-updating"' not in after.content


def test_it_shows_a_statistics_job_to_staff(staff: AbstractUser, user: AbstractUser) -> None:
    import_records(make_upload(3).text, user, announce=False)
    Worker(stats_check=0).drain()
    job = Job.objects.get(kind=Job.Kind.STATS)
    client = Client()
    client.force_login(staff)

    page = client.get(f"/jobs/{job.pk}/").content.decode()

    assert f"Statistics job {job.pk}" in page
    assert '<strong data-count="counted">3</strong>' in page
