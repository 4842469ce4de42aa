"""The API side: a large upload answers 202 with its job; the job (creator and staff only)
shows its progress and, once done, every record's verdict as the upload endpoint gives it;
staff start a revalidation job."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from jobs.models import Job
from records.models import Game
from records.services import import_records
from tests.api.openapi import ResponseChecker, openapi_document

from .conftest import Upload, run_worker

pytestmark = pytest.mark.django_db
Clients = Callable[[Any], APIClient]
API_STATUS = {"stored": "created", "duplicate": "duplicate", "refused": "refused"}


@pytest.fixture(scope="module")
def checker() -> ResponseChecker:
    return ResponseChecker(openapi_document())


def _post(client: APIClient, upload: Upload, how: str) -> Any:
    if how == "body":
        return client.post("/api/v1/uploads/", data=upload.data, content_type="text/x-fcn")
    if how == "json":
        return client.post("/api/v1/uploads/", {"text": upload.text}, format="json")
    file = SimpleUploadedFile("club.fcn", upload.data, "text/plain")
    return client.post("/api/v1/uploads/", {"file": file}, format="multipart")


@pytest.mark.parametrize("how", ["body", "json", "file"])
def test_it_accepts_a_large_upload_as_a_job(
    client_for: Clients, user: AbstractUser, upload: Upload, checker: ResponseChecker, how: str
) -> None:
    client = client_for(user)

    response = _post(client, upload, how)

    assert response.status_code == 202
    body = response.json()
    checker.check("/api/v1/uploads/", "post", 202, "application/json", body)
    job = Job.objects.get()
    assert response["Location"] == body["url"] == f"http://testserver/api/v1/jobs/{job.pk}/"
    assert body["page"] == f"http://testserver/jobs/{job.pk}/"
    # No broker: the request only queued the job, for the worker (`manage.py run_jobs`).
    assert (body["status"], body["finished"], body["percent"]) == ("queued", False, None)
    assert not Game.objects.exists()

    assert run_worker() == 2  # the import, then the statistics it queued
    body = client.get(response["Location"]).json()
    checker.check(f"/api/v1/jobs/{job.pk}/", "get", 200, "application/json", body)
    assert (body["status"], body["finished"], body["percent"]) == ("done", True, 100)
    assert (body["stored"], body["duplicates"], body["refused"]) == (
        upload.stored, upload.duplicates, upload.refused)
    report = body["import_report"]
    assert [r["status"] for r in report["results"]] == [API_STATUS[s] for s in upload.statuses]
    assert report["results"][-1]["error"]["category"] == "not-in-hand"
    stored_ids = [r["id"] for r in report["results"][: upload.stored]]
    assert sorted(stored_ids) == sorted(Game.objects.values_list("pk", flat=True))
    assert report["results"][upload.stored]["id"] == stored_ids[0]  # the repeat's original


def test_it_answers_the_same_verdicts_as_a_synchronous_upload(
    client_for: Clients, user: AbstractUser, upload: Upload, settings: Any
) -> None:
    client = client_for(user)
    location = _post(client, upload, "body")["Location"]
    run_worker()
    job = client.get(location).json()["import_report"]
    Game.objects.all().delete()
    settings.BACKGROUND_IMPORT_MIN_BYTES = 10**9

    answer = _post(client, upload, "body")
    assert answer.status_code == 201  # within the request: the same job resource, finished
    direct = answer.json()["import_report"]

    def shape(report: dict[str, Any]) -> list[tuple[Any, ...]]:
        return [(r["index"], r["line"], r["status"], r["error"]) for r in report["results"]]

    assert shape(job) == shape(direct)
    assert {k: job[k] for k in ("created", "duplicates", "refused", "total")} == {
        k: direct[k] for k in ("created", "duplicates", "refused", "total")}


def test_it_shows_a_job_to_its_creator_and_staff_only(
    client_for: Clients, user: AbstractUser, other_user: AbstractUser, staff: AbstractUser,
    upload: Upload, checker: ResponseChecker,
) -> None:
    url = _post(client_for(user), upload, "body")["Location"]
    path = url.removeprefix("http://testserver")
    run_worker()

    answers = {who: client_for(person).get(path) for who, person in
               [("owner", user), ("staff", staff), ("other", other_user), ("anonymous", None)]}

    assert {who: r.status_code for who, r in answers.items()} == {
        "owner": 200, "staff": 200, "other": 404, "anonymous": 401}
    for response in answers.values():
        checker.check(path, "get", response.status_code, "application/json", response.json())
    assert answers["owner"].json()["import_report"]["created"] == upload.stored


def test_it_lists_only_the_callers_own_jobs(
    client_for: Clients, user: AbstractUser, staff: AbstractUser, checker: ResponseChecker
) -> None:
    mine = [Job.objects.create(kind=Job.Kind.IMPORT, created_by=user) for _ in range(2)]
    Job.objects.create(kind=Job.Kind.IMPORT, created_by=staff)

    response = client_for(user).get("/api/v1/jobs/")

    assert response.status_code == 200
    checker.check("/api/v1/jobs/", "get", 200, "application/json", response.json())
    assert [job["id"] for job in response.json()["results"]] == [j.pk for j in reversed(mine)]
    assert "import_report" not in response.json()["results"][0]
    assert client_for(None).get("/api/v1/jobs/").status_code == 401


def test_it_lets_staff_revalidate_the_archive_in_the_background(
    client_for: Clients, user: AbstractUser, staff: AbstractUser, upload: Upload,
    checker: ResponseChecker,
) -> None:
    import_records(upload.text, user)
    Game.objects.filter(pk=Game.objects.order_by("pk").first().pk).update(points=999)

    response = client_for(staff).post("/api/v1/jobs/revalidate/", {}, format="json")

    assert response.status_code == 202
    body = response.json()
    checker.check("/api/v1/jobs/revalidate/", "post", 202, "application/json", body)
    assert response["Location"] == body["url"]
    assert body["status"] == "queued"
    run_worker()
    body = client_for(staff).get(response["Location"]).json()
    assert (body["kind"], body["status"], body["total"]) == ("revalidate", "done", upload.stored)
    report = body["revalidate_report"]
    assert (report["checked"], report["unchanged"], report["changed"]) == (
        upload.stored, upload.stored - 1, 1)
    assert "points" in report["details"][0]["reason"]
    assert Game.objects.filter(stale=True).count() == 1


@pytest.mark.parametrize(("who", "status"), [("user", 403), ("anonymous", 401)])
def test_it_refuses_revalidation_to_everyone_but_staff(
    client_for: Clients, user: AbstractUser, who: str, status: int
) -> None:
    client = client_for(user if who == "user" else None)

    response = client.post("/api/v1/jobs/revalidate/", {}, format="json")

    assert response.status_code == status
    assert not Job.objects.exists()


def test_it_refuses_an_invalid_revalidation_option(
    client_for: Clients, staff: AbstractUser
) -> None:
    response = client_for(staff).post("/api/v1/jobs/revalidate/", {"stale": "maybe"},
                                      format="json")

    assert response.status_code == 400
    assert "stale" in response.json()["error"]["fields"]
