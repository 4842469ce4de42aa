"""GET /healthz: 200 when the database answers, 503 when it does not."""

from __future__ import annotations

import datetime

import pytest
from django.db import OperationalError, connection
from django.test import Client

from config import views


@pytest.mark.django_db
def test_it_reports_ok_when_the_database_answers(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "status": "ok",
        "database": {"ok": True, "vendor": connection.vendor},
    }
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_it_answers_head_requests(client: Client) -> None:
    assert client.head("/healthz").status_code == 200


class _UnreachableDatabase:
    vendor = "unreachable"

    def cursor(self) -> None:
        raise OperationalError("could not connect to server: Connection refused (secret=hunter2)")


def test_it_reports_503_without_details_when_the_database_fails(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "connection", _UnreachableDatabase())

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "database": {"ok": False, "error": "OperationalError"},
    }
    assert b"hunter2" not in response.content


def test_it_refuses_writes(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_it_reports_degraded_when_games_wait_too_long_to_be_counted(client: Client) -> None:
    from django.core.cache import cache
    from django.utils import timezone

    from jobs.health import counting_bound
    from records.models import Game
    from records.services import import_records
    from tests.records.conftest import fcn_file, good_texts

    cache.clear()
    import_records(fcn_file(good_texts(2)), None, announce=False)
    assert client.get("/healthz").json()["status"] == "ok"  # just stored: not late
    long_ago = timezone.now() - datetime.timedelta(seconds=counting_bound() + 1)
    Game.objects.update(uploaded_at=long_ago)
    cache.clear()

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["reasons"] == [f"2 stored games waiting more than {counting_bound()} s to be "
                               "counted in the statistics"]


@pytest.mark.django_db
def test_it_reports_degraded_when_a_job_makes_no_progress_past_its_lease(
        client: Client) -> None:
    from django.core.cache import cache
    from django.utils import timezone

    from jobs.lease import lease_seconds
    from jobs.models import Job

    cache.clear()
    stale = timezone.now() - datetime.timedelta(seconds=lease_seconds() + 1)
    job = Job.objects.create(kind=Job.Kind.STATS, status=Job.Status.RUNNING, runner="h:1:x",
                             heartbeat_at=stale)

    body = client.get("/healthz").json()

    assert body["status"] == "degraded"
    assert body["reasons"] == [f"no progress for more than {lease_seconds()} s (the lease) on "
                               f"job {job.pk}"]
    Job.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now())
    assert client.get("/healthz").json()["status"] == "ok"


@pytest.mark.django_db
def test_it_reports_degraded_when_a_part_of_a_job_makes_no_progress_past_its_lease(
        client: Client) -> None:
    from django.core.cache import cache
    from django.utils import timezone

    from jobs.lease import lease_seconds
    from jobs.models import Job, JobPart

    cache.clear()
    stale = timezone.now() - datetime.timedelta(seconds=lease_seconds() + 1)
    job = Job.objects.create(kind=Job.Kind.IMPORT, status=Job.Status.RUNNING, runner="h:1:x",
                             heartbeat_at=timezone.now())  # its other part moves
    JobPart.objects.create(job=job, number=0, first_index=0, runner="h:1:y",
                           heartbeat_at=timezone.now())
    stuck = JobPart.objects.create(job=job, number=1, first_index=5, runner="h:2:z",
                                   heartbeat_at=stale)
    JobPart.objects.create(job=job, number=2, first_index=9, heartbeat_at=stale)  # waits

    body = client.get("/healthz").json()

    assert body["status"] == "degraded"
    assert body["reasons"] == [f"no progress for more than {lease_seconds()} s (the lease) on "
                               f"job {job.pk}"]
    JobPart.objects.filter(pk=stuck.pk).update(heartbeat_at=timezone.now())
    assert client.get("/healthz").json()["status"] == "ok"
